import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { LAYOUT_SETS, RED_NUMBERS, rouletteEngine, type RouletteState } from "../../src/games/roulette/engine";
import { ruleError } from "../helpers";
import { fairnessPage, floorRatio, independentDerivation, index, numbersAfter, run } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("roulette");
const ball = (pocket: number) => fixedRng([(pocket + 0.5) / 37]);
const spin = (pocket: number, bets: unknown[]) => {
  const amount = (bets as { amount: number }[]).reduce((s, b) => s + b.amount, 0);
  return startRound(engine, amount, { bets }, ball(pocket));
};

describe("roulette: European single zero", () => {
  it("maps a float to a pocket as floor(f × 37)", () => {
    expect((spin(0, [{ type: "red", amount: 1 }]).state as RouletteState).pocket).toBe(0);
    expect((startRound(engine, 1, { bets: [{ type: "red", amount: 1 }] }, fixedRng([0.999999])).state as RouletteState).pocket).toBe(36);
    expect((spin(17, [{ type: "red", amount: 1 }]).state as RouletteState).color).toBe("black");
    expect((spin(19, [{ type: "red", amount: 1 }]).state as RouletteState).color).toBe("red");
  });

  it("pays every inside bet at its published odds (35:1 … 5:1)", () => {
    const cases: [unknown, number, number][] = [
      [{ type: "straight", numbers: [17], amount: 10 }, 17, 360],
      [{ type: "split", numbers: [20, 17], amount: 10 }, 17, 180],
      [{ type: "split", numbers: [0, 2], amount: 10 }, 0, 180],
      [{ type: "street", numbers: [16, 17, 18], amount: 10 }, 18, 120],
      [{ type: "corner", numbers: [17, 18, 20, 21], amount: 10 }, 21, 90],
      [{ type: "sixLine", numbers: [13, 14, 15, 16, 17, 18], amount: 10 }, 13, 60],
      [{ type: "trio", numbers: [0, 1, 2], amount: 10 }, 0, 120],
      [{ type: "trio", numbers: [0, 2, 3], amount: 10 }, 3, 120],
      [{ type: "firstFour", numbers: [0, 1, 2, 3], amount: 10 }, 1, 90],
    ];
    for (const [bet, pocket, payout] of cases) {
      expect(spin(pocket, [bet]).payout).toBe(payout);
      expect(spin((pocket + 7) % 37, [bet]).payout).toBe(0);
    }
  });

  it("pays the outside bets 1:1 and 2:1, and zero loses them all", () => {
    const outside = (type: string, pocket: number, value?: number) =>
      spin(pocket, [{ type, ...(value ? { value } : {}), amount: 10 }]).payout;
    expect(outside("red", 1)).toBe(20);
    expect(outside("black", 1)).toBe(0);
    expect(outside("black", 2)).toBe(20);
    expect(outside("odd", 35)).toBe(20);
    expect(outside("even", 36)).toBe(20);
    expect(outside("low", 18)).toBe(20);
    expect(outside("high", 18)).toBe(0);
    expect(outside("high", 19)).toBe(20);
    expect(outside("dozen", 13, 2)).toBe(30);
    expect(outside("dozen", 12, 2)).toBe(0);
    expect(outside("column", 17, 2)).toBe(30);
    expect(outside("column", 34, 1)).toBe(30);
    for (const type of ["red", "black", "odd", "even", "low", "high"]) expect(outside(type, 0)).toBe(0);
    expect(outside("dozen", 0, 1)).toBe(0);
    expect(outside("column", 0, 1)).toBe(0);
  });

  it("settles several bets on one spin and pays their sum", () => {
    const step = spin(17, [
      { type: "straight", numbers: [17], amount: 1 },
      { type: "red", amount: 5 },
      { type: "odd", amount: 4 },
      { type: "column", value: 2, amount: 2 },
    ]);
    expect(step.stake).toBe(12);
    expect(step.payout).toBe(36 + 0 + 8 + 6);
    expect(step.done).toBe(true);
  });

  it("refuses an amount that differs from the bets on the table", () => {
    const err = ruleError(() => startRound(engine, 11, { bets: [{ type: "red", amount: 10 }] }, ball(1)));
    expect(err.code).toBe("invalid_amount");
  });

  it("accepts exactly the real layout adjacencies", () => {
    expect(LAYOUT_SETS.straight).toHaveLength(37);
    expect(LAYOUT_SETS.split).toHaveLength(60); // 24 across, 33 down, 0-1 0-2 0-3
    expect(LAYOUT_SETS.street).toHaveLength(12);
    expect(LAYOUT_SETS.corner).toHaveLength(22);
    expect(LAYOUT_SETS.sixLine).toHaveLength(11);
    expect(LAYOUT_SETS.trio).toHaveLength(2);
    expect(LAYOUT_SETS.firstFour).toHaveLength(1);

    const rejected = (bet: object, fragment: string) => {
      const err = ruleError(() => startRound(engine, 1, { bets: [{ ...bet, amount: 1 }] }, ball(0)));
      expect(err.code).toBe("invalid_params");
      expect(err.message).toContain(fragment);
    };
    rejected({ type: "split", numbers: [5, 9] }, "5 and 9 are not neighbours");
    rejected({ type: "split", numbers: [3, 4] }, "3 and 4 are not neighbours"); // end of one row, start of the next
    rejected({ type: "split", numbers: [0, 4] }, "not neighbours");
    rejected({ type: "split", numbers: [5, 5] }, "must be different");
    rejected({ type: "split", numbers: [5] }, "exactly 2 numbers");
    rejected({ type: "street", numbers: [2, 3, 4] }, "not a street");
    rejected({ type: "corner", numbers: [3, 4, 6, 7] }, "not a corner");
    rejected({ type: "corner", numbers: [1, 2, 3, 4] }, "not a corner");
    rejected({ type: "sixLine", numbers: [2, 3, 4, 5, 6, 7] }, "not a six line");
    rejected({ type: "trio", numbers: [0, 1, 3] }, "0-1-2 or 0-2-3");
    rejected({ type: "firstFour", numbers: [1, 2, 3, 4] }, "0-1-2-3");
    rejected({ type: "straight", numbers: [37] }, "0 to 36");
    rejected({ type: "dozen", value: 4 }, "value is 1, 2 or 3");
    rejected({ type: "red", numbers: [1] }, "numbers");
    rejected({ type: "basket" }, "type");

    for (const numbers of [
      [1, 4],
      [33, 36],
      [35, 36],
      [0, 3],
    ]) {
      expect(() => spin(0, [{ type: "split", numbers, amount: 1 }])).not.toThrow();
    }
    expect(() => spin(0, [{ type: "corner", numbers: [32, 33, 35, 36], amount: 1 }])).not.toThrow();
    expect(() => spin(0, [{ type: "sixLine", numbers: [31, 32, 33, 34, 35, 36], amount: 1 }])).not.toThrow();
  });

  it("shows the largest payout over every pocket as the bet's maximum", () => {
    const params = rouletteEngine.params.parse({
      bets: [
        { type: "straight", numbers: [1], amount: 10 },
        { type: "red", amount: 10 },
        { type: "black", amount: 10 },
      ],
    });
    expect(rouletteEngine.maxPayout(30, params)).toBe(360 + 20);
  });

  it("returns 36/37 on every bet type, matching game-rules A14", () => {
    const rows = exactRtpOf("roulette");
    expect(rows).toHaveLength(15);
    for (const row of rows) {
      expect(row.rtp).toBeCloseTo(36 / 37, 12);
      expect(Math.abs(row.rtp - row.reference!)).toBeLessThan(1e-5);
    }
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("roulette", (e, page) => {
  let pocket = 0;
  const steps = run(e, [(s) => (pocket = index(s, 37))]);
  const red = page.numbersAfter("Red: ");
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  const covers = (bet: any): number[] => {
    switch (bet.type) {
      case "red":
        return red;
      case "black":
        return range(1, 36).filter((n) => !red.includes(n));
      case "odd":
        return range(1, 36).filter((n) => n % 2 === 1);
      case "even":
        return range(1, 36).filter((n) => n % 2 === 0);
      case "low":
        return range(1, 18);
      case "high":
        return range(19, 36);
      case "dozen":
        return range(12 * bet.value - 11, 12 * bet.value);
      case "column":
        return range(1, 36).filter((n) => (n - bet.value) % 3 === 0);
      default:
        return bet.numbers;
    }
  };
  const payout = e.params.bets.reduce((sum: number, bet: any) => {
    const c = covers(bet);
    return sum + (c.includes(pocket) ? floorRatio(bet.amount, 36, c.length) : 0);
  }, 0);
  return { steps, outcome: { pocket, color: pocket === 0 ? "green" : red.includes(pocket) ? "red" : "black" }, payout };
});

describe("roulette's fairness page", () => {
  it("lists the engine's red numbers", () => {
    expect(numbersAfter(fairnessPage("roulette"), "Red: ")).toEqual([...RED_NUMBERS]);
  });
});
