import { formatCoins } from "./format";

/** Tags: objective-based titles (spec section 3). */
/**
 * `race_win` is no counter: the tag is awarded once, by the end of a race of an activity instance that
 * the player won (server/src/together/race.ts).
 */
export const OBJECTIVE_TYPES = ["first_game", "total_games", "balance", "win_streak", "card_games", "dice_games", "race_win"] as const;
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
    case "race_win":
      return "Win a race in an activity with friends";
    default:
      return `Complete the objective (${n})`;
  }
}

/** Progress toward a tag as the spec's percentage, capped at 100. */
export const progressPercent = (progress: number, criteria: number): number =>
  criteria <= 0 ? 100 : Math.min(100, Math.floor((progress / criteria) * 100));
