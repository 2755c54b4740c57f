import { describe, expect, it } from "vitest";
import { requireEngine, startRound } from "../../src/games/runner";
import { type SicBoState } from "../../src/games/sic-bo/engine";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";

/**
 * The statistical and exhaustive proofs of sic-bo.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in sic-bo.test.ts.
 */

const engine = requireEngine("sic-bo");

describe("sic bo: three dice, alternative pay table", () => {
  it("matches the exact RTP in a Monte Carlo run, with uniform ordered rolls", () => {
    const counts = new Array<number>(216).fill(0);
    const rng = seededRng(216);
    const lines: [unknown, number][] = [
      [{ type: "small", amount: 1 }, 210 / 216],
      [{ type: "single", value: 3, amount: 1 }, 199 / 216],
      [{ type: "combination", numbers: [1, 4], amount: 1 }, 180 / 216],
    ];
    for (const [bet, exact] of lines) {
      const returns: number[] = [];
      for (let i = 0; i < 60_000; i++) {
        const step = startRound(engine, 1, { bets: [bet] }, rng);
        const [a, b, c] = (step.state as SicBoState).dice as [number, number, number];
        counts[(a - 1) * 36 + (b - 1) * 6 + (c - 1)]! += 1;
        returns.push(step.payout);
      }
      const sample = summarise(returns);
      const [lo, hi] = rtpBand(exact, sample, 0.99);
      expect(sample.mean).toBeGreaterThan(lo);
      expect(sample.mean).toBeLessThan(hi);
    }
    expect(passesChiSquare(counts)).toBe(true);
  });
});
