import { describe, expect, it } from "vitest";
import { fixedRng, type Rng } from "../src/fairness/stream";
import { payDown, payerFor, payUp, uniformBelow, unbiasedPayer, type RoundingDraw } from "../src/fairness/rounding";
import { crashCashOutPayout, generateChain } from "../src/games/crash-chain";
import { MAX_PAYOUT } from "../src/limits";
import { actRound, requireEngine, startRound, type RoundRules } from "../src/games/runner";
import { winningDraws } from "../src/games/limbo/engine";
import { GAMES } from "../src/catalogue";
import { exactRtpOf } from "./exact-rtp";
import { add, equals, frac, mul, type Fraction } from "../src/rtp/fraction";
import { seededRng } from "./helpers";
import { casesOf } from "./games/cases";
import type { Outcomes } from "./games/case-support";

/**
 * Rounding rule 2 (common/src/fairness/rounding.ts) keeps every bet's expected payout equal to its
 * unrounded one at every stake. The proof, in three parts:
 * 1. the rounding itself: a payout q + r/d pays q + 1 for exactly r of the d equally likely values v,
 *    checked by running the payer on every v for the pay ratios the games use at the stakes below;
 * 2. single-step games with a finite outcome space (coin flip, dice, limbo, crash, roulette, sic bo,
 *    slots): every outcome and every rounding value enumerated through the engines, so the expected
 *    payout is exact, compared with stake × the exact RTP (docs/rtp.md) for every bet type;
 * 3. the other games (keno, mines, hi-lo, the card games, craps): Monte Carlo through the runner. Each
 *    rounding's float comes after the value it rounds is fixed, so rounding error (paid − exact, in
 *    (−1, 1)) has mean 0 given everything before it; the sample mean of a round's total rounding error
 *    must lie within its 99 % confidence interval around 0 (rounding down would sit far below it).
 */
const STAKES = [1, 2, 3, 7, 10, 99] as const;
/** Each game's bet types and pay ratios, from its cases file (common/test/games/<game>.cases.ts). */
const ROUNDING = GAMES.filter((g) => g.kind === "chance").map((g) => ({ game: g.id, ...casesOf(g.id).rounding }));
const RULE_2: RoundRules = { rounding: 2 };
const word = (k: number) => k / 2 ** 32;

describe("rule 2: a payout q + r/d pays q + 1 for exactly r of the d values of v", () => {
  /** Σ over v = 0 … d − 1 of what the payer pays, with the float whose word is v. */
  const paidOverAllV = (amount: number, n: bigint | number, d: bigint | number): { total: bigint; d: bigint } => {
    let draw: RoundingDraw | undefined;
    unbiasedPayer(fixedRng([0]), (x) => (draw = x))(amount, n, d);
    if (!draw) return { total: BigInt(payDown(amount, n, d)), d: 1n };
    let total = 0n;
    for (let v = 0; v < Number(draw.denominator); v++) total += BigInt(unbiasedPayer(fixedRng([word(v)]))(amount, n, d));
    return { total, d: draw.denominator };
  };

  const ratios = ROUNDING.flatMap(({ game, ratios = [] }) => ratios.map(([label, n, d]) => [`${game} ${label}`, n, d] as const));

  it.each(ratios)("%s: the mean payout is the exact one at every stake", (_, n, d) => {
    for (const stake of STAKES) {
      const { total, d: den } = paidOverAllV(stake, n, d);
      expect(equals(frac(total, den), frac(BigInt(stake) * BigInt(n), BigInt(d))), `stake ${stake}`).toBe(true);
    }
  });

  it("draws nothing for a whole payout, and pays the cap without drawing", () => {
    const rng = fixedRng([]);
    expect(unbiasedPayer(rng)(7, 36, 1)).toBe(252);
    expect(unbiasedPayer(rng)(1_000_000, 1_000_000, 3)).toBe(MAX_PAYOUT);
    expect(rng.cursor).toBe(0);
  });

  it("draws v by rejection: a word at or above the largest multiple of d takes the next float", () => {
    const limit = 2 ** 32 - (2 ** 32 % 100); // 4,294,967,200
    expect(uniformBelow(fixedRng([word(limit - 1)]), 100n)).toMatchObject({ v: 99n, cursors: [0] });
    expect(uniformBelow(fixedRng([word(limit), word(42)]), 100n)).toMatchObject({ v: 42n, drawn: 42n, cursors: [0, 1] });
    // d above 2³²: two floats make one 64-bit number
    const d = 2n ** 32n * 3n + 1n;
    expect(uniformBelow(fixedRng([word(1), word(5)]), d)).toMatchObject({ v: 2n ** 32n + 5n, cursors: [0, 1] });
  });

  it("rounds up at most to the next coin; rule 1 and the maximum shown round down and up", () => {
    expect([payDown(1, 198, 100), payUp(1, 198, 100)]).toEqual([1, 2]);
    expect(unbiasedPayer(fixedRng([word(48)]))(1, 198, 100)).toBe(2); // 1 + 49/50: v = 48 < 49
    expect(unbiasedPayer(fixedRng([word(49)]))(1, 198, 100)).toBe(1);
  });
});

