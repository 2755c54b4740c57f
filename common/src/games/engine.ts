import type { z } from "zod";
import type { Payer } from "../fairness/rounding";
import type { Rng } from "../fairness/stream";

/**
 * One step of a round: what the player staked in it, what it pays, and whether the round is over.
 * A single-step game returns one Step from `start`; a multi-step game returns `done: false` from `start`
 * and keeps going through `act` until a step says `done: true`.
 */
export interface Step<S> {
  /** The whole round state, JSON-serialisable; may hold secrets (hole cards, mine positions). */
  state: S;
  /** Coins the player stakes in this step: the opening bet in `start`, a double/split/raise/insurance/new bet in `act`. */
  stake: number;
  /** Coins paid back to the player by this step (stake included), made whole by the round's payer and capped. */
  payout: number;
  done: boolean;
}

/** A rule the player broke (splitting unequal cards, cashing out before any pick, ...). */
export class GameRuleError extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "GameRuleError";
  }
}

/**
 * A game of chance as a pure, deterministic function of the bet, the player's actions and the float
 * stream. The server runs it inside the ledger transaction; the client runs the same code to verify.
 */
export interface GameEngine<P = unknown, S = unknown, A = unknown> {
  /** the game's id in the catalogue (`common/src/catalogue.ts`), which loads this engine */
  readonly id: string;
  /** zod schema of the bet parameters. */
  readonly params: z.ZodType<P>;
  /** zod schema of the actions of a multi-step game. */
  readonly actions?: z.ZodType<A>;
  /**
   * `pay` turns every payout of the step into whole coins under the round's rounding rule (its draws, if
   * any, come after the step's own); the runner always passes it. Without it payouts are rounded down.
   */
  start(amount: number, params: P, rng: Rng, pay?: Payer): Step<S>;
  act?(state: S, action: A, rng: Rng, pay?: Payer): Step<S>;
  /**
   * What the house does for a player who left a round open (multi-step games only): the server applies
   * it, step after step, until the round is done. A default action never stakes more coins. `null`
   * means the player has made no decision yet that the round could be settled on: the round is then
   * void and what it holds of the player's stake is refunded.
   */
  defaultAction?(state: S): A | null;
  /** What the player may see of the state: secrets hidden while the round is open. */
  view(state: S, done: boolean): unknown;
  /**
   * The most this bet can pay back, shown before betting, with every payout made whole by `pay`: rounded
   * up by default (the most rule 2 can pay); `payDown` gives the least its best outcome pays and
   * `payExact` the exact value it pays on average. Pay tables of whole multiples ignore `pay`.
   */
  maxPayout(amount: number, params: P, pay?: Payer): number;
  /**
   * The largest opening stake, where it is below the bet limit (`MAX_BET`): Caribbean Stud caps its
   * ante so that the raise (twice the ante) stays within the limit. The bet panel's Max and its check.
   */
  readonly maxStake?: number;
  /**
   * The bet panel's win chance: the probability that the opening bet pays back more than it stakes.
   * Absent where that depends on the player's decisions (multi-step card games, hi-lo, mines, craps).
   */
  winChance?(params: P): number;
  /** Present when the bet's parameters carry the stake themselves (chips on a layout). */
  readonly chips?: ChipBet<P>;
  /** The verifier's words for one step: what the floats made and what it paid (`npm run verify`, /verify). */
  describe?(step: StepContext<S>): string[];
}

/** A bet whose parameters state its chips: the opening stake is their sum. */
export interface ChipBet<P> {
  /** The sum of the chips that unchecked params state (NaN if a chip is not a number), or undefined if they state none. */
  stake(params: Record<string, unknown>): number | undefined;
  /** The same bet with every chip worth `factor` times as much. */
  scale(params: P, factor: number): P;
}

/** One float of the stream: the n-th (cursor n) is bytes 4·(n mod 8) … +3 of HMAC block floor(n / 8). */
export interface VerifiedFloat {
  cursor: number;
  block: number;
  bytes: [number, number];
  value: number;
}

/** What the verifier hands an engine's `describe`: one step of a re-derived round. */
export interface StepContext<S = unknown> {
  /** the state before this step; null for the opening bet */
  previous: S | null;
  state: S;
  step: Step<S>;
  /** every float this step drew, in order */
  floats: VerifiedFloat[];
  /** the action as given; null for the opening bet */
  action: unknown;
  /** the opening bet in coins */
  amount: number;
}

/** Erases the engine's own types so engines of every game can sit in one registry. */
export type AnyGameEngine = GameEngine<any, any, any>;

export type RoundResult = "win" | "lose" | "push";

/** The spec's result word: win if the payout exceeds the bet, push if equal, lose otherwise. */
export function resultWord(totalStake: number, totalPayout: number): RoundResult {
  if (totalPayout > totalStake) return "win";
  return totalPayout === totalStake ? "push" : "lose";
}
