import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { ALL_TILES, kenoEngine, PAY_TABLES, RISKS, type KenoRisk, type KenoState } from "../../src/games/keno/engine";
import { requireEngine, startRound } from "../../src/games/runner";
import { MAX_PAYOUT } from "../../src/limits";
import { ALL_DRAWS, catchWays, kenoExactRtp } from "../../src/games/keno/rtp";
import { ruleError } from "../helpers";
import { fairnessPage, independentDerivation, pay, pickAndRemove, run, tableIn } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("keno");
/** The floats whose removal draw produces exactly `tiles`, in order. */
const floatsDrawing = (tiles: number[]): number[] => {
  const remaining = [...ALL_TILES];
  return tiles.map((t) => {
    const index = remaining.indexOf(t);
    const f = (index + 0.5) / remaining.length;
    remaining.splice(index, 1);
    return f;
  });
};
const DRAW = [3, 40, 17, 1, 22, 9, 30, 12, 5, 38];
const play = (amount: number, picks: number[], risk: KenoRisk, drawn = DRAW) =>
  startRound(engine, amount, { picks, risk }, fixedRng(floatsDrawing(drawn)));
const prob = (picks: number, k: number) => Number(catchWays(picks, k)) / Number(ALL_DRAWS);

describe("keno: 40 tiles, 10 drawn, four risk levels", () => {
  it("draws 10 tiles by the removal draw, one float each", () => {
    expect((play(1, [1], "classic").state as KenoState).drawn).toEqual(DRAW);
    const lowest = startRound(engine, 1, { picks: [1], risk: "classic" }, fixedRng(new Array(10).fill(0)));
    expect((lowest.state as KenoState).drawn).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const highest = startRound(engine, 1, { picks: [1], risk: "classic" }, fixedRng(new Array(10).fill(0.999999)));
    expect((highest.state as KenoState).drawn).toEqual([40, 39, 38, 37, 36, 35, 34, 33, 32, 31]);
  });

  it("counts the hits and pays the table's multiplier, rounded down", () => {
    const step = play(100, [3, 40, 17, 2, 4], "classic"); // 3 hits of 5
    expect((step.state as KenoState).hits).toEqual([3, 40, 17]);
    expect(step.payout).toBe(100 * PAY_TABLES.classic[4]![3]!);
    expect(play(100, [17], "classic").payout).toBe(396);
    expect(play(1, [17], "classic").payout).toBe(3); // 3.96 rounded down
    expect(play(100, [2], "classic").payout).toBe(0);
    expect(play(10, [2], "low").payout).toBe(7); // low risk returns 0.7 on a miss
    expect(play(7, DRAW, "high").payout).toBe(7000); // ten of ten
    const none = play(5, [2, 4, 6, 8, 10, 11, 13, 14, 15, 16], "classic");
    expect((none.state as KenoState).hits).toEqual([]);
    expect(none.payout).toBe(0);
  });

  it("refuses invalid picks with clear messages", () => {
    const rejected = (params: object, fragment: string) => {
      const err = ruleError(() => startRound(engine, 1, params, fixedRng(floatsDrawing(DRAW))));
      expect(err.code).toBe("invalid_params");
      expect(err.message).toContain(fragment);
    };
    rejected({ picks: [5, 5], risk: "low" }, "only once");
    rejected({ picks: [], risk: "low" }, "at least 1");
    rejected({ picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], risk: "low" }, "at most 10");
    rejected({ picks: [0], risk: "low" }, "1 to 40");
    rejected({ picks: [41], risk: "low" }, "1 to 40");
    rejected({ picks: [1.5], risk: "low" }, "whole");
    rejected({ picks: [1], risk: "extreme" }, "risk");
  });

  it("uses the hypergeometric probabilities of game-rules A15 (40 tiles, 10 drawn)", () => {
    expect(prob(1, 1)).toBeCloseTo(0.25, 6);
    expect(prob(5, 2)).toBeCloseTo(0.277656, 6);
    expect(prob(10, 0)).toBeCloseTo(0.035445, 6);
    expect(prob(10, 10)).toBeCloseTo(1.2e-9, 10);
    for (let picks = 1; picks <= 10; picks++) {
      let all = 0n;
      for (let k = 0; k <= picks; k++) all += catchWays(picks, k);
      expect(all).toBe(ALL_DRAWS);
    }
  });

  it("has a table for every pick count and risk, each returning 98.9–99.1 % exactly", () => {
    for (const risk of RISKS) {
      expect(PAY_TABLES[risk]).toHaveLength(10);
      PAY_TABLES[risk].forEach((row, i) => {
        expect(row).toHaveLength(i + 2);
        for (let k = 2; k < row.length; k++) expect(row[k]!).toBeGreaterThanOrEqual(row[k - 1]!);
        for (const m of row) expect(Math.round(m * 100)).toBeCloseTo(m * 100, 9); // two decimals at most
        const { numerator, denominator } = kenoExactRtp(risk, i + 1);
        expect(1000n * numerator >= 989n * denominator, `${risk} ${i + 1}`).toBe(true);
        expect(1000n * numerator <= 991n * denominator, `${risk} ${i + 1}`).toBe(true);
      });
    }
    const rows = exactRtpOf("keno");
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(row.rtp).toBeGreaterThan(0.989);
  });

  it("orders the risk levels: low pays more often and varies least, high the reverse", () => {
    const stats = (risk: KenoRisk, picks: number) => {
      const row = PAY_TABLES[risk][picks - 1]!;
      let mean = 0;
      let square = 0;
      let hit = 0;
      row.forEach((m, k) => {
        mean += prob(picks, k) * m;
        square += prob(picks, k) * m * m;
        if (m > 0) hit += prob(picks, k);
      });
      return { sd: Math.sqrt(square - mean * mean), hit };
    };
    for (let picks = 2; picks <= 10; picks++) {
      const [low, medium, high] = (["low", "medium", "high"] as const).map((r) => stats(r, picks));
      expect(low!.sd).toBeLessThan(medium!.sd);
      expect(medium!.sd).toBeLessThan(high!.sd);
      expect(low!.hit).toBeGreaterThanOrEqual(medium!.hit);
      expect(medium!.hit).toBeGreaterThan(high!.hit);
      expect(Math.max(...PAY_TABLES.high[picks - 1]!)).toBeGreaterThanOrEqual(Math.max(...PAY_TABLES.classic[picks - 1]!));
    }
  });

  it("shows the top multiplier as the maximum payout, capped", () => {
    expect(kenoEngine.maxPayout(10, { picks: [1, 2, 3], risk: "high" })).toBe(815);
    expect(kenoEngine.maxPayout(1_000_000, { picks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], risk: "high" })).toBe(MAX_PAYOUT);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("keno", (e, page) => {
  let drawn: number[] = [];
  let hits: number[] = [];
  let multiplier = 0;
  let payout = 0;
  const tiles = Array.from({ length: 40 }, (_, i) => i + 1);
  const steps = run(e, [
    (s) => {
      drawn = pickAndRemove(s, tiles, 10);
      hits = e.params.picks.filter((p: number) => drawn.includes(p));
      multiplier = page.table("keno-multipliers")[e.params.risk][e.params.picks.length - 1][hits.length];
      // made whole by the example's rule, from the floats after the draw (section 4)
      payout = pay(e, s, e.amount, Math.round(multiplier * 100), 100);
    },
  ]);
  return { steps, outcome: { drawn, hits, multiplier }, payout };
});

describe("keno's fairness page", () => {
  it("lists the engine's pay tables", () => {
    const { table: _name, ...tables } = tableIn(fairnessPage("keno"), "keno-multipliers");
    expect(tables).toEqual(PAY_TABLES);
  });
});
