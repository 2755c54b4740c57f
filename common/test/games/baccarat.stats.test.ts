import { describe, expect, it } from "vitest";
import { requireEngine, startRound } from "../../src/games/runner";
import { type BaccaratSide, type BaccaratState } from "../../src/games/baccarat/engine";
import { coupOdds } from "../../src/games/baccarat/rtp";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";
import { exactRtpOf } from "../exact-rtp";

/**
 * The statistical and exhaustive proofs of baccarat.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in baccarat.test.ts.
 */

const engine = requireEngine("baccarat");

describe("baccarat: exact RTP and simulation", () => {
  it("returns the exact RTP per bet in a Monte Carlo run of the real engine, with a uniform shoe", () => {
    const N = 300_000;
    const rng = seededRng(2024);
    const firstCard = new Array<number>(52).fill(0);
    const winners: Record<BaccaratSide, number> = { player: 0, banker: 0, tie: 0 };
    const returns: Record<BaccaratSide, number[]> = { player: [], banker: [], tie: [] };
    const bets = { player: 100, banker: 100, tie: 100 };
    for (let i = 0; i < N; i++) {
      const step = startRound(engine, 300, { bets }, rng);
      const state = step.state as BaccaratState;
      firstCard[state.player[0]!]! += 1;
      winners[state.winner] += 1;
      expect(step.payout).toBe(state.payouts.player! + state.payouts.banker! + state.payouts.tie!);
      for (const side of ["player", "banker", "tie"] as const) returns[side].push(state.payouts[side]! / 100);
    }
    for (const row of exactRtpOf("baccarat")) {
      const sample = summarise(returns[row.bet as BaccaratSide]);
      const [lo, hi] = rtpBand(row.rtp, sample, 0.99);
      expect(sample.mean, row.bet).toBeGreaterThan(lo);
      expect(sample.mean, row.bet).toBeLessThan(hi);
    }
    expect(passesChiSquare(firstCard)).toBe(true);
    const { ways, total } = coupOdds(8);
    const p = (["player", "banker", "tie"] as const).map((s) => Number(ways[s]) / Number(total));
    expect(passesChiSquare([winners.player, winners.banker, winners.tie], p)).toBe(true);
  });
});
