import { describe, expect, it } from "vitest";
import { fixedRng, floatStream } from "../../src/fairness/stream";
import { type Step } from "../../src/games/engine";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import { minesMultiplier, type MinesAction, type MinesState } from "../../src/games/mines/engine";
import { MAX_PAYOUT } from "../../src/limits";
import { cashOutRtp } from "../../src/games/mines/rtp";
import { passesChiSquare } from "../stats";
import { ruleError } from "../helpers";
import { big, independentDerivation, pay, pickAndRemove, run, type Stream } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";
import { mcInput, playRound, seededRng } from "./mines.cases";

const engine = requireEngine("mines");

/**
 * Floats that draw the given mine tiles in order: each draw takes index floor(f × remaining) of the
 * tiles still in the list (0..24 in order), so the middle of that index's slice selects it.
 */
function mineFloats(tiles: readonly number[]): number[] {
  const remaining = Array.from({ length: 25 }, (_, i) => i);
  return tiles.map((tile) => {
    const index = remaining.indexOf(tile);
    const f = (index + 0.5) / remaining.length;
    remaining.splice(index, 1);
    return f;
  });
}

function board(amount: number, mines: number[]) {
  let step = startRound(engine, amount, { mines: mines.length }, fixedRng(mineFloats(mines))) as Step<MinesState>;
  return {
    get step() {
      return step;
    },
    act(action: MinesAction) {
      step = actRound(engine, step.state, action, fixedRng([])) as Step<MinesState>;
      return step;
    },
  };
}

const multiplier = (m: number, k: number) => {
  const [num, den] = minesMultiplier(m, k);
  return num / den;
};

describe("mines rules", () => {
  it("draws the m mines at the bet as the first m picks without replacement", () => {
    // 24.5/25 → index 24 of 0..24 = tile 24; 0.5/24 → index 0 = tile 0; 10.5/23 → index 10 of 1..23 = tile 11
    const step = startRound(engine, 10, { mines: 3 }, fixedRng([24.5 / 25, 0.5 / 24, 10.5 / 23]));
    expect((step.state as MinesState).mines).toEqual([24, 0, 11]);
    expect(step.stake).toBe(10);
    expect(step.done).toBe(false);
  });

  it("hides the mines while the round is open and shows them with the hit when it is over", () => {
    const b = board(100, [3, 7, 12]);
    const open = engine.view(b.step.state, false) as Record<string, unknown>;
    expect(open).not.toHaveProperty("mines");
    expect(JSON.stringify(open)).not.toMatch(/\[3,7,12\]/);
    expect(open).toMatchObject({ mineCount: 3, revealed: [], multiplier: 0, nextMultiplier: 1.125 });
    b.act({ type: "reveal", tile: 0 });
    const lost = b.act({ type: "reveal", tile: 7 });
    expect(lost.done).toBe(true);
    expect(lost.payout).toBe(0);
    expect(engine.view(lost.state, true)).toMatchObject({ mines: [3, 7, 12], hit: 7, revealed: [0], status: "lost" });
  });

  it("raises the multiplier to 0.99 × C(25,k)/C(25−m,k) with each gem", () => {
    const b = board(1000, [3, 7, 12]);
    b.act({ type: "reveal", tile: 0 });
    expect(engine.view(b.step.state, false)).toMatchObject({ multiplier: 1.125, cashValue: 1125, cashValueUp: 1125, cashValueExact: 1125 }); // 0.99 × 25/22
    b.act({ type: "reveal", tile: 1 });
    // 1285.71…: a cash-out pays 1285 or 1286, and the view says both and the exact value
    const view = engine.view(b.step.state, false) as { cashValue: number; cashValueUp: number; cashValueExact: number };
    expect(view).toMatchObject({ cashValue: 1285, cashValueUp: 1286 });
    expect(view.cashValueExact).toBeCloseTo((1000 * 99 * 25 * 24) / (100 * 22 * 21), 9);
    const cash = b.act({ type: "cashout" });
    expect(cash.done).toBe(true);
    expect(cash.payout).toBe(1285); // 0.99 × 25·24 / (22·21) = 1.2857…
    expect(cash.state.status).toBe("cashed");
  });

  it("matches the multipliers tabled in the rules reference", () => {
    expect(multiplier(1, 1)).toBeCloseTo(1.03125, 10);
    expect(multiplier(1, 24)).toBeCloseTo(24.75, 10);
    expect(multiplier(3, 22)).toBeCloseTo(2277, 6);
    expect(multiplier(5, 5)).toBeCloseTo(3.393, 3);
    expect(multiplier(10, 8)).toBeCloseTo(166.4, 1);
    expect(multiplier(12, 13)).toBe(5_148_297); // 0.99 × C(25,12), the largest
    expect(multiplier(13, 12)).toBe(5_148_297);
    expect(multiplier(24, 1)).toBeCloseTo(24.75, 10);
  });

  it("cashes out by itself on the last gem", () => {
    const one = board(
      100,
      Array.from({ length: 24 }, (_, i) => i + 1),
    ); // only tile 0 is a gem
    const win = one.act({ type: "reveal", tile: 0 });
    expect(win.done).toBe(true);
    expect(win.payout).toBe(2475); // 24.75×
    const three = board(
      10,
      Array.from({ length: 22 }, (_, i) => i + 3),
    ); // gems 0, 1, 2
    expect(three.act({ type: "reveal", tile: 2 }).done).toBe(false);
    expect(three.act({ type: "reveal", tile: 0 }).done).toBe(false);
    expect(three.act({ type: "reveal", tile: 1 })).toMatchObject({ done: true, payout: 22_770 }); // 0.99 × C(25,3)
  });

  it("cashes out by itself when the payout reaches the cap", () => {
    const mines = Array.from({ length: 12 }, (_, i) => 13 + i); // gems 0..12
    const b = board(1_000_000, mines);
    let gems = 0;
    while (!b.step.done) {
      b.act({ type: "reveal", tile: gems });
      gems += 1;
    }
    expect(b.step.payout).toBe(MAX_PAYOUT);
    expect(gems).toBeLessThan(13);
    expect(1_000_000 * multiplier(12, gems - 1)).toBeLessThan(MAX_PAYOUT); // not one gem too late
    expect(engine.maxPayout(1_000_000, { mines: 12 })).toBe(MAX_PAYOUT);
    expect(engine.maxPayout(100, { mines: 1 })).toBe(2475);
  });

  it("refuses a cash-out before any gem, a tile revealed twice, and any action after the round", () => {
    const b = board(100, [5]);
    expect(ruleError(() => b.act({ type: "cashout" })).code).toBe("nothing_to_cash_out");
    b.act({ type: "reveal", tile: 6 });
    expect(ruleError(() => b.act({ type: "reveal", tile: 6 })).code).toBe("already_revealed");
    b.act({ type: "cashout" });
    expect(ruleError(() => b.act({ type: "reveal", tile: 7 })).code).toBe("round_over");
    expect(ruleError(() => b.act({ type: "cashout" })).code).toBe("round_over");
  });

  it("refuses bad parameters and actions", () => {
    const refused = (params: unknown) => ruleError(() => startRound(engine, 100, params, fixedRng([0.1, 0.2, 0.3]))).code;
    for (const params of [{ mines: 0 }, { mines: 25 }, { mines: 2.5 }, { mines: "3" }, {}, { mines: 3, size: 5 }]) {
      expect(refused(params)).toBe("invalid_params");
    }
    const state = board(100, [5]).step.state;
    const bad = (action: unknown) => ruleError(() => actRound(engine, state, action, fixedRng([]))).code;
    for (const action of [
      { type: "reveal", tile: 25 },
      { type: "reveal", tile: -1 },
      { type: "reveal", tile: 1.5 },
      { type: "reveal" },
      { type: "flag", tile: 3 },
    ]) {
      expect(bad(action)).toBe("invalid_action");
    }
  });
});

