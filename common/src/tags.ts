/** Tags: objective-based titles (spec section 3). */
export const OBJECTIVE_TYPES = ["first_game", "total_games", "balance", "win_streak", "card_games", "dice_games"] as const;
export type ObjectiveType = (typeof OBJECTIVE_TYPES)[number];

/** The spec's objective text for a tag. */
export function objectiveText(objectiveType: string, criteria: number): string {
  switch (objectiveType) {
    case "first_game":
      return "Play your first game";
    case "total_games":
      return `Play ${criteria} games`;
    case "balance":
      return `Reach ${criteria} coins`;
    case "win_streak":
      return `Win ${criteria} games in a row`;
    case "card_games":
      return `Play ${criteria} card games`;
    case "dice_games":
      return `Play ${criteria} dice games`;
    default:
      return `Complete the objective (${criteria})`;
  }
}

/** Progress toward a tag as the spec's percentage, capped at 100. */
export const progressPercent = (progress: number, criteria: number): number =>
  criteria <= 0 ? 100 : Math.min(100, Math.floor((progress / criteria) * 100));

export interface TagSeed {
  name: string;
  description: string;
  objectiveType: ObjectiveType;
  objectiveCriteria: number;
}

const tag = (name: string, description: string, objectiveType: ObjectiveType, objectiveCriteria: number): TagSeed => ({
  name,
  description,
  objectiveType,
  objectiveCriteria,
});

export const TAG_SEEDS: readonly TagSeed[] = [
  tag("Newcomer", "Played a first game at the casino.", "first_game", 1),
  tag("Regular", "A familiar face at the tables.", "total_games", 50),
  tag("Veteran", "Hundreds of rounds and still going.", "total_games", 250),
  tag("Legend", "A thousand games played.", "total_games", 1000),
  tag("Comfortable", "Built a bankroll of 5,000 coins.", "balance", 5000),
  tag("High Roller", "Reached 25,000 coins.", "balance", 25000),
  tag("Tycoon", "Reached 100,000 coins.", "balance", 100000),
  tag("Hot Hand", "Won three games in a row.", "win_streak", 3),
  tag("On Fire", "Won five games in a row.", "win_streak", 5),
  tag("Unstoppable", "Won ten games in a row.", "win_streak", 10),
  tag("Card Shark", "Played 25 card games.", "card_games", 25),
  tag("Card Master", "Played 100 card games.", "card_games", 100),
  tag("Dice Roller", "Played 25 dice games.", "dice_games", 25),
  tag("Dice Master", "Played 100 dice games.", "dice_games", 100),
];
