import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { lineAt, linePays, REELS, slotsEngine, SYMBOLS, type SlotsState, type SlotSymbol } from "../../src/games/slots/engine";
import { MAX_PAYOUT } from "../../src/limits";
import { enumerateSlots } from "../../src/games/slots/rtp";
import { fairnessPage, independentDerivation, index, run, tableIn } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("slots");
/** The floats that stop the reels on the first stop showing each wanted symbol. */
const floatsFor = (line: SlotSymbol[]) => line.map((symbol, reel) => (REELS[reel]!.indexOf(symbol) + 0.5) / 20);
const spin = (line: SlotSymbol[], amount = 1) => startRound(engine, amount, {}, fixedRng(floatsFor(line)));

describe("slots: classic three-reel machine re-tuned to 97.55 %", () => {
  it("has the symbol counts of game-rules A13 on its 20-stop reels", () => {
    const table: Record<SlotSymbol, [number, number, number]> = {
      cherry: [5, 7, 3],
      orange: [4, 1, 10],
      plum: [6, 1, 4],
      bell: [1, 9, 1],
      melon: [2, 1, 1],
      bar: [2, 1, 1],
    };
    for (const symbol of SYMBOLS) {
      expect(REELS.map((reel) => reel.filter((s) => s === symbol).length)).toEqual(table[symbol]);
    }
    for (const reel of REELS) expect(reel).toHaveLength(20);
  });

  it("stops each reel at floor(f × 20) and pays the centre line", () => {
    const step = startRound(engine, 1, {}, fixedRng([0, 0.999999, 0.5]));
    expect((step.state as SlotsState).stops).toEqual([0, 19, 10]);
    expect((step.state as SlotsState).line).toEqual([REELS[0]![0], REELS[1]![19], REELS[2]![10]]);
  });

  it("pays every line of the table", () => {
    const cases: [SlotSymbol[], number][] = [
      [["cherry", "bell", "orange"], 2],
      [["cherry", "bar", "cherry"], 2],
      [["cherry", "cherry", "plum"], 4],
      [["cherry", "cherry", "cherry"], 8],
      [["orange", "orange", "orange"], 10],
      [["orange", "orange", "bar"], 10],
      [["plum", "plum", "plum"], 14],
      [["plum", "plum", "bar"], 14],
      [["bell", "bell", "bell"], 18],
      [["bell", "bell", "bar"], 18],
      [["melon", "melon", "melon"], 100],
      [["melon", "melon", "bar"], 100],
      [["bar", "bar", "bar"], 200],
      [["bar", "bar", "orange"], 0],
      [["orange", "orange", "plum"], 0],
      [["orange", "cherry", "cherry"], 0],
      [["plum", "bell", "plum"], 0],
      [["bell", "cherry", "bell"], 0],
    ];
    for (const [line, pays] of cases) {
      const step = spin(line, 5);
      expect((step.state as SlotsState).line).toEqual(line);
      expect(step.payout).toBe(5 * pays);
      expect(step.done).toBe(true);
    }
  });

  it("hits each line on the number of combinations game-rules A13 counts, 7,804 coins per 8,000", () => {
    const byPay = new Map<number, number>();
    for (let a = 0; a < 20; a++)
      for (let b = 0; b < 20; b++)
        for (let c = 0; c < 20; c++) {
          const pays = linePays(lineAt([a, b, c]));
          byPay.set(pays, (byPay.get(pays) ?? 0) + 1);
        }
    expect(byPay.get(2)).toBe(1300);
    expect(byPay.get(4)).toBe(595);
    expect(byPay.get(8)).toBe(105);
    expect(byPay.get(10)).toBe(44);
    expect(byPay.get(14)).toBe(30);
    expect(byPay.get(18)).toBe(18);
    expect(byPay.get(100)).toBe(4);
    expect(byPay.get(200)).toBe(2);
    const { returned, combinations, hits } = enumerateSlots();
    expect([returned, combinations, hits]).toEqual([7804, 8000, 2098]); // hit frequency 26.225 %
    const [row] = exactRtpOf("slots");
    expect(row!.rtp).toBe(row!.reference);
  });

  it("shows 200× as the maximum payout, capped", () => {
    expect(slotsEngine.maxPayout(3, {})).toBe(600);
    expect(slotsEngine.maxPayout(1_000_000, {})).toBe(MAX_PAYOUT);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("slots", (e, page) => {
  const reels: string[][] = page.table("slots-reels").reels;
  let stops: number[] = [];
  const steps = run(e, [(s) => (stops = reels.map((reel) => index(s, reel.length)))]);
  const line = stops.map((stop, i) => reels[i]![stop]!);
  const [a, b, c] = line;
  const fruit: Record<string, number> = { orange: 10, plum: 14, bell: 18, melon: 100 };
  let multiplier = 0;
  if (a === "cherry") multiplier = b !== "cherry" ? 2 : c !== "cherry" ? 4 : 8;
  else if (a === "bar") multiplier = b === "bar" && c === "bar" ? 200 : 0;
  else if (fruit[a!] && b === a && (c === a || c === "bar")) multiplier = fruit[a!]!;
  return { steps, outcome: { stops, line, multiplier }, payout: e.amount * multiplier };
});

describe("slots' fairness page", () => {
  it("lists the engine's reel strips", () => {
    expect(tableIn(fairnessPage("slots"), "slots-reels").reels).toEqual(REELS);
  });
});
