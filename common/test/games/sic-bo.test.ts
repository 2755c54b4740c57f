import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { allOrderedRolls, floatForFace } from "../../src/games/dice-faces";
import { requireEngine, startRound } from "../../src/games/runner";
import { settleSicBoBet, sicBoEngine, sicBoParams, type SicBoBet, type SicBoState } from "../../src/games/sic-bo/engine";
import { MAX_PAYOUT } from "../../src/limits";
import { ruleError } from "../helpers";
import { die, independentDerivation, run } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("sic-bo");
const roll = (dice: number[], bets: unknown[]) => {
  const amount = (bets as { amount: number }[]).reduce((s, b) => s + b.amount, 0);
  return startRound(engine, amount, { bets }, fixedRng(dice.map(floatForFace)));
};
const pays = (dice: number[], bet: object) => roll(dice, [{ ...bet, amount: 10 }]).payout;

describe("sic bo: three dice, alternative pay table", () => {
  it("rolls one die per float, face = floor(f × 6) + 1", () => {
    const step = roll([1, 6, 3], [{ type: "big", amount: 1 }]);
    expect((step.state as SicBoState).dice).toEqual([1, 6, 3]);
    expect((step.state as SicBoState).total).toBe(10);
    const edges = startRound(engine, 1, { bets: [{ type: "big", amount: 1 }] }, fixedRng([0, 0.999999, 1 / 6]));
    expect((edges.state as SicBoState).dice).toEqual([1, 6, 2]);
  });

  it("pays small and big 1:1 and loses them on any triple", () => {
    expect(pays([1, 2, 3], { type: "small" })).toBe(20);
    expect(pays([4, 3, 3], { type: "small" })).toBe(20);
    expect(pays([4, 3, 4], { type: "small" })).toBe(0);
    expect(pays([2, 2, 2], { type: "small" })).toBe(0);
    expect(pays([6, 5, 6], { type: "big" })).toBe(20);
    expect(pays([5, 5, 1], { type: "big" })).toBe(20);
    expect(pays([4, 4, 4], { type: "big" })).toBe(0);
    expect(pays([1, 2, 3], { type: "big" })).toBe(0);
  });

  it("pays each specific total at its odds (60, 30, 18, 12, 8, 7, 6 to 1)", () => {
    const examples: [number[], number][] = [
      [[1, 1, 2], 60],
      [[6, 6, 5], 60],
      [[1, 1, 3], 30],
      [[6, 6, 4], 30],
      [[1, 2, 3], 18],
      [[5, 5, 5], 18],
      [[1, 2, 4], 12],
      [[4, 5, 5], 12],
      [[2, 3, 3], 8],
      [[4, 4, 5], 8],
      [[3, 3, 3], 7],
      [[6, 5, 1], 7],
      [[4, 4, 2], 6],
      [[5, 5, 1], 6],
    ];
    for (const [dice, odds] of examples) {
      const total = dice.reduce((a, b) => a + b, 0);
      expect(pays(dice, { type: "total", value: total })).toBe(10 * (odds + 1));
      expect(pays(dice, { type: "total", value: total === 4 ? 5 : total - 1 })).toBe(0);
    }
  });

  it("pays triples, doubles, combinations and single numbers", () => {
    expect(pays([5, 5, 5], { type: "triple", value: 5 })).toBe(1810);
    expect(pays([5, 5, 4], { type: "triple", value: 5 })).toBe(0);
    expect(pays([2, 2, 2], { type: "anyTriple" })).toBe(310);
    expect(pays([2, 2, 3], { type: "anyTriple" })).toBe(0);
    expect(pays([3, 1, 3], { type: "double", value: 3 })).toBe(120);
    expect(pays([3, 3, 3], { type: "double", value: 3 })).toBe(120);
    expect(pays([3, 1, 2], { type: "double", value: 3 })).toBe(0);
    expect(pays([5, 1, 2], { type: "combination", numbers: [2, 5] })).toBe(60);
    expect(pays([5, 5, 2], { type: "combination", numbers: [5, 2] })).toBe(60);
    expect(pays([2, 2, 1], { type: "combination", numbers: [2, 5] })).toBe(0);
    expect(pays([4, 1, 2], { type: "single", value: 4 })).toBe(20);
    expect(pays([4, 1, 4], { type: "single", value: 4 })).toBe(30);
    expect(pays([4, 4, 4], { type: "single", value: 4 })).toBe(40);
    expect(pays([1, 2, 3], { type: "single", value: 4 })).toBe(0);
  });

  it("wins on the number of ordered rolls game-rules A12 counts for each bet", () => {
    const ways = (bet: SicBoBet) => allOrderedRolls(3).filter((dice) => settleSicBoBet(bet, dice).win).length;
    expect(ways({ type: "small", amount: 1 })).toBe(105);
    expect(ways({ type: "big", amount: 1 })).toBe(105);
    const totalWays = [3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3];
    totalWays.forEach((w, i) => expect(ways({ type: "total", value: i + 4, amount: 1 })).toBe(w));
    expect(ways({ type: "triple", value: 1, amount: 1 })).toBe(1);
    expect(ways({ type: "anyTriple", amount: 1 })).toBe(6);
    expect(ways({ type: "double", value: 6, amount: 1 })).toBe(16);
    expect(ways({ type: "combination", numbers: [1, 6], amount: 1 })).toBe(30);
    expect(ways({ type: "single", value: 2, amount: 1 })).toBe(75 + 15 + 1);
  });

  it("returns what game-rules A12 gives for every bet of the alternative table", () => {
    const rows = exactRtpOf("sic-bo");
    expect(rows).toHaveLength(14); // small, big, 7 total pairs, 5 face bets
    for (const row of rows) expect(Math.abs(row.rtp - row.reference!)).toBeLessThan(1e-5);
    expect(rows.find((r) => r.bet === "small")!.rtp).toBe(210 / 216);
    expect(rows.find((r) => r.bet === "single number")!.rtp).toBe(199 / 216);
  });

  it("settles several bets on one roll and refuses a mismatched amount", () => {
    const step = roll(
      [6, 6, 5],
      [
        { type: "big", amount: 5 },
        { type: "total", value: 17, amount: 1 },
        { type: "double", value: 6, amount: 2 },
        { type: "small", amount: 3 },
      ],
    );
    expect(step.stake).toBe(11);
    expect(step.payout).toBe(10 + 61 + 24);
    const err = ruleError(() => startRound(engine, 10, { bets: [{ type: "big", amount: 5 }] }, fixedRng([0.1, 0.2, 0.3])));
    expect(err.code).toBe("invalid_amount");
  });

  it("rejects malformed bets with clear messages", () => {
    const rejected = (bet: object, fragment: string) => {
      const err = ruleError(() => startRound(engine, 1, { bets: [{ ...bet, amount: 1 }] }, fixedRng([0.1, 0.2, 0.3])));
      expect(err.code).toBe("invalid_params");
      expect(err.message).toContain(fragment);
    };
    rejected({ type: "combination", numbers: [3, 3] }, "two different faces");
    rejected({ type: "total", value: 3 }, "totals run from 4 to 17");
    rejected({ type: "total", value: 18 }, "totals run from 4 to 17");
    rejected({ type: "triple", value: 7 }, "faces run from 1 to 6");
    rejected({ type: "big", value: 2 }, "value");
  });

  it("shows the best roll's total as the maximum payout, capped", () => {
    const params = sicBoParams.parse({
      bets: [
        { type: "big", amount: 1 },
        { type: "total", value: 17, amount: 1 },
        { type: "double", value: 6, amount: 1 },
        { type: "triple", value: 1, amount: 1 },
      ],
    });
    expect(sicBoEngine.maxPayout(4, params)).toBe(181); // 1-1-1 beats 6-6-5 (2 + 61 + 12)
    const big = sicBoParams.parse({ bets: [{ type: "triple", value: 2, amount: 1_000_000 }] });
    expect(sicBoEngine.maxPayout(1_000_000, big)).toBe(MAX_PAYOUT);
    expect(roll([2, 2, 2], [{ type: "triple", value: 2, amount: 1_000_000 }]).payout).toBe(MAX_PAYOUT);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("sic-bo", (e) => {
  let dice: number[] = [];
  const steps = run(e, [(s) => (dice = [die(s), die(s), die(s)])]);
  const total = dice[0]! + dice[1]! + dice[2]!;
  const triple = dice[0] === dice[1] && dice[1] === dice[2];
  const count = (v: number) => dice.filter((d) => d === v).length;
  const totals: Record<number, number> = {
    4: 60,
    17: 60,
    5: 30,
    16: 30,
    6: 18,
    15: 18,
    7: 12,
    14: 12,
    8: 8,
    13: 8,
    9: 7,
    12: 7,
    10: 6,
    11: 6,
  };
  const odds = (bet: any): number | null => {
    switch (bet.type) {
      case "small":
        return total <= 10 && !triple ? 1 : null;
      case "big":
        return total >= 11 && !triple ? 1 : null;
      case "total":
        return total === bet.value ? totals[bet.value]! : null;
      case "triple":
        return count(bet.value) === 3 ? 180 : null;
      case "anyTriple":
        return triple ? 30 : null;
      case "double":
        return count(bet.value) >= 2 ? 11 : null;
      case "combination":
        return count(bet.numbers[0]) > 0 && count(bet.numbers[1]) > 0 ? 5 : null;
      case "single":
        return count(bet.value) > 0 ? count(bet.value) : null;
    }
    throw new Error(`unknown sic bo bet ${bet.type}`);
  };
  const payout = e.params.bets.reduce((sum: number, bet: any) => {
    const x = odds(bet);
    return sum + (x === null ? 0 : bet.amount * (x + 1));
  }, 0);
  return { steps, outcome: { dice, total }, payout };
});
