import { describe, expect, it } from "vitest";
import type { LegalActions } from "@casino/common/games/holdem/hand-machine";
import { clampSize, potSize, presets, sizedAction, sizingOf, typedSize } from "../src/games/holdem/bet-sizing";

/** The Hold'em table's bet sizes: "raise to" totals from the pot, always inside the legal range the server sent. */
const legal = (over: Partial<LegalActions>): LegalActions => ({
  seat: 1,
  fold: true,
  check: false,
  call: null,
  bet: null,
  raise: null,
  ...over,
});

describe("the Hold'em bet sizes", () => {
  it("offer a bet or a raise from the legal actions, else nothing", () => {
    expect(sizingOf(null)).toBeNull();
    expect(sizingOf(legal({ call: 2 }))).toBeNull();
    expect(sizingOf(legal({ check: true, bet: { min: 2, max: 100 } }))).toEqual({ type: "bet", min: 2, max: 100 });
    expect(sizingOf(legal({ call: 1, raise: { min: 4, max: 80 } }))).toEqual({ type: "raise", min: 4, max: 80 });
  });

  it("size a pot raise as the call and then the pot on top", () => {
    // Preflop, the small blind (1 in) faces the big blind (2): the call is 1, the pot then 4, so pot is to 2 + 4 = 6.
    expect(potSize(1, { pot: 3, currentBet: 2 }, 1)).toBe(6);
    expect(potSize(0.5, { pot: 3, currentBet: 2 }, 1)).toBe(4);
    // On the flop with nothing bet: the fraction of the pot.
    expect(potSize(0.5, { pot: 10, currentBet: 0 }, 0)).toBe(5);
    const sizing = { type: "raise" as const, min: 4, max: 99 };
    expect(presets(sizing, { pot: 3, currentBet: 2 }, 1)).toEqual([
      { id: "min", label: "Min", amount: 4 },
      { id: "half", label: "½ pot", amount: 4 },
      { id: "pot", label: "Pot", amount: 6 },
      { id: "all-in", label: "All-in", amount: 99 },
    ]);
  });

  it("keep every size inside the legal range, in whole coins", () => {
    const sizing = { type: "bet" as const, min: 2, max: 7 };
    expect(presets(sizing, { pot: 25, currentBet: 0 }, 0).map((p) => p.amount)).toEqual([2, 7, 7, 7]);
    expect(clampSize(sizing, 1)).toBe(2);
    expect(clampSize(sizing, 5.5)).toBe(5);
    expect(clampSize(sizing, 50)).toBe(7);
  });

  it("read a typed size, refusing what the range does not allow", () => {
    const sizing = { type: "raise" as const, min: 4, max: 80 };
    expect(typedSize(sizing, " 12 ")).toEqual({ amount: 12 });
    expect(typedSize(sizing, "3")).toEqual({ error: "From 4 to 80" });
    expect(typedSize(sizing, "81")).toEqual({ error: "From 4 to 80" });
    expect(typedSize(sizing, "4.5")).toEqual({ error: "Type a whole number of coins" });
    expect(typedSize(sizing, "")).toEqual({ error: "Type a whole number of coins" });
  });

  it("send every chip as all-in, else a bet or raise to the amount", () => {
    expect(sizedAction({ type: "raise", min: 4, max: 80 }, 80)).toEqual({ type: "allIn" });
    expect(sizedAction({ type: "raise", min: 4, max: 80 }, 10)).toEqual({ type: "raise", amount: 10 });
    expect(sizedAction({ type: "bet", min: 2, max: 80 }, 2)).toEqual({ type: "bet", amount: 2 });
  });
});
