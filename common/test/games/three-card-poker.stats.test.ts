import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex } from "../../src/fairness/stream";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { THREE_CARD_CATEGORIES, evaluateThree } from "../../src/games/poker-hands";
import { playsByStrategy, type ThreeCardPokerState } from "../../src/games/three-card-poker/engine";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { exactRtpOf } from "../exact-rtp";

/**
 * The statistical and exhaustive proofs of three-card-poker.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in three-card-poker.test.ts.
 */

const engine = requireEngine("three-card-poker");

describe("three card poker: exact RTP and simulation", () => {
  it("returns the exact RTPs in a Monte Carlo run of the real engine, with a uniform deck", () => {
    const N = 20_000;
    const serverSeed = sha256Hex("three card poker monte carlo");
    const [anteRow, pairPlusRow] = exactRtpOf("three-card-poker");
    const anteReturns: number[] = [];
    const pairPlusReturns: number[] = [];
    const codes = new Array<number>(52).fill(0);
    const categories = new Array<number>(6).fill(0);
    for (let nonce = 0; nonce < N; nonce++) {
      const rng = floatStream({ serverSeed, clientSeed: "ante", nonce });
      const first = startRound(engine, 1, { ante: 1, pairPlus: 0 }, rng);
      const state = first.state as ThreeCardPokerState;
      for (const c of [...state.player, ...state.dealer]) codes[c]! += 1;
      categories[THREE_CARD_CATEGORIES.indexOf(evaluateThree(state.player).category)]! += 1;
      const last = actRound(engine, state, { type: playsByStrategy(state.player) ? "play" : "fold" }, rng);
      anteReturns.push(1 + last.payout - first.stake - last.stake);
      const pp = startRound(engine, 1, { ante: 0, pairPlus: 1 }, floatStream({ serverSeed, clientSeed: "pair-plus", nonce }));
      pairPlusReturns.push(pp.payout);
    }
    for (const [row, returns] of [
      [anteRow!, anteReturns],
      [pairPlusRow!, pairPlusReturns],
    ] as const) {
      const sample = summarise(returns);
      const [lo, hi] = rtpBand(row.rtp, sample, 0.99);
      expect(sample.mean, row.bet).toBeGreaterThan(lo);
      expect(sample.mean, row.bet).toBeLessThan(hi);
    }
    expect(passesChiSquare(codes)).toBe(true);
    expect(
      passesChiSquare(
        categories,
        [16440, 3744, 1096, 720, 52, 48].map((w) => w / 22100),
      ),
    ).toBe(true);
  });
});
