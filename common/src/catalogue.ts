/** The lobby's games (spec section 2): id, title, description, category and kind. */
export const GAME_IDS = [
  "blackjack",
  "poker",
  "baccarat",
  "three-card-poker",
  "video-poker",
  "crash",
  "coin-flip",
  "hi-lo",
  "dice",
  "limbo",
  "dot-battle",
  "craps",
  "sic-bo",
  "slots",
  "roulette",
  "keno",
  "mines",
  "dots",
] as const;
export type GameId = (typeof GAME_IDS)[number];

export const CATEGORIES = ["Card Games", "Quick Games", "Dice Games", "Table Games", "Strategy Games", "No Risk Games"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface GameDefinition {
  id: GameId;
  title: string;
  description: string;
  category: Category;
  /** chance games move coins through the casino room; skill games have their own rewards. */
  kind: "chance" | "skill";
}

export const GAMES: readonly GameDefinition[] = [
  {
    id: "blackjack",
    title: "Blackjack",
    description: "Beat the dealer to 21. Blackjack pays 3:2.",
    category: "Card Games",
    kind: "chance",
  },
  { id: "poker", title: "Texas Hold'em", description: "Five-card poker against the dealer.", category: "Card Games", kind: "chance" },
  { id: "baccarat", title: "Baccarat", description: "Back the player, the banker or a tie.", category: "Card Games", kind: "chance" },
  {
    id: "three-card-poker",
    title: "Three Card Poker",
    description: "Ante, play and Pair Plus against the dealer.",
    category: "Card Games",
    kind: "chance",
  },
  {
    id: "video-poker",
    title: "Video Poker",
    description: "Jacks or Better: hold, draw and hit a winning hand.",
    category: "Card Games",
    kind: "chance",
  },
  { id: "crash", title: "Crash", description: "Cash out before the multiplier crashes.", category: "Quick Games", kind: "chance" },
  { id: "coin-flip", title: "Coin Flip", description: "Heads or tails for 1.98×.", category: "Quick Games", kind: "chance" },
  { id: "hi-lo", title: "Hi-Lo", description: "Guess whether the next card is higher or lower.", category: "Quick Games", kind: "chance" },
  { id: "dice", title: "Dice", description: "Roll over or under your target.", category: "Quick Games", kind: "chance" },
  {
    id: "limbo",
    title: "Limbo",
    description: "Pick a target multiplier and hope the result beats it.",
    category: "Quick Games",
    kind: "chance",
  },
  { id: "dot-battle", title: "Dot Battle", description: "Bullet-hell arena: 1 kill = 1 coin.", category: "Quick Games", kind: "skill" },
  { id: "craps", title: "Craps", description: "Pass line, come, odds and proposition bets.", category: "Dice Games", kind: "chance" },
  { id: "sic-bo", title: "Sic Bo", description: "Bet on the sum and faces of three dice.", category: "Dice Games", kind: "chance" },
  { id: "slots", title: "Slots", description: "Three reels of classic fruit.", category: "Table Games", kind: "chance" },
  { id: "roulette", title: "Roulette", description: "European single-zero wheel.", category: "Table Games", kind: "chance" },
  { id: "keno", title: "Keno", description: "Pick up to 10 of 40 numbers.", category: "Strategy Games", kind: "chance" },
  {
    id: "mines",
    title: "Mines",
    description: "Uncover gems, avoid the mines, cash out any time.",
    category: "Strategy Games",
    kind: "chance",
  },
  { id: "dots", title: "Connect the Dots", description: "Complete the puzzle to earn 5 coins.", category: "No Risk Games", kind: "skill" },
];

export const CARD_GAME_IDS: readonly GameId[] = GAMES.filter((g) => g.category === "Card Games").map((g) => g.id);
export const DICE_GAME_IDS: readonly GameId[] = ["craps", "sic-bo", "dice"];

export const gameDefinition = (id: string): GameDefinition | undefined => GAMES.find((g) => g.id === id);
