import { payoutText } from "../format";
import { MAX_PAYOUT } from "../limits";
import type { Rng } from "./stream";

/**
 * How a payout that is not a whole number of coins becomes one. Every round records the rule it was
 * played under, so a round keeps verifying after the rule changes.
 *
 * - Rule 1 (rounds played before rule 2 existed): rounded down.
 * - Rule 2: rounded without bias, from the round's own stream. A payout `stake × n / d` is written
 *   `q + r / d` in lowest terms (0 ≤ r < d); when r > 0 the round draws a whole number v uniform on
 *   0 … d − 1 from its next floats and pays q + 1 when v < r, else q. So it pays q + 1 with probability
 *   exactly r / d and its expected payout is exactly stake × n / d, at every stake.
 *
 * v is drawn by rejection, so it is exactly uniform: the next w floats (w the fewest with 2^(32·w) ≥ d),
 * each read as its 32-bit word k = f × 2³², make one number K = k₁ × 2^(32·(w−1)) + … + k_w; if K is at
 * or above the largest multiple of d not above 2^(32·w) (probability below d / 2^(32·w)), the next w
 * floats are taken instead; then v = K mod d. Rounding floats come after the floats the step's own draws
 * used, one rounded payout after the other in the order the game settles them; a payout that is whole
 * (or at the cap) draws nothing.
 */
export type RoundingRule = 1 | 2;

/** The rule new rounds are played under. */
export const PAYOUT_ROUNDING: RoundingRule = 2;

/** The rule of a round that recorded none: rounds played before rules were recorded. */
export const LEGACY_ROUNDING: RoundingRule = 1;

export const ROUNDING_RULES: readonly RoundingRule[] = [1, 2];

export const isRoundingRule = (value: unknown): value is RoundingRule => value === 1 || value === 2;

/**
 * The rule as every game's Rules dialog states it (rule 2, with rule 1 for old rounds): one sentence,
 * kept here with the rule it tells.
 */
export const ROUNDING_RULE_TEXT =
  "A payout that is not a whole number of coins pays one of the two whole coins around it, drawn from the round's own " +
  "fair stream so that it pays the exact value on average: 19.8 pays 20 four times in five and 19 once (rule 2). Rounds " +
  "played before this rule were rounded down to a whole coin (rule 1), and verify as they were played.";

/** One word describing the rule, for the verifier. */
export const roundingRuleName = (rule: RoundingRule): string => (rule === 1 ? "rounded down" : "unbiased");

/**
 * Pays `amount × numerator / denominator` as whole coins, capped at MAX_PAYOUT. Engines settle every
 * payout through the payer of their round's rule.
 */
export type Payer = (amount: number, numerator: number | bigint, denominator: number | bigint) => number;

/** What one unbiased rounding did, for the verifier to show. */
export interface RoundingDraw {
  /** the exact payout q + r / d, in lowest terms */
  whole: number;
  rest: bigint;
  denominator: bigint;
  /** the cursors of the floats this rounding read (more than w when a draw was rejected) */
  cursors: number[];
  /** K, the number the accepted floats make */
  drawn: bigint;
  /** v = K mod d */
  v: bigint;
  /** the whole coins paid: q + 1 when v < r, else q */
  paid: number;
}

const MAX = BigInt(MAX_PAYOUT);
const WORD = 2n ** 32n;

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

/** The exact payout as [numerator, denominator] in lowest terms (denominator > 0). */
function exactPayout(amount: number, numerator: number | bigint, denominator: number | bigint): [bigint, bigint] {
  const n = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  if (d <= 0n || n < 0n) throw new Error(`invalid payout ratio ${amount} × ${numerator} / ${denominator}`);
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
}

/** Rule 1: rounded down, capped. */
export const payDown: Payer = (amount, numerator, denominator) => {
  const [n, d] = exactPayout(amount, numerator, denominator);
  const whole = n / d;
  return whole > MAX ? MAX_PAYOUT : Number(whole);
};

/** Rounded up, capped: the most a payout can come to under rule 2 (what "max payout" shows). */
export const payUp: Payer = (amount, numerator, denominator) => {
  const [n, d] = exactPayout(amount, numerator, denominator);
  const whole = (n + d - 1n) / d;
  return whole > MAX ? MAX_PAYOUT : Number(whole);
};

/**
 * Not made whole: the exact payout as a number (capped), what rule 2 pays on average. Only for telling a
 * payout (the bet panel's quote); never pays a round.
 */
export const payExact: Payer = (amount, numerator, denominator) => {
  const [n, d] = exactPayout(amount, numerator, denominator);
  return n >= MAX * d ? MAX_PAYOUT : Number(n / d) + Number(n % d) / Number(d);
};

/** A float's 32-bit word: k = f × 2³² (every float of the stream is k / 2³²). */
const wordOf = (f: number): bigint => BigInt(Math.floor(f * 2 ** 32));

/**
 * A whole number uniform on 0 … d − 1 from the stream, by rejection (see RoundingRule). Returns it with
 * the number K it came from and the cursors of the floats read.
 */
export function uniformBelow(rng: Rng, d: bigint): { v: bigint; drawn: bigint; cursors: number[] } {
  if (d < 1n) throw new Error(`cannot draw below ${d}`);
  let words = 1;
  let span = WORD;
  while (span < d) [words, span] = [words + 1, span * WORD];
  const limit = span - (span % d);
  const cursors: number[] = [];
  for (;;) {
    let k = 0n;
    for (let i = 0; i < words; i++) {
      cursors.push(rng.cursor);
      k = k * WORD + wordOf(rng.next());
    }
    if (k < limit) return { v: k % d, drawn: k, cursors };
  }
}

/** Rule 2 on a round's stream: `record` hears each rounding that drew floats. */
export function unbiasedPayer(rng: Rng, record?: (draw: RoundingDraw) => void): Payer {
  return (amount, numerator, denominator) => {
    const [n, d] = exactPayout(amount, numerator, denominator);
    if (n >= MAX * d) return MAX_PAYOUT;
    const whole = Number(n / d);
    const rest = n % d;
    if (rest === 0n) return whole;
    const { v, drawn, cursors } = uniformBelow(rng, d);
    const paid = whole + (v < rest ? 1 : 0);
    record?.({ whole, rest, denominator: d, cursors, drawn, v, paid });
    return paid;
  };
}

/** The payer of a round played under `rule` on the stream `rng`. */
export function payerFor(rule: RoundingRule, rng: Rng, record?: (draw: RoundingDraw) => void): Payer {
  return rule === 1 ? payDown : unbiasedPayer(rng, record);
}

/**
 * The rounding in words, the exact payout told as everywhere else (payoutText): "rounding 1 + 49/50
 * (1.98: pays 1 or 2, 1.98 on average): K = …, v = K mod 50 = 23 < 49: pays 2".
 */
export function describeRounding(draw: RoundingDraw): string {
  const floats = draw.cursors.map((c) => `#${c}`).join(", ");
  const verdict = draw.v < draw.rest ? `${draw.v} < ${draw.rest}` : `${draw.v} ≥ ${draw.rest}`;
  const exact = payoutText(draw.whole + Number(draw.rest) / Number(draw.denominator), { low: draw.whole, high: draw.whole + 1 });
  return (
    `rounding ${draw.whole} + ${draw.rest}/${draw.denominator} (${exact}): K = ${draw.drawn} (float${draw.cursors.length === 1 ? "" : "s"} ${floats} × 2³²), ` +
    `v = K mod ${draw.denominator} = ${verdict}: pays ${draw.paid}`
  );
}
