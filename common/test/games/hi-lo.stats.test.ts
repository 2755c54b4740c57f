import { describe, expect, it } from "vitest";
import { floatStream } from "../../src/fairness/stream";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { exactRtpOf } from "../exact-rtp";
import { choices, mcInput, playRound } from "./hi-lo.cases";

/**
 * The statistical and exhaustive proofs of hi-lo.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in hi-lo.test.ts.
 */

describe("hi-lo RTP", () => {
  it("Monte Carlo through the real stream stays in the band, and the cards are uniform over 52 codes (χ²)", () => {
    const amount = 1_000;
    const pick = choices(7);
    const returns: number[] = [];
    const codes = new Array<number>(52).fill(0);
    for (let i = 0; i < 30_000; i++) {
      const { step } = playRound(floatStream(mcInput(i)), pick, amount);
      returns.push(step.payout / amount);
      for (const card of step.state.cards) codes[card]! += 1;
    }
    const sample = summarise(returns);
    const exact = exactRtpOf("hi-lo")[0]!.rtp;
    const [lo, hi] = rtpBand(exact, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(codes)).toBe(true);
  });
});
