import { describe, expect, it } from "vitest";
import { requireEngine, startRound } from "../../src/games/runner";
import { type RouletteState } from "../../src/games/roulette/engine";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";

/**
 * The statistical and exhaustive proofs of roulette.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in roulette.test.ts.
 */

const engine = requireEngine("roulette");

describe("roulette: European single zero", () => {
  it("returns 36/37 in a Monte Carlo run of the real engine, with uniform pockets", () => {
    const counts = new Array<number>(37).fill(0);
    const returns: number[] = [];
    const rng = seededRng(37);
    const choices: unknown[] = [
      { type: "straight", numbers: [7], amount: 1 },
      { type: "split", numbers: [8, 11], amount: 2 },
      { type: "corner", numbers: [25, 26, 28, 29], amount: 4 },
      { type: "red", amount: 3 },
      { type: "dozen", value: 3, amount: 3 },
    ];
    for (let i = 0; i < 150_000; i++) {
      const bet = choices[i % choices.length] as { amount: number };
      const step = startRound(engine, bet.amount, { bets: [bet] }, rng);
      counts[(step.state as RouletteState).pocket]! += 1;
      returns.push(step.payout / step.stake);
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(36 / 37, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(counts)).toBe(true);
  });
});
