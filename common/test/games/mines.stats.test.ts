import { describe, expect, it } from "vitest";
import { floatStream } from "../../src/fairness/stream";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { exactRtpOf } from "../exact-rtp";
import { mcInput, playRound, seededRng } from "./mines.cases";

/**
 * The statistical and exhaustive proofs of mines.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in mines.test.ts.
 */

describe("mines RTP", () => {
  it("Monte Carlo through the real stream stays in the band, and mines fall evenly on the 25 tiles (χ²)", () => {
    const amount = 1_000;
    const pick = seededRng(11);
    const returns: number[] = [];
    const firstMine = new Array<number>(25).fill(0);
    const singleMine = new Array<number>(25).fill(0);
    for (let i = 0; i < 30_000; i++) {
      const { m, step } = playRound(floatStream(mcInput(i)), pick, amount);
      returns.push(step.payout / amount);
      firstMine[step.state.mines[0]!]! += 1; // the first draw is uniform whatever m is
      if (m === 1) singleMine[step.state.mines[0]!]! += 1;
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(exactRtpOf("mines")[0]!.rtp, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(firstMine)).toBe(true);
    expect(passesChiSquare(singleMine)).toBe(true);
  });
});
