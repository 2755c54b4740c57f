import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex } from "../../src/fairness/stream";
import { FULL_DECK, type Card } from "../../src/games/cards";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { holdReturns, optimalHold, payPerCredit, type VideoPokerState } from "../../src/games/video-poker/engine";
import { analyseVideoPoker } from "../../src/games/video-poker/rtp";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { hand } from "../helpers";
import { exactRtpOf } from "../exact-rtp";

/**
 * The statistical and exhaustive proofs of video-poker.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in video-poker.test.ts.
 */

const engine = requireEngine("video-poker");

describe("video poker: optimal holds", () => {
  /** Expected pay of one hold by listing every draw from the 47 unseen cards. */
  function bruteForce(cards: Card[], mask: number): number {
    const held = cards.filter((_, i) => mask & (1 << i));
    const unseen = FULL_DECK.filter((c) => !cards.includes(c));
    const need = 5 - held.length;
    let total = 0;
    let count = 0;
    const pick = (from: number, chosen: Card[]) => {
      if (chosen.length === need) {
        total += payPerCredit([...held, ...chosen]);
        count += 1;
        return;
      }
      for (let i = from; i < unseen.length; i++) pick(i + 1, [...chosen, unseen[i]!]);
    };
    pick(0, []);
    return total / count;
  }

  it("values every hold of three or more cards exactly as a brute-force listing of the draws", () => {
    for (const dealt of ["Jd Qd Kd 4h 4s", "Ah 2c Ts Th 9h", "2d 3h 5s 8c 9d"]) {
      const cards = hand(dealt);
      const returns = holdReturns(cards);
      for (let mask = 0; mask < 32; mask++) {
        const held = [0, 1, 2, 3, 4].filter((i) => mask & (1 << i)).length;
        if (held < 3) continue;
        expect(returns[mask]!, `${dealt} hold ${mask}`).toBeCloseTo(bruteForce(cards, mask), 12);
      }
    }
  });

  it("returns the exact optimal-play RTP of game-rules A5 (99.5439 %)", () => {
    const [row] = exactRtpOf("video-poker");
    expect(Math.abs(row!.rtp - 0.995439)).toBeLessThan(1e-6);
    expect(row!.reference).toBe(0.995439);
    // the suit-permutation classes are the well-known 134,459 and cover every deal once
    expect(analyseVideoPoker()).toMatchObject({ classes: 134459, deals: 2598960 });
  });

  it("returns the exact RTP in a Monte Carlo run of the real engine with optimal holds, with uniform cards", () => {
    const N = 6_000;
    const serverSeed = sha256Hex("video poker monte carlo");
    const returns: number[] = [];
    const codes = new Array<number>(52).fill(0);
    // nothing, jacks+, two pair, trips, straight, flush, full house, quads or better
    const finals = new Array<number>(8).fill(0);
    const line = (pays: number) => [0, 1, 2, 3, 4, 6, 9].indexOf(pays);
    for (let nonce = 0; nonce < N; nonce++) {
      const rng = floatStream({ serverSeed, clientSeed: "mc", nonce });
      const first = startRound(engine, 1, {}, rng);
      const state = first.state as VideoPokerState;
      const last = actRound(engine, state, { type: "draw", hold: optimalHold(state.hand).hold }, rng);
      const end = last.state as VideoPokerState;
      for (const c of [...end.hand, ...end.replacements!]) codes[c]! += 1;
      const pays = payPerCredit(end.final!);
      finals[line(pays) < 0 ? 7 : line(pays)]! += 1;
      returns.push(last.payout);
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(exactRtpOf("video-poker")[0]!.rtp, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(codes)).toBe(true);
    // final-hand frequencies under optimal 9/6 play, game-rules A5 (percent)
    const published = [54.54347, 21.4585, 12.92789, 7.44487, 1.12294, 1.10145, 1.15122, 0.23625 + 0.010931 + 0.0024758];
    const total = published.reduce((a, b) => a + b, 0);
    expect(
      passesChiSquare(
        finals,
        published.map((p) => p / total),
      ),
    ).toBe(true);
  });
});
