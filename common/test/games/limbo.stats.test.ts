import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex, type FairnessInput } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { type LimboState } from "../../src/games/limbo/engine";
import { winningDraws } from "../../src/games/limbo/rtp";
import { passesChiSquare, rtpBand, summarise } from "../stats";

/**
 * The statistical and exhaustive proofs of limbo.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in limbo.test.ts.
 */

const engine = requireEngine("limbo");

const mcInput = (nonce: number): FairnessInput => ({ serverSeed: sha256Hex("limbo monte carlo"), clientSeed: "mc", nonce });

describe("limbo RTP", () => {
  it("Monte Carlo through the real stream stays in the band; results follow P(result ≥ x) = 0.99 / x (χ²)", () => {
    const amount = 10_000;
    const edges = [1.01, 1.25, 1.5, 2, 3, 5, 10, 100];
    // P(result ≥ edge) from the exact count of winning draws; everything is ≥ 1.00
    const atLeast = [1, ...edges.map((x) => Number(winningDraws(BigInt(Math.round(x * 100)))) / 2 ** 52), 0];
    const probabilities = atLeast.slice(0, -1).map((p, i) => p - atLeast[i + 1]!);
    const counts = new Array<number>(probabilities.length).fill(0);
    const returns: number[] = [];
    for (let i = 0; i < 60_000; i++) {
      const target = i % 2 === 0 ? 2 : 1.5;
      const step = startRound(engine, amount, { target }, floatStream(mcInput(i)));
      returns.push(step.payout / amount);
      const result = (step.state as LimboState).result;
      counts[edges.filter((x) => result >= x).length]! += 1;
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(0.99, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(counts, probabilities)).toBe(true);
  });
});
