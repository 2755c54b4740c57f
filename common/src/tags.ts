import { formatCoins } from "./format";

/** Tags: objective-based titles (spec section 3). */
export const OBJECTIVE_TYPES = ["first_game", "total_games", "balance", "win_streak", "card_games", "dice_games"] as const;
export type ObjectiveType = (typeof OBJECTIVE_TYPES)[number];

/** The spec's objective text for a tag, its number with thousands separators ("Reach 5,000 coins"). */
export function objectiveText(objectiveType: string, criteria: number): string {
  const n = formatCoins(criteria);
  switch (objectiveType) {
    case "first_game":
      return "Play your first game";
    case "total_games":
      return `Play ${n} games`;
    case "balance":
      return `Reach ${n} coins`;
    case "win_streak":
      return `Win ${n} games in a row`;
    case "card_games":
      return `Play ${n} card games`;
    case "dice_games":
      return `Play ${n} dice games`;
    default:
      return `Complete the objective (${n})`;
  }
}

/** Progress toward a tag as the spec's percentage, capped at 100. */
export const progressPercent = (progress: number, criteria: number): number =>
  criteria <= 0 ? 100 : Math.min(100, Math.floor((progress / criteria) * 100));
