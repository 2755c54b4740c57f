import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex, type FairnessInput } from "../../src/fairness/stream";
import { crashPoint, generateChain } from "../../src/games/crash-chain";
import { type CrashState } from "../../src/games/crash/engine";
import { requireEngine, startRound } from "../../src/games/runner";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { exactRtpOf } from "../exact-rtp";

/**
 * The statistical and exhaustive proofs of crash.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in crash.test.ts.
 */

const engine = requireEngine("crash");

const mcInput = (nonce: number): FairnessInput => ({ serverSeed: sha256Hex("crash monte carlo"), clientSeed: "mc", nonce });

/** Buckets of crash points with P(bust ≥ x) = 0.99 / x for x ≥ 1.01 (and 1 at 1.00). */
const EDGES = [1.01, 1.2, 1.5, 2, 3, 5, 10, 20, 100];
const bucketProbabilities = (() => {
  const atLeast = [1, ...EDGES.map((x) => 0.99 / x), 0];
  return atLeast.slice(0, -1).map((p, i) => p - atLeast[i + 1]!);
})();
const bucketOf = (x: number) => EDGES.filter((e) => x >= e).length;

describe("crash hash chain", () => {
  it("draws crash points from a chain with P(bust ≥ x) = 0.99 / x (χ² on 10 buckets)", () => {
    const chain = generateChain("distribution check", 40_000);
    const salt = sha256Hex("a salt published after the chain");
    const counts = new Array<number>(EDGES.length + 1).fill(0);
    for (const hash of chain.gameHashes) counts[bucketOf(crashPoint(hash, salt))]! += 1;
    expect(passesChiSquare(counts, bucketProbabilities)).toBe(true);
    expect(counts[0]! / 40_000).toBeGreaterThan(0.0198 - 0.0025); // instant busts: ±3.5 σ
    expect(counts[0]! / 40_000).toBeLessThan(0.0198 + 0.0025);
  });
});

describe("crash RTP", () => {
  it("Monte Carlo through the real stream stays in the band; crash points follow 0.99 / x (χ²)", () => {
    const amount = 10_000;
    const returns: number[] = [];
    const counts = new Array<number>(EDGES.length + 1).fill(0);
    for (let i = 0; i < 60_000; i++) {
      const cashOutAt = i % 2 === 0 ? 2 : 1.25;
      const step = startRound(engine, amount, { cashOutAt }, floatStream(mcInput(i)));
      returns.push(step.payout / amount);
      counts[bucketOf((step.state as CrashState).crashPoint)]! += 1;
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(exactRtpOf("crash")[0]!.rtp, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(counts, bucketProbabilities)).toBe(true);
  });
});
