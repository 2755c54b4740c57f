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
