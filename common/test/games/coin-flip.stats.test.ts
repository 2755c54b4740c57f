import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex, type FairnessInput } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { type CoinFlipState, type CoinSide } from "../../src/games/coin-flip/engine";
import { passesChiSquare, rtpBand, summarise } from "../stats";

/**
 * The statistical and exhaustive proofs of coin-flip.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in coin-flip.test.ts.
 */

const engine = requireEngine("coin-flip");

const mcInput = (nonce: number): FairnessInput => ({ serverSeed: sha256Hex("coin flip monte carlo"), clientSeed: "mc", nonce });

describe("coin flip RTP", () => {
  it("Monte Carlo through the real stream stays in the band; sides and runs of four are even (χ²)", () => {
    const amount = 100;
    const returns: number[] = [];
    const sides = [0, 0];
    // consecutive bets in groups of four: 16 equally likely patterns if the flips are independent
    const patterns = new Array<number>(16).fill(0);
    let pattern = 0;
    for (let i = 0; i < 60_000; i++) {
      const side: CoinSide = i % 3 === 0 ? "tails" : "heads";
      const step = startRound(engine, amount, { side }, floatStream(mcInput(i)));
      returns.push(step.payout / amount);
      const heads = (step.state as CoinFlipState).outcome === "heads" ? 1 : 0;
      sides[heads]! += 1;
      pattern = pattern * 2 + heads;
      if (i % 4 === 3) {
        patterns[pattern]! += 1;
        pattern = 0;
      }
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(0.99, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(sides)).toBe(true);
    expect(passesChiSquare(patterns)).toBe(true);
  });
});
