import { describe, expect, it } from "vitest";
import { type KenoRisk, type KenoState } from "../../src/games/keno/engine";
import { requireEngine, startRound } from "../../src/games/runner";
import { kenoExactRtp } from "../../src/games/keno/rtp";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";

/**
 * The statistical and exhaustive proofs of keno.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in keno.test.ts.
 */

const engine = requireEngine("keno");

describe("keno: 40 tiles, 10 drawn, four risk levels", () => {
  it("matches the exact RTP in a Monte Carlo run; draws are uniform and never repeat a tile", () => {
    const counts = new Array<number>(40).fill(0);
    let repeated = 0;
    const rng = seededRng(40);
    const runs: [number[], KenoRisk][] = [
      [[4, 8, 15, 16, 23], "classic"],
      [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "low"],
    ];
    for (const [picks, risk] of runs) {
      const returns: number[] = [];
      for (let i = 0; i < 60_000; i++) {
        const step = startRound(engine, 100, { picks, risk }, rng);
        const { drawn } = step.state as KenoState;
        if (new Set(drawn).size !== 10) repeated += 1;
        for (const t of drawn) counts[t - 1]! += 1;
        returns.push(step.payout / 100);
      }
      const { numerator, denominator } = kenoExactRtp(risk, picks.length);
      const sample = summarise(returns);
      const [lo, hi] = rtpBand(Number(numerator) / Number(denominator), sample, 0.99);
      expect(sample.mean).toBeGreaterThan(lo);
      expect(sample.mean).toBeLessThan(hi);
    }
    expect(repeated).toBe(0);
    expect(passesChiSquare(counts)).toBe(true);
  });
});