/**
 * The exact expected payout of one bet: every outcome (its floats and its weight), and for each the
 * mean over every value v of the rounding draw (part 1 shows that mean is the exact payout; here the
 * engine itself runs on each v).
 */
function exactExpectation(game: string, amount: number, params: unknown, space: Outcomes): Fraction {
  const engine = requireEngine(game);
  // Σ weight × payout over the outcomes, weights in units of 1 / space.total
  let whole = 0n;
  let rounded = frac(0);
  // outcomes that round the same payout (same whole part, rest and denominator) have the same mean over v
  const meanOf = new Map<string, Fraction>();
  const weightOf = new Map<string, bigint>();
  for (const [floats, weight] of space.outcomes) {
    const draws: RoundingDraw[] = [];
    const first = startRound(engine, amount, params, fixedRng([...floats, 0]), { rounding: 2, onRounding: (d) => draws.push(d) });
    if (draws.length === 0) {
      whole += weight * BigInt(first.payout);
      continue;
    }
    expect(draws).toHaveLength(1);
    const { rest, denominator } = draws[0]!;
    const key = `${first.payout - draws[0]!.paid + draws[0]!.whole}:${rest}/${denominator}`;
    if (!meanOf.has(key)) {
      let total = 0;
      for (let v = 0; v < Number(denominator); v++)
        total += startRound(engine, amount, params, fixedRng([...floats, word(v)]), RULE_2).payout;
      meanOf.set(key, frac(total, denominator));
    }
    weightOf.set(key, (weightOf.get(key) ?? 0n) + weight);
  }
  for (const [key, weight] of weightOf) rounded = add(rounded, mul(frac(weight), meanOf.get(key)!));
  return mul(add(rounded, frac(whole)), frac(1n, space.total));
}

const rtpOf = (game: string, bet: string): number => {
  const rows = exactRtpOf(game);
  const row = rows.find((r) => r.bet === bet);
  expect(row, `${game} ${bet} in the RTP table`).toBeDefined();
  return row!.rtp;
};

const ENUMERATED = ROUNDING.flatMap(({ game, enumerated = [] }) => enumerated.map((e) => ({ game, ...e })));

describe("every game's rounding has a case", () => {
  it.each(ROUNDING.map((r) => [r.game, r] as const))("%s: bet types enumerated or sampled", (game, r) => {
    expect(
      (r.enumerated?.length ?? 0) + (r.sampled?.length ?? 0),
      `${game}.cases.ts exports no rounding.enumerated or .sampled`,
    ).toBeGreaterThan(0);
  });
});

