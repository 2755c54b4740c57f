import type { GameId } from "../catalogue";
import type { Rng } from "../fairness/stream";
import { MAX_PAYOUT } from "../limits";
import { GameRuleError, type AnyGameEngine } from "./engine";
import { engineFor } from "./registry";
import { requireEngine, startRound } from "./runner";
import { LEGACY_ROUNDING, payDown, payExact } from "../fairness/rounding";

/**
 * What the bet panel shows before a bet: the most it can pay and how likely it is to win, both from the
 * engines, and whether the server would accept it at all. The check runs the engine's own opening step
 * (on a constant stream, so nothing is predicted), so a bet the panel offers is one the engine accepts.
 */
export interface BetQuote {
  /** the most this bet can pay back, stake included: its best outcome's payouts rounded up */
  maxPayout: number;
  /** the least the best outcome pays: its payouts rounded down (equal to maxPayout when they are whole) */
  leastPayout: number;
  /** the best outcome's exact payout, before rounding to whole coins: what it pays on average */
  exactPayout: number;
  /**
   * What the best outcome pays per coin before rounding to whole coins: exactPayout / stake; at the
   * payout cap, the engine's payout of a large stake where the bet's parameters hold no amounts.
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
    const exactPayout = engine.maxPayout(amount, parsed, payExact);
    return {
      ok: true,
      quote: {
        maxPayout,
        leastPayout: engine.maxPayout(amount, parsed, payDown),
        exactPayout,
        multiplier:
          exactPayout < MAX_PAYOUT
            ? exactMultiplier(engine, amount, exactPayout, parsed)
            : nominalMultiplier(engine, amount, maxPayout, parsed),
        winChance: engine.winChance?.(parsed) ?? null,
      },
    };
  } catch (error) {
    if (error instanceof GameRuleError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The best outcome's exact payout per coin: of one coin where the params hold no amounts (1.98, never 1.9800000000000002). */
const exactMultiplier = (engine: AnyGameEngine, amount: number, exactPayout: number, params: unknown): number =>
  engine.chips ? exactPayout / amount : engine.maxPayout(1, params, payExact);

const REFERENCE_STAKE = 1_000_000;

/** The multiplier of a bet whose best outcome reaches the payout cap. Chips a hundred times larger: the payout rounded up then shows the multiplier to its hundredths. */
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

/** What the history keeps of a settled round: enough to tell the multiplier its bet was placed at. */
export interface SettledRound {
  game: string;
  /** the bet's parameters as sent */
  params: unknown;
  /** the engine's final view of the round */
  outcome: unknown;
  /** coins paid back, whole */
  payout: number;
}

/**
 * The multiplier a settled round's bet stood at, before rounding to whole coins, for the history: never
 * one derived from the whole coins paid (a 10-coin dice win at 1.98× that paid 19 or 20 is 1.98×, not
 * 1.90× or 2.00×). A game whose final view states the multiplier the round reached (keno, mines, hi-lo,
 * slots) gives that (0 when it paid nothing), a cash-out of the shared crash room the multiplier it was
 * paid at; a bet with one winning outcome (dice, limbo, coin flip, crash) is the multiplier it was placed
 * at, won or lost. null for a round of several payouts each
 * rounded on its own (chips on a layout, card games): its record keeps only the whole coins paid.
 */
export function roundMultiplier(round: SettledRound): number | null {
  const engine = engineFor(round.game);
  if (!engine) return null;
  const outcome = round.outcome as { multiplier?: unknown; cashedOutAt?: unknown } | null;
  if (outcome && typeof outcome === "object" && typeof outcome.multiplier === "number") return round.payout > 0 ? outcome.multiplier : 0;
  // a cash-out of the shared crash room records the multiplier it was paid at, in hundredths
  if (outcome && typeof outcome === "object" && typeof outcome.cashedOutAt === "number") return outcome.cashedOutAt / 100;
  if (!engine.winChance || engine.chips) return null;
  const parsed = engine.params.safeParse(round.params ?? {});
  return parsed.success ? engine.maxPayout(1, parsed.data, payExact) : null;
}
