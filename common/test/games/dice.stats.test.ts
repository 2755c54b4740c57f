import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex, type FairnessInput } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { type DiceParams, type DiceState } from "../../src/games/dice/engine";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { play } from "./dice.cases";

/**
 * The statistical and exhaustive proofs of dice.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in dice.test.ts.
 */

const engine = requireEngine("dice");

const mcInput = (nonce: number): FairnessInput => ({ serverSeed: sha256Hex("dice monte carlo"), clientSeed: "mc", nonce });

describe("dice rules", () => {
  it("every legal target wins on exactly chance × 100 rolls and pays 99/chance: 99 % for all", () => {
    let checked = 0;
    for (let t = 0; t < 10_000; t++) {
      for (const direction of ["under", "over"] as const) {
        const chance = direction === "under" ? t : 9999 - t;
        if (chance < 1 || chance > 9800) continue;
        const p: DiceParams = { target: t / 100, direction };
        // win region: under t is rolls [0, t), over t is rolls (t, 9999]; check both of its edges
        const [firstWin, lastWin, firstLoss] = direction === "under" ? [0, t - 1, t] : [t + 1, 9999, t];
        // the stake equals the chance in hundredths of a percent, so a win must pay exactly 9,900
        expect(play(p, firstWin, chance).step.payout).toBe(9_900);
        expect(play(p, lastWin, chance).step.payout).toBe(9_900);
        expect(play(p, firstLoss, chance).step.payout).toBe(0);
        expect(lastWin - firstWin + 1).toBe(chance);
        checked += 1;
      }
    }
    expect(checked).toBe(2 * 9800);
  });
});

describe("dice RTP", () => {
  it("Monte Carlo through the real stream stays in the 99 % band, and the rolls are uniform (χ², 100 buckets)", () => {
    const targets: DiceParams[] = [
      { target: 50, direction: "under" },
      { target: 74.99, direction: "over" },
    ];
    const amount = 10_000;
    const returns: number[] = [];
    const buckets = new Array<number>(100).fill(0);
    const rounds = 60_000;
    for (let i = 0; i < rounds; i++) {
      const step = startRound(engine, amount, targets[i % 2], floatStream(mcInput(i)));
      returns.push(step.payout / amount);
      buckets[Math.floor((step.state as DiceState).roll)]! += 1;
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(0.99, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(buckets)).toBe(true);
  });
});
