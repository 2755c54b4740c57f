import { describe, expect, it } from "vitest";
import { bestHand } from "../../src/games/holdem/evaluator";
import { FIVE_CARD_CATEGORIES, evaluateFive } from "../../src/games/poker-hands";
import { bruteForceBest, randomCards } from "../helpers";
import { passesChiSquare, seededFloats } from "../stats";

/**
 * The statistical and exhaustive proofs of holdem-evaluator.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in holdem-evaluator.test.ts.
 */

/**
 * How many of the 133,784,560 seven-card hands make each category at best: high card, pair, two pair,
 * trips, straight, flush, full house, and quads or better (224,848 + 37,260 + 4,324: merged, as a
 * sample of 40,000 expects too few straight flushes to test them on their own).
 */
const SEVEN_CARD_COUNTS = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 266_432];

describe("Hold'em evaluator: the best five of seven", () => {
  it("agrees with the best of all 21 five-card subsets on 40,000 random seven-card hands, in the known category frequencies", () => {
    const next = seededFloats(20261206);
    const mismatches: string[] = [];
    const categories = new Array<number>(SEVEN_CARD_COUNTS.length).fill(0);
    for (let i = 0; i < 40_000; i++) {
      const seven = randomCards(next, 7);
      const got = bestHand(seven);
      const want = bruteForceBest(seven);
      // The five cards must be from the seven and must themselves rank as the value claimed.
      const consistent = got.cards.length === 5 && got.cards.every((c) => seven.includes(c)) && evaluateFive(got.cards).value === got.value;
      if (got.value !== want.value || !consistent) mismatches.push(seven.join(","));
      categories[Math.min(FIVE_CARD_CATEGORIES.indexOf(got.category), 7)]! += 1;
    }
    expect(mismatches).toEqual([]);
    expect(
      passesChiSquare(
        categories,
        SEVEN_CARD_COUNTS.map((n) => n / 133_784_560),
      ),
    ).toBe(true);
  });
});
