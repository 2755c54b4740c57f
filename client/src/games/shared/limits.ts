import type { GameId } from "@casino/common/catalogue";
import { MAX_BET, MIN_BET } from "@casino/common/limits";
import { minBetFor as strictestMinimum } from "@casino/common/games/min-bet";
import { actionMinimum, betMinimum } from "@casino/common/games/odds";
import { MAX_ANTE } from "@casino/common/games/poker";

/**
 * The stake limits of each game's table, read here and nowhere else. Minimums come from
 * common/src/games/min-bet.ts (the smallest stake whose payouts lose at most 1 % to whole-coin rounding):
 * the panel holds the amount to the minimum of the bet configured (`panelMinimum`), which is exactly what
 * the server checks, so a stake the panel accepts is never one the server refuses as below the minimum.
 */

/** The game's strictest minimum, safe for every bet of the game: the field's starting amount. */
export function minBetFor(game: GameId): number {
  return strictestMinimum(game);
}

/**
 * The minimum of the configured bet per unit of the panel's amount (per chip on a chip table):
 * `unitParams` is the bet with the amount at one coin (every chip worth 1), or null while the table has
 * no bet to send (no chip down). Without a bet the amount has only the coin minimum: nothing can be sent
 * until there is a bet, and its own minimum applies from then on.
 */
export function panelMinimum(game: GameId, unitParams: unknown): number {
  return (unitParams === null ? null : betMinimum(game, unitParams)) ?? MIN_BET;
}

/** The same for chips staged during an open round (craps bets between rolls), at one coin each. */
export function roundMinimum(game: GameId, state: unknown, unitAction: unknown): number {
  return actionMinimum(game, state, unitAction) ?? MIN_BET;
}

/** Caribbean Stud's ante is capped so that the raise (twice the ante) stays within the bet limit. */
export function maxBetFor(game: GameId): number {
  return game === "poker" ? MAX_ANTE : MAX_BET;
}
