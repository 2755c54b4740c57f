import type { GameId } from "@casino/common/catalogue";
import { MAX_BET, MIN_BET } from "@casino/common/limits";
import { MAX_ANTE } from "@casino/common/games/poker";

/**
 * The stake limits of each game's table. The minimum is read here and nowhere else, so the per-game
 * minimum bets of `common/limits` take effect in every table by changing this one function.
 */
export function minBetFor(_game: GameId): number {
  return MIN_BET;
}

/** Caribbean Stud's ante is capped so that the raise (twice the ante) stays within the bet limit. */
export function maxBetFor(game: GameId): number {
  return game === "poker" ? MAX_ANTE : MAX_BET;
}
