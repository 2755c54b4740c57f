import type { AnyGameEngine } from "./games/engine";

/**
 * The lobby's games (spec section 2), in the lobby's order: the one registry of games. Each entry is a
 * game's card (id, title, description, category, kind) and, for a game of chance, the loader of its
 * engine (`common/src/games/<game>/engine.ts`, which default-exports it). The loaders keep the engines
 * out of the lobby's bundle; `games/registry.ts` runs them once (`ENGINES`). Everything else that needs
 * a game (its table, its exact RTP, its fairness page, its tests) is found by the game's id.
 */
export const CATEGORIES = ["Card Games", "Quick Games", "Dice Games", "Table Games", "Strategy Games", "No Risk Games"] as const;
export type Category = (typeof CATEGORIES)[number];

type EngineModule = Promise<{ default: AnyGameEngine }>;

interface GameEntry {
  id: string;
  title: string;
  description: string;
  category: Category;
  /** chance games move coins through the casino room (`engine`); skill games have their own rewards. */
  kind: "chance" | "skill";
  /** played with dice: its rounds count toward the dice-game tags (a dice game may sit in any category) */
  dice?: true;
  /** other words players search the game by (other names, what it is played with) */
  keywords: readonly string[];
  engine?: () => EngineModule;
}

const chance = (engine: () => EngineModule) => ({ kind: "chance" as const, engine });
const skill = { kind: "skill" as const };

export const GAMES = [
  {
    id: "blackjack",
    title: "Blackjack",
    description: "Beat the dealer to 21. Blackjack pays 3:2.",
    category: "Card Games",
    keywords: ["21", "twenty-one", "cards"],
    ...chance(() => import("./games/blackjack/engine")),
  },
  {
    id: "poker",
    title: "Texas Hold'em",
    description: "Five-card poker against the dealer.",
    category: "Card Games",
    keywords: ["holdem", "hold em", "poker", "cards"],
    ...chance(() => import("./games/poker/engine")),
  },
  {
    id: "baccarat",
    title: "Baccarat",
    description: "Back the player, the banker or a tie.",
    category: "Card Games",
    keywords: ["punto banco", "cards"],
    ...chance(() => import("./games/baccarat/engine")),
  },
  {
    id: "three-card-poker",
    title: "Three Card Poker",
    description: "Ante, play and Pair Plus against the dealer.",
    category: "Card Games",
    keywords: ["poker", "3 card", "cards"],
    ...chance(() => import("./games/three-card-poker/engine")),
  },
  {
    id: "video-poker",
    title: "Video Poker",
    description: "Jacks or Better: hold, draw and hit a winning hand.",
    category: "Card Games",
    keywords: ["poker", "jacks or better", "cards"],
    ...chance(() => import("./games/video-poker/engine")),
  },
  {
    id: "crash",
    title: "Crash",
    description: "Cash out before the multiplier crashes.",
    category: "Quick Games",
    keywords: ["rocket", "multiplier", "together"],
    ...chance(() => import("./games/crash/engine")),
  },
  {
    id: "coin-flip",
    title: "Coin Flip",
    description: "Heads or tails for 1.98×.",
    category: "Quick Games",
    keywords: ["heads", "tails", "toss"],
    ...chance(() => import("./games/coin-flip/engine")),
  },
  {
    id: "hi-lo",
    title: "Hi-Lo",
    description: "Guess whether the next card is higher or lower.",
    category: "Quick Games",
    keywords: ["higher", "lower", "hilo", "cards"],
    ...chance(() => import("./games/hi-lo/engine")),
  },
  {
    id: "dice",
    title: "Dice",
    description: "Roll over or under your target.",
    category: "Quick Games",
    keywords: ["roll"],
    dice: true,
    ...chance(() => import("./games/dice/engine")),
  },
  {
    id: "limbo",
    title: "Limbo",
    description: "Pick a target multiplier and hope the result beats it.",
    category: "Quick Games",
    keywords: ["multiplier", "target"],
    ...chance(() => import("./games/limbo/engine")),
  },
  {
    id: "dot-battle",
    title: "Dot Battle",
    description: "Bullet-hell arena: 1 kill = 1 coin.",
    category: "Quick Games",
    keywords: ["skill", "free", "shooter", "arena"],
    ...skill,
  },
  {
    id: "craps",
    title: "Craps",
    description: "Pass line, come, odds and proposition bets.",
    category: "Dice Games",
    keywords: ["dice", "pass line"],
    dice: true,
    ...chance(() => import("./games/craps/engine")),
  },
  {
    id: "sic-bo",
    title: "Sic Bo",
    description: "Bet on the sum and faces of three dice.",
    category: "Dice Games",
    keywords: ["dice", "tai sai", "big small"],
    dice: true,
    ...chance(() => import("./games/sic-bo/engine")),
  },
  {
    id: "slots",
    title: "Slots",
    description: "Three reels of classic fruit.",
    category: "Table Games",
    keywords: ["fruit", "reels", "machine"],
    ...chance(() => import("./games/slots/engine")),
  },
  {
    id: "roulette",
    title: "Roulette",
    description: "European single-zero wheel.",
    category: "Table Games",
    keywords: ["wheel", "red", "black", "zero"],
    ...chance(() => import("./games/roulette/engine")),
  },
  {
    id: "keno",
    title: "Keno",
    description: "Pick up to 10 of 40 numbers.",
    category: "Strategy Games",
    keywords: ["lottery", "numbers"],
    ...chance(() => import("./games/keno/engine")),
  },
  {
    id: "mines",
    title: "Mines",
    description: "Uncover gems, avoid the mines, cash out any time.",
    category: "Strategy Games",
    keywords: ["minesweeper", "gems"],
    ...chance(() => import("./games/mines/engine")),
  },
  {
    id: "dots",
    title: "Connect the Dots",
    description: "Complete the puzzle to earn 5 coins.",
    category: "No Risk Games",
    keywords: ["skill", "free", "puzzle", "no risk"],
    ...skill,
  },
] as const satisfies readonly GameEntry[];

export type GameId = (typeof GAMES)[number]["id"];
export const GAME_IDS = GAMES.map((g) => g.id) as [GameId, ...GameId[]];

/** A game's card as the lobby and the rest of the code read it. */
export interface GameDefinition extends GameEntry {
  id: GameId;
}

export const CARD_GAME_IDS: readonly GameId[] = GAMES.filter((g) => g.category === "Card Games").map((g) => g.id);
export const DICE_GAME_IDS: readonly GameId[] = GAMES.filter((g) => "dice" in g && g.dice).map((g) => g.id);

export const gameDefinition = (id: string): GameDefinition | undefined => (GAMES as readonly GameDefinition[]).find((g) => g.id === id);

/**
 * The Hold'em table is not a game of the catalogue (players play each other at it, the house takes
 * nothing), but its hands are rows of the players' history and of the activity feeds: named by this id.
 */
export const HOLDEM_GAME = "holdem";
export const HOLDEM_TITLE = "Hold'em table";

/** What a history or feed row's game is called: the catalogue's title, the Hold'em table's, or the id itself. */
export const gameTitleOf = (game: string): string => gameDefinition(game)?.title ?? (game === HOLDEM_GAME ? HOLDEM_TITLE : game);
