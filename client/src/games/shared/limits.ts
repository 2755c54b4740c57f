import type { GameId } from "@casino/common/catalogue";
import { MAX_BET } from "@casino/common/limits";
import { minBetFor as strictestMinimum } from "@casino/common/games/min-bet";
import { MAX_ANTE } from "@casino/common/games/poker";

/**
 * The stake limits of each game's table, read here and nowhere else. The minimum is the game's
 * strictest minimum bet (common/src/games/min-bet.ts: the smallest stake whose payouts lose at most
 * 1 % to whole-coin rounding, for every bet type of the game), per chip on chip tables: a stake the
 * panel accepts is never one the server refuses as below the minimum.
 */
export function minBetFor(game: GameId): number {
  return strictestMinimum(game);
}

/** Caribbean Stud's ante is capped so that the raise (twice the ante) stays within the bet limit. */
export function maxBetFor(game: GameId): number {
  return game === "poker" ? MAX_ANTE : MAX_BET;
}
