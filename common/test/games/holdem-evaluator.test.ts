import { describe, expect, it } from "vitest";
import { rankOf, suitOf } from "../../src/games/cards";
import { bestHand } from "../../src/games/holdem/evaluator";
import { bruteForceBest, hand, randomCards } from "../helpers";
import { seededFloats } from "../stats";

const best = (text: string) => bestHand(hand(text));

describe("Hold'em evaluator: the best five of seven", () => {
  it("agrees with the reference on six-card hands too (the turn)", () => {
    const next = seededFloats(7);
    for (let i = 0; i < 5_000; i++) {
      const six = randomCards(next, 6);
      expect(bestHand(six).value).toBe(bruteForceBest(six).value);
    }
  });

  it("reads the wheel as a five-high straight, below a six-high one", () => {
    const wheel = best("Ah 2d 3s 4c 5h Kd Kc");
    expect(wheel.category).toBe("straight");
    expect(wheel.cards.map(rankOf)).toEqual([5, 4, 3, 2, 14]);
    const sixHigh = best("Ah 2d 3s 4c 5h 6d Kc");
    expect(sixHigh.cards.map(rankOf)).toEqual([6, 5, 4, 3, 2]);
    expect(sixHigh.value).toBeGreaterThan(wheel.value);
  });

  it("finds the steel wheel (A-2-3-4-5 suited) as a straight flush, beating four of a kind", () => {
    const steel = best("Ah 2h 3h 4h 5h 5d 5c");
    expect(steel.category).toBe("straight-flush");
    expect(steel.cards).toEqual(hand("5h 4h 3h 2h Ah"));
    expect(steel.value).toBeGreaterThan(best("5s 5h 5d 5c Ah 2h 3h").value);
  });

  it("decides between two flushes by their kickers down to the fifth card", () => {
    const board = "Ah Jh 8h 4h 2c";
    const nine = best(`9h 3d ${board}`);
    const seven = best(`7h Kd ${board}`);
    expect(nine.category).toBe("flush");
    expect(nine.cards).toEqual(hand("Ah Jh 9h 8h 4h"));
    expect(nine.value).toBeGreaterThan(seven.value);
  });

  it("splits when the board plays for both", () => {
    const board = "Ts Js Qd Kc Ah";
    expect(best(`2c 3d ${board}`).value).toBe(best(`4h 4d ${board}`).value);
    expect(best(`2c 3d ${board}`).cards).toEqual(hand("Ah Kc Qd Js Ts"));
  });

  it("plays the kicker: same pair, higher kicker wins; kickers beyond the fifth card do not count", () => {
    const board = "Ks Kd 9c 5h 2s";
    expect(best(`Ac 3d ${board}`).value).toBeGreaterThan(best(`Qc 3h ${board}`).value);
    // Both make K K A Q 9: the 8 and the 7 are the sixth and seventh cards and do not play.
    const flop = "Ks Kd 9c Ah Qs";
    expect(best(`8c 3d ${flop}`).value).toBe(best(`7c 6d ${flop}`).value);
  });

  it("takes the higher two pair of three, and the best kicker including the third pair's card", () => {
    const h = best("Qs Qd 9c 9h 4s 4d 2c");
    expect(h.category).toBe("two-pair");
    expect(h.cards.map(rankOf)).toEqual([12, 12, 9, 9, 4]);
  });

  it("makes the best full house from two sets of three", () => {
    const h = best("7s 7d 7c 9h 9s 9d 2c");
    expect(h.category).toBe("full-house");
    expect(h.cards.map(rankOf)).toEqual([9, 9, 9, 7, 7]);
  });

  it("puts four of a kind before its best kicker and a flush ahead of a straight", () => {
    expect(best("8s 8d 8c 8h Ks 2d 3c").cards.map(rankOf)).toEqual([8, 8, 8, 8, 13]);
    const h = best("9h 8h 7d 6h 5h 2h Tc");
    expect(h.category).toBe("flush");
    expect(h.cards.every((c) => suitOf(c) === suitOf(h.cards[0]!))).toBe(true);
  });

  it("refuses fewer than five, more than seven or repeated cards", () => {
    expect(() => bestHand(hand("Ah Kh Qh Jh"))).toThrow();
    expect(() => bestHand(hand("Ah Kh Qh Jh Th 9h 8h 7h"))).toThrow();
    expect(() => bestHand(hand("Ah Ah Qh Jh Th"))).toThrow();
  });
});
