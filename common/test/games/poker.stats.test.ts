import { describe, expect, it } from "vitest";
import { floatStream, sha256Hex } from "../../src/fairness/stream";
import { rankOf, suitOf } from "../../src/games/cards";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { type PokerState } from "../../src/games/poker/engine";
import { FIVE_CARD_CATEGORIES, evaluateFive, fiveCardCategoryIndex, fiveCardValue } from "../../src/games/poker-hands";
import { analyseCaribbeanStud, shouldRaise } from "../../src/games/poker/rtp";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { exactRtpOf } from "../exact-rtp";

/**
 * The statistical and exhaustive proofs of poker.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in poker.test.ts.
 */

const engine = requireEngine("poker");

describe("poker hands: five-card ranking", () => {
  it("counts every category of the 2,598,960 hands and the 7,462 distinct hand values", () => {
    const counts = new Array<number>(10).fill(0);
    const values = new Set<number>();
    const ranks = [0, 0, 0, 0, 0];
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++)
        for (let c = b + 1; c < 52; c++)
          for (let d = c + 1; d < 52; d++)
            for (let e = d + 1; e < 52; e++) {
              const cards = [a, b, c, d, e];
              for (let i = 0; i < 5; i++) ranks[i] = rankOf(cards[i]!);
              const flush = cards.every((x) => suitOf(x) === suitOf(a));
              const v = fiveCardValue(ranks, flush);
              counts[fiveCardCategoryIndex(v)]! += 1;
              values.add(v);
            }
    // the textbook counts: high card … royal flush
    expect(counts).toEqual([1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]);
    expect(values.size).toBe(7462);
  });
});

describe("poker (Caribbean Stud): exact RTP and simulation", () => {
  it("reproduces the published house edges of three strategies and the optimal raise rate", () => {
    const [row] = exactRtpOf("poker");
    const analysis = analyseCaribbeanStud();
    // game-rules A2: optimal 5.224 %, pair or better 5.470 %, A-K or better 5.682 %; raises 52.23 % of hands
    expect(Math.abs(row!.rtp - (1 - 0.05224))).toBeLessThan(1e-5);
    expect(Math.abs(row!.rtp - row!.reference!)).toBeLessThan(1e-5);
    expect(Math.abs(analysis.pairOrBetter - (1 - 0.0547))).toBeLessThan(1e-5);
    expect(Math.abs(analysis.aceKingOrBetter - (1 - 0.05682))).toBeLessThan(1e-5);
    expect(Math.abs(analysis.optimalRaiseRate - 0.5223)).toBeLessThan(1e-4);
  });

  it("returns the exact RTP in a Monte Carlo run of the real engine with optimal decisions, with a uniform deck", () => {
    const N = 20_000;
    const serverSeed = sha256Hex("poker monte carlo");
    const returns: number[] = [];
    const codes = new Array<number>(52).fill(0);
    const categories = new Array<number>(5).fill(0);
    for (let nonce = 0; nonce < N; nonce++) {
      const rng = floatStream({ serverSeed, clientSeed: "mc", nonce });
      const first = startRound(engine, 1, {}, rng);
      const state = first.state as PokerState;
      for (const c of [...state.player, ...state.dealer]) codes[c]! += 1;
      categories[Math.min(4, FIVE_CARD_CATEGORIES.indexOf(evaluateFive(state.player).category))]! += 1;
      const action = shouldRaise(state.player, state.dealer[0]!) ? "raise" : "fold";
      const last = actRound(engine, state, { type: action }, rng);
      // return per unit of ante, as the exact value is stated
      returns.push(1 + last.payout - first.stake - last.stake);
    }
    const sample = summarise(returns);
    const [lo, hi] = rtpBand(exactRtpOf("poker")[0]!.rtp, sample, 0.99);
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    expect(passesChiSquare(codes)).toBe(true);
    // high card, pair, two pair, trips, straight or better: the textbook counts over 2,598,960
    const ways = [1302540, 1098240, 123552, 54912, 10200 + 5108 + 3744 + 624 + 36 + 4];
    expect(
      passesChiSquare(
        categories,
        ways.map((w) => w / 2598960),
      ),
    ).toBe(true);
  });
});
