import { describe, expect, it } from "vitest";
import { rankOf } from "../../src/games/cards";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { basicStrategy, canDouble, canSplit, type BlackjackAction, type BlackjackState } from "../../src/games/blackjack/engine";
import { blackjackReturn } from "../../src/games/blackjack/rtp";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { seededRng } from "../helpers";
import { exactRtpOf } from "../exact-rtp";

/**
 * The statistical and exhaustive proofs of blackjack.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in blackjack.test.ts.
 */

const engine = requireEngine("blackjack");

describe("blackjack: exact return and simulation", () => {
  it("matches published figures", () => {
    const [shoe, infinite, insurance] = exactRtpOf("blackjack");
    // game-rules A1: Farmer's exact engine gives 0.403 % for these rules with composition-dependent play,
    // a hair better than any fixed chart; 0.511 % at 1,000 decks; insurance 23/311 in 6 decks
    expect(1 - shoe!.rtp).toBeGreaterThan(0.00403);
    expect(1 - shoe!.rtp).toBeLessThan(0.00403 + 0.0001);
    expect(Math.abs(infinite!.rtp - infinite!.reference!)).toBeLessThan(0.00005);
    expect(insurance!.rtp).toBeCloseTo(288 / 311, 10);
    expect(blackjackReturn("infinite").insuranceRtp).toBeCloseTo(12 / 13, 10);
    // 8 decks, same rules: 0.431 %
    expect(1 - blackjackReturn(8).rtp).toBeGreaterThan(0.00431);
    expect(1 - blackjackReturn(8).rtp).toBeLessThan(0.00431 + 0.0001);
  });

  it("returns the exact RTP with basic strategy in a Monte Carlo run of the real engine", () => {
    const N = 400_000;
    const BET = 10;
    const rng = seededRng(21);
    const firstCard = new Array<number>(52).fill(0);
    const upRank = new Array<number>(13).fill(0);
    const returns: number[] = [];
    for (let i = 0; i < N; i++) {
      let step = startRound(engine, BET, {}, rng);
      const opening = step.state as BlackjackState;
      firstCard[opening.hands[0]!.cards[0]!]! += 1;
      upRank[rankOf(opening.dealer[0]!) - 2]! += 1;
      let net = step.payout - step.stake;
      while (!step.done) {
        const s = step.state as BlackjackState;
        let action: BlackjackAction;
        if (s.phase === "insurance") action = { type: "insurance", take: false };
        else action = { type: basicStrategy(s.hands[s.active]!.cards, s.dealer[0]!, canDouble(s), canSplit(s)) };
        step = actRound(engine, s, action, rng);
        net += step.payout - step.stake;
      }
      returns.push(1 + net / BET);
    }
    const sample = summarise(returns);
    const exact = blackjackReturn().rtp;
    const [lo, hi] = rtpBand(exact, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(sample.sd).toBeGreaterThan(1.1);
    expect(sample.sd).toBeLessThan(1.2);
    expect(passesChiSquare(firstCard)).toBe(true);
    expect(passesChiSquare(upRank)).toBe(true);
  });
});
