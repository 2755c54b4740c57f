import type { GameId } from "@casino/common/catalogue";
import { MAX_BET } from "@casino/common/limits";
import { MAX_ANTE } from "@casino/common/games/poker/engine";

/**
 * The stake limits of each game's table, read here and nowhere else. Every bet takes any stake from
 * 1 coin (payouts are rounded without bias, common/src/fairness/rounding.ts); only the top differs.
 */

/** Caribbean Stud's ante is capped so that the raise (twice the ante) stays within the bet limit. */
export function maxBetFor(game: GameId): number {
  return game === "poker" ? MAX_ANTE : MAX_BET;
}
