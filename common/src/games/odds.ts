import type { GameId } from "../catalogue";
import type { Rng } from "../fairness/stream";
import { MAX_PAYOUT } from "../limits";
import { GameRuleError, type AnyGameEngine } from "./engine";
import { engineFor } from "./registry";
import { requireEngine, startRound } from "./runner";
import { LEGACY_ROUNDING } from "../fairness/rounding";

/**
 * What the bet panel shows before a bet: the most it can pay and how likely it is to win, both from the
 * engines, and whether the server would accept it at all. The check runs the engine's own opening step
 * (on a constant stream, so nothing is predicted), so a bet the panel offers is one the engine accepts.
 */
export interface BetQuote {
  /** the most this bet can pay back, stake included */
  maxPayout: number;
  /**
   * What the best outcome pays per coin before rounding to whole coins (2 decimals at least): the
   * engine's payout of a large stake where the bet's parameters hold no amounts, else maxPayout / stake.
   */
  multiplier: number;
  /** probability that the round pays back more than the stake; null where it depends on the player's play */
  winChance: number | null;
}

export type QuoteResult = { ok: true; quote: BetQuote } | { ok: false; error: string };

/** A stream that always gives the same float: enough to run an engine's validation, predicts nothing. */
const constantRng = (): Rng => {
  let cursor = 0;
  return {
    next: () => ((cursor += 1), 0.5),
    get cursor() {
      return cursor;
    },
  };
};

export function quoteBet(game: GameId, amount: number, params: unknown): QuoteResult {
  try {
    const engine = requireEngine(game);
    // validation only: the constant stream predicts nothing, and rounding down needs no draw
    startRound(engine, amount, params, constantRng(), { rounding: LEGACY_ROUNDING });
    const parsed = engine.params.parse(params ?? {});
    const maxPayout = engine.maxPayout(amount, parsed);
    return {
      ok: true,
      quote: { maxPayout, multiplier: nominalMultiplier(engine, amount, maxPayout, parsed), winChance: engine.winChance?.(parsed) ?? null },
    };
  } catch (error) {
    if (error instanceof GameRuleError) return { ok: false, error: error.message };
    throw error;
  }
}

const REFERENCE_STAKE = 1_000_000;

/** Chips a hundred times larger: the payout rounded up then shows the multiplier to its hundredths. */
const CHIP_SCALE = 100;

function nominalMultiplier(engine: AnyGameEngine, amount: number, maxPayout: number, params: unknown): number {
  const effective = maxPayout / amount;
  if (engine.chips) {
    const scaled = amount * CHIP_SCALE;
    const reference = engine.maxPayout(scaled, engine.chips.scale(params, CHIP_SCALE));
    return reference < MAX_PAYOUT ? reference / scaled : effective;
  }
  // the largest stake (up to a million coins) whose payout stays under the cap
  const stake = Math.max(amount, Math.min(REFERENCE_STAKE, Math.floor(MAX_PAYOUT / (effective + 1))));
  const reference = engine.maxPayout(stake, params);
  return reference < MAX_PAYOUT ? reference / stake : effective;
}

/**
 * The probability that the opening bet pays back more than it staked, for the games where that is one
 * number (the engine's `winChance`). Multi-step card games, hi-lo, mines and craps depend on the
 * player's decisions: null.
 */
export function winChance(game: GameId, params: unknown): number | null {
  return engineFor(game)?.winChance?.(params) ?? null;
}
