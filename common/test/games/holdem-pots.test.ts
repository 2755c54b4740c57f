import { describe, expect, it } from "vitest";
import { awardPots, buildPots } from "../../src/games/holdem/pots";

const put = (list: [seat: number, contributed: number, folded?: boolean][]) =>
  list.map(([seat, contributed, folded = false]) => ({ seat, contributed, folded }));

describe("Hold'em pots", () => {
  it("cuts a main pot and a side pot per all-in level, with folded chips in the pots they reach", () => {
    // Seat 2 folded after putting in 30: its chips are in the main pot (up to 10) and the first side pot.
    const pots = buildPots(
      put([
        [1, 10],
        [2, 30, true],
        [3, 40],
        [4, 100],
        [5, 100],
      ]),
    );
    expect(pots.map((p) => [p.amount, p.eligible])).toEqual([
      [50, [1, 3, 4, 5]],
      [110, [3, 4, 5]],
      [120, [4, 5]],
    ]);
    expect(pots.reduce((sum, p) => sum + p.amount, 0)).toBe(280);
  });

  it("splits a pot three ways and gives the odd chips one each from the first winner left of the button", () => {
    // Seat 2 folded after its 2; seats 4, 6 and 8 put in 3 each and tie: 11 coins for three.
    const pots = buildPots(
      put([
        [2, 2, true],
        [4, 3],
        [6, 3],
        [8, 3],
      ]),
    );
    expect(pots.map((p) => p.amount)).toEqual([11]);
    // The button is seat 6: clockwise from its left the seats are 8, 2, 4, 6.
    const [awarded] = awardPots(pots, () => 7, [8, 2, 4, 6]);
    expect(awarded!.winners).toEqual([
      { seat: 8, amount: 4 },
      { seat: 4, amount: 4 },
      { seat: 6, amount: 3 },
    ]);
  });

  it("gives each pot to the best hand eligible for it: a short all-in can win the main pot and lose the side pot", () => {
    const values: Record<number, number> = { 1: 900, 2: 500, 3: 700 };
    const pots = awardPots(
      buildPots(
        put([
          [1, 20],
          [2, 60],
          [3, 60],
        ]),
      ),
      (s) => values[s]!,
      [1, 2, 3],
    );
    expect(pots.map((p) => p.winners)).toEqual([[{ seat: 1, amount: 60 }], [{ seat: 3, amount: 80 }]]);
  });
});