describe("rule 2, every outcome enumerated: the expected payout is stake × RTP at stakes 1, 2, 3, 7, 10, 99", () => {
  it.each(ENUMERATED.map((e) => [`${e.game} ${e.bet}`, e] as const))("%s", (_, e) => {
    const rows = exactRtpOf(e.game);
    // a bet without a row of its own (dice): every row of the table returns the same
    if (e.rtpBet === undefined) expect(new Set(rows.map((r) => r.rtp)).size, `${e.game}: rows of different RTPs`).toBe(1);
    const rtp = e.rtpBet === undefined ? rows[0]!.rtp : rtpOf(e.game, e.rtpBet);
    let previous: Fraction | null = null;
    for (const stake of STAKES) {
      const expected = exactExpectation(e.game, stake, e.params(stake), e.outcomes());
      const perCoin = frac(expected.n, expected.d * BigInt(stake));
      // the same exact return per coin at every stake: rounding changed nothing
      if (previous) expect(equals(perCoin, previous), `stake ${stake}`).toBe(true);
      previous = perCoin;
      expect(Number(perCoin.n) / Number(perCoin.d)).toBeCloseTo(rtp, 12);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Part 3: Monte Carlo

interface Played {
  /** Σ over the round's roundings of (paid − exact) */
  error: number;
  /** Σ over them of frac × (1 − frac): the variance of that error */
  variance: number;
  /** how many payouts were rounded */
  rounded: number;
}

/** Plays one round through the runner under rule 2, choosing actions with `next`, and sums its rounding error. */
function playRound(game: string, amount: number, params: unknown, rng: Rng, next?: (state: any) => unknown): Played {
  const engine = requireEngine(game);
  const played: Played = { error: 0, variance: 0, rounded: 0 };
  const rules: RoundRules = {
    rounding: 2,
    onRounding: (d) => {
      const f = Number(d.rest) / Number(d.denominator);
      played.error += d.paid - d.whole - f;
      played.variance += f * (1 - f);
      played.rounded += 1;
    },
  };
  let step = startRound(engine, amount, params, rng, rules);
  for (let guard = 0; !step.done; guard++) {
    if (guard > 500) throw new Error(`${game}: round did not end`);
    step = actRound(engine, step.state, next!(step.state), rng, rules);
  }
  return played;
}

const SAMPLED = ROUNDING.flatMap(({ game, sampled = [] }) => sampled.map((c) => ({ game, ...c })));

/** A seed of its own for each bet type and stake, from their names: a new game or bet type moves no other one's sample. */
const seedOf = (text: string) => {
  let h = 0x811c9dc5;
  for (const c of text) h = Math.imul(h ^ c.codePointAt(0)!, 0x01000193) >>> 0;
  return h;
};

const ROUNDS = 300;
const Z99 = 2.575829;

/**
 * Each rounding's error is 1 − f with probability f and −f otherwise (f its fraction): mean 0, variance
 * f(1 − f), known exactly. So the total error over every round of a bet type (300 rounds at each of the
 * six stakes), divided by its exact standard deviation, lies within ±2.576 with 99 % probability.
 */
describe("rule 2, Monte Carlo: rounding adds nothing in expectation (99 % interval) at stakes 1, 2, 3, 7, 10, 99", () => {
  it.each(SAMPLED.map((s) => [`${s.game} ${s.bet}`, s] as const))("%s", (name, s) => {
    const total: Played = { error: 0, variance: 0, rounded: 0 };
    for (const stake of STAKES) {
      const rng = seededRng(seedOf(`${name} at ${stake}`));
      for (let r = 0; r < ROUNDS; r++) {
        const played = playRound(s.game, stake, s.params(stake), rng, s.next);
        total.error += played.error;
        total.variance += played.variance;
        total.rounded += played.rounded;
      }
    }
    // pay tables in whole multiples round nothing: every payout was exact
    if (total.rounded === 0) expect(total.error).toBe(0);
    else
      expect(Math.abs(total.error), `${total.rounded} roundings, error ${total.error}`).toBeLessThanOrEqual(
        Z99 * Math.sqrt(total.variance),
      );
  });

  it("would catch rounding down: rule 1 on 1-coin coin flips sits far outside the interval", () => {
    // rule 1 pays 1 for 1.98: an error of −0.98 with variance 0.98 × 0.02 per win
    const rng = seededRng(7);
    let error = 0;
    let variance = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const step = startRound(requireEngine("coin-flip"), 1, { side: "heads" }, rng);
      if (step.payout > 0) [error, variance] = [error + step.payout - 1.98, variance + 0.98 * 0.02];
    }
    expect(Math.abs(error)).toBeGreaterThan(Z99 * Math.sqrt(variance));
  });
});

// ---------------------------------------------------------------------------------------------------
// The shared crash room: a cash-out at target t pays stake × t / 100, rounded from the bet's own stream
// (the game hash and the player's id, at cursor 0) when the round is rule 2.

describe("the shared crash room under rule 2: the RTP of every cash-out target at every stake", () => {
  /** Σ over v of the room's payer with float #0 = v / 2³², over d: the exact mean payout of a win. */
  const meanWin = (stake: number, target: number): Fraction => {
    let draw: RoundingDraw | undefined;
    payerFor(2, fixedRng([0]), (x) => (draw = x))(stake, target, 100);
    if (!draw) return frac(BigInt(payDown(stake, target, 100)));
    let total = 0n;
    for (let v = 0; v < Number(draw.denominator); v++) total += BigInt(payerFor(2, fixedRng([word(v)]))(stake, target, 100));
    return frac(total, draw.denominator);
  };

  it.each([1.01, 1.5, 1.98, 2, 3.33, 10, 1_000])("cash out at %s×: the return per coin is the RTP table's crash row", (x) => {
    const target = Math.round(x * 100);
    // the room's crash point is Limbo's curve floored at 1.00×: the game wins when it reaches the target
    const win = frac(winningDraws(BigInt(target)), 2n ** 52n);
    const rtp = exactRtpOf("crash").find((r) => r.bet === `cash out at ${x}×`)?.rtp ?? 0.99;
    for (const stake of STAKES) {
      const perCoin = mul(mul(win, meanWin(stake, target)), frac(1n, BigInt(stake)));
      expect(Number(perCoin.n) / Number(perCoin.d), `stake ${stake}`).toBeCloseTo(rtp, 12);
      // and exactly the unrounded return: P(win) × target / 100
      expect(equals(perCoin, mul(win, frac(BigInt(target), 100n))), `stake ${stake}`).toBe(true);
    }
  });

  it("the bets' own streams round without bias: real game hashes and player ids, within the 99 % interval", () => {
    const chain = generateChain("rounding proof", 2_000);
    let error = 0;
    let variance = 0;
    let down = 0;
    for (const [i, gameHash] of chain.gameHashes.entries()) {
      for (const playerId of [`player-${i % 7}`, `p-${i}`]) {
        const stake = STAKES[i % STAKES.length]!;
        const target = 101 + ((i * 37) % 400);
        const bet = { gameHash, playerId, amount: stake, cashedOutAt: target };
        const exact = (stake * target) / 100;
        const f = exact - Math.floor(exact);
        error += crashCashOutPayout(2, bet).payout - exact;
        variance += f * (1 - f);
        down += crashCashOutPayout(1, bet).payout - exact;
      }
    }
    expect(Math.abs(error)).toBeLessThanOrEqual(Z99 * Math.sqrt(variance));
    // rule 1, the rooms' rounding before rule 2, sits far below
    expect(Math.abs(down)).toBeGreaterThan(Z99 * Math.sqrt(variance));
  });
});
