import { describe, expect, it } from "vitest";
import { type CrapsState } from "../../src/games/craps/engine";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";
import { sumOf } from "./craps.cases";

/**
 * The statistical and exhaustive proofs of craps.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in craps.test.ts.
 */

const engine = requireEngine("craps");

describe("craps: exact return and Monte Carlo", () => {
  const playRounds = (rounds: number, seed: number, bets: object[], onPoint?: (state: CrapsState) => object[] | undefined) => {
    const rng = seededRng(seed);
    const stake = sumOf(bets as { amount: number }[]);
    const returns: number[] = [];
    const pairs = new Array<number>(36).fill(0);
    for (let i = 0; i < rounds; i++) {
      let step = startRound(engine, stake, { bets }, rng);
      let staked = step.stake;
      let paid = step.payout;
      let asked = false;
      while (!step.done) {
        const extra = !asked && onPoint ? onPoint(step.state as CrapsState) : undefined;
        asked = true;
        step = actRound(engine, step.state, extra ? { type: "bet", bets: extra } : { type: "roll" }, rng);
        staked += step.stake;
        paid += step.payout;
      }
      for (const [a, b] of (step.state as CrapsState).rolls) pairs[(a - 1) * 6 + (b - 1)]! += 1;
      // with extra bets, the net result per coin of the opening bet
      returns.push(onPoint ? 1 + (paid - staked) / stake : paid / staked);
    }
    return { sample: summarise(returns), pairs };
  };
  const within = (exact: number, sample: ReturnType<typeof summarise>) => {
    const [lo, hi] = rtpBand(exact, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
  };

  it("returns the exact RTP of each bet played through the runner", () => {
    const all = new Array<number>(36).fill(0);
    const runs: [object[], number][] = [
      [[{ type: "pass", amount: 10 }], 488 / 495],
      [[{ type: "dontPass", amount: 10 }], 1953 / 1980],
      [[{ type: "field", amount: 10 }], 35 / 36],
      [[{ type: "place", number: 6, amount: 6 }], 65 / 66],
      [[{ type: "hard", number: 8, amount: 10 }], 10 / 11],
    ];
    runs.forEach(([bets, exact], i) => {
      const { sample, pairs } = playRounds(30_000, 100 + i, bets);
      within(exact, sample);
      pairs.forEach((c, j) => (all[j]! += c));
    });
    expect(passesChiSquare(all)).toBe(true);
  });

  it("adds nothing to the house edge with full odds, and gives come bets the pass line's return", () => {
    const odds = { 4: 30, 5: 40, 6: 50, 8: 50, 9: 40, 10: 30 } as Record<number, number>;
    const withOdds = playRounds(30_000, 7, [{ type: "pass", amount: 10 }], (s) =>
      s.point === null ? undefined : [{ type: "passOdds", amount: odds[s.point]! }],
    );
    within(488 / 495, withOdds.sample); // net result per flat coin: the odds are fair
    const come = playRounds(30_000, 8, [{ type: "pass", amount: 10 }], (s) =>
      s.point === null ? undefined : [{ type: "come", amount: 10 }],
    );
    // a come bet as large as the pass joins whenever a point is set (24 rolls in 36), with the same edge
    within(1 - (7 / 495) * (1 + 24 / 36), come.sample);
  });
});