describe("mines RTP", () => {
  it("is exactly 99 % for every mine count and every cash-out point", () => {
    for (const row of exactRtpOf("mines")) expect(row.rtp).toBe(0.99);
    for (let m = 1; m <= 24; m++) {
      for (let k = 1; k <= 25 - m; k++) {
        const rtp = cashOutRtp(m, k);
        expect(rtp.n * 100n).toBe(99n * rtp.d);
      }
    }
  });

  it("a mine-count's later draws never repeat a tile and are uniform too (χ² on the last of 5)", () => {
    const last = new Array<number>(25).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const mines = (startRound(engine, 1, { mines: 5 }, floatStream(mcInput(1_000_000 + i))).state as MinesState).mines;
      expect(new Set(mines).size).toBe(5);
      last[mines[4]!]! += 1;
    }
    expect(passesChiSquare(last)).toBe(true);
  });

  it("replays a multi-step round from its seeds", () => {
    const pick = seededRng(5);
    for (let nonce = 0; nonce < 20; nonce++) {
      const input = mcInput(700_000 + nonce);
      const { step, actions } = playRound(floatStream(input), pick, 30);
      const replay = replayRound(input, { game: "mines", amount: 30, params: { mines: step.state.mineCount }, actions });
      expect(replay.totalPayout).toBe(step.payout);
      expect(replay.view).toEqual(engine.view(step.state, true));
    }
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("mines", (e) => {
  let mines: number[] = [];
  const m = e.params.mines;
  const tiles = Array.from({ length: 25 }, (_, i) => i);
  const revealed: number[] = [];
  let status = "open";
  let payout = 0;
  const choose = (n: number, k: number) => {
    let c = 1n;
    for (let i = 1; i <= k; i++) c = (c * big(n - k + i)) / big(i);
    return c;
  };
  // made whole by the example's rule, from the stream's next floats (section 4)
  const cashOut = (s: Stream) => pay(e, s, e.amount, 99n * choose(25, revealed.length), 100n * choose(25 - m, revealed.length));
  const actions = e.actions.map((a: any) => (s: Stream) => {
    if (a.type === "cashout") [status, payout] = ["cashed", cashOut(s)];
    else if (mines.includes(a.tile)) status = "lost";
    else {
      revealed.push(a.tile);
      if (revealed.length === 25 - m) [status, payout] = ["cashed", cashOut(s)];
    }
  });
  const steps = run(e, [(s) => (mines = pickAndRemove(s, tiles, m)), ...actions]);
  return { steps, outcome: { mines, revealed, status }, payout };
});
