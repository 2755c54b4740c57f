import { cardCode } from "../cards";
import { fixedRng } from "../../fairness/stream";
import { hiLoEngine, RANKS, type Guess, type HiLoState } from "./engine";
import { add, frac, mul, toNumber, type Fraction } from "../../rtp/fraction";
import type { RtpRow } from "../../rtp/types";

const RANK_VALUES = Array.from({ length: RANKS }, (_, i) => i + 2);
const AMOUNT = 100;

const stateOn = (rank: number, correct: number): HiLoState => ({
  amount: AMOUNT,
  cards: [cardCode(rank, 0)],
  moves: [],
  numerator: "1",
  denominator: "1",
  correct,
  skips: 0,
  status: "open",
});

/** The float that deals a card of `rank` (its ♦ code) from the 52 codes. */
const floatFor = (rank: number) => (cardCode(rank, 0) + 0.5) / 52;

/**
 * What one guess does to the fair multiplier, read from the engine: 0 on a loss, else the new
 * numerator/denominator after one step from 1/1.
 */
function stepFactor(rank: number, guess: Guess, nextRank: number): Fraction {
  const step = hiLoEngine.act!(stateOn(rank, 0), { type: guess }, fixedRng([floatFor(nextRank)]));
  if (step.done) return frac(0);
  return frac(BigInt(step.state.numerator), BigInt(step.state.denominator));
}

/** The cash-out factor the engine applies to the fair multiplier (the edge, applied once). */
function cashOutFactor(): Fraction {
  const step = hiLoEngine.act!(stateOn(7, 1), { type: "cashout" }, fixedRng([]));
  return frac(step.payout, AMOUNT);
}

type Strategy = (rank: number) => Guess;

/** The likelier guess that can still lose (a 2 must be guessed lower, an ace higher); ties go higher. */
export const likelier: Strategy = (rank) => (rank === 2 ? "lower" : rank === 14 ? "higher" : rank <= 8 ? "higher" : "lower");
/** The less likely guess (the bigger multiplier). */
export const riskier: Strategy = (rank) => (rank <= 8 ? "lower" : "higher");

/**
 * Exact return per coin of: draw the first card, make `guesses` guesses by `strategy`, cash out.
 * V₀(r) = cash-out factor; Vₙ(r) = Σ over the 13 next ranks of (1/13) · step factor · Vₙ₋₁(next).
 */
export function strategyRtp(strategy: Strategy, guesses: number): Fraction {
  let value = new Map(RANK_VALUES.map((r) => [r, cashOutFactor()] as const));
  for (let n = 0; n < guesses; n++) {
    const next = new Map<number, Fraction>();
    for (const r of RANK_VALUES) {
      let v = frac(0);
      for (const r2 of RANK_VALUES) v = add(v, mul(stepFactor(r, strategy(r), r2), value.get(r2)!));
      next.set(r, mul(v, frac(1, RANKS)));
    }
    value = next;
  }
  return mul(
    RANK_VALUES.reduce((sum, r) => add(sum, value.get(r)!), frac(0)),
    frac(1, RANKS),
  );
}

const CASES: { label: string; strategy: Strategy; guesses: number }[] = [
  { label: "1 guess, likelier side", strategy: likelier, guesses: 1 },
  { label: "1 guess, riskier side", strategy: riskier, guesses: 1 },
  { label: "3 guesses, likelier side", strategy: likelier, guesses: 3 },
  { label: "5 guesses, riskier side", strategy: riskier, guesses: 5 },
  { label: "10 guesses, likelier side", strategy: likelier, guesses: 10 },
];

export function rtpRows(): RtpRow[] {
  return CASES.map(({ label, strategy, guesses }) => ({
    game: "hi-lo",
    bet: `cash out after ${label}`,
    rtp: toNumber(strategyRtp(strategy, guesses)),
    reference: 0.99,
    method:
      "exact: dynamic programme over the 13 ranks of the unlimited deck, each step's multiplier and the " +
      "cash-out read from the engine, in rational arithmetic; before rounding the payout down to a coin and " +
      "below the payout cap. Skips redraw without touching the multiplier, so they change nothing",
  }));
}
