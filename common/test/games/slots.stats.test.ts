import { describe, expect, it } from "vitest";
import { requireEngine, startRound } from "../../src/games/runner";
import { REELS, type SlotsState } from "../../src/games/slots/engine";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";

/**
 * The statistical and exhaustive proofs of slots.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in slots.test.ts.
 */

const engine = requireEngine("slots");

describe("slots: classic three-reel machine re-tuned to 97.55 %", () => {
  it("returns 97.55 % in a Monte Carlo run, with uniform stops on every reel", () => {
    const counts = REELS.map(() => new Array<number>(20).fill(0));
    const returns: number[] = [];
    const rng = seededRng(97);
    for (let i = 0; i < 200_000; i++) {
      const step = startRound(engine, 1, {}, rng);
      (step.state as SlotsState).stops.forEach((stop, reel) => (counts[reel]![stop]! += 1));
      returns.push(step.payout);
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(0.9755, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    for (const reel of counts) expect(passesChiSquare(reel)).toBe(true);
  });
});
