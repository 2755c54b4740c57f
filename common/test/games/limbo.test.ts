import { describe, expect, it } from "vitest";
import { fixedRng, float52 } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { type LimboState } from "../../src/games/limbo/engine";
import { MAX_PAYOUT } from "../../src/limits";
import { CURVE_TARGETS, curveRtp } from "../../src/games/limbo/rtp";
import { ruleError } from "../helpers";
import { draw52, floorRatio, independentDerivation, run } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("limbo");
const SPAN = 2n ** 52n;

/** The two floats whose top 26 bits make the 52-bit draw r (float52 takes 26 bits of each). */
const floatsFor = (r: bigint): number[] => {
  const high = Number(r >> 26n);
  const low = Number(r & (2n ** 26n - 1n));
  return [(high + 0.5) / 2 ** 26, (low + 0.5) / 2 ** 26];
};

const play = (target: number, r: bigint, amount = 100) => {
  const step = startRound(engine, amount, { target }, fixedRng(floatsFor(r)));
  return { step, state: step.state as LimboState };
};

describe("limbo rules", () => {
  it("builds the 52-bit draw from 26 bits of each of two floats", () => {
    for (const r of [0n, 1n, 2n ** 26n, 2n ** 51n + 12345n, SPAN - 1n]) {
      expect(BigInt(float52(fixedRng(floatsFor(r))) * 2 ** 52)).toBe(r);
    }
  });

  it("follows result = max(1, floor(99 / (1 − X)) / 100), X = r / 2⁵²", () => {
    expect(play(1.01, 0n).state.result).toBe(1); // 0.99 raised to 1.00: loses every target
    expect(play(1.01, 0n).step.payout).toBe(0);
    expect(play(2, SPAN / 2n).state.result).toBe(1.98); // X = ½ → 99 / ½ = 198
    expect(play(2, SPAN - SPAN / 1024n).state.result).toBe(1013.76); // X = 1 − 2⁻¹⁰ → 99 · 1024
    expect(play(1_000_000, SPAN - 1n).state.win).toBe(true); // the top draw reaches 99 · 2⁵² hundredths
  });

  it("wins exactly from the boundary draw 2⁵² − floor(99 · 2⁵² / T) on, paying the target", () => {
    for (const target of [1.01, 1.98, 2, 3.33, 10, 1_000_000]) {
      const t = BigInt(Math.round(target * 100));
      const first = SPAN - (99n * SPAN) / t;
      const win = play(target, first, 100);
      expect(win.state.win).toBe(true);
      expect(win.state.result).toBeGreaterThanOrEqual(target);
      expect(win.step.payout).toBe(Math.min(Math.round(target * 100), MAX_PAYOUT));
      const loss = play(target, first - 1n, 100);
      expect(loss.state.win).toBe(false);
      expect(loss.state.result).toBeLessThan(target);
      expect(loss.step.payout).toBe(0);
    }
  });

  it("rounds a win down to a whole coin and caps it", () => {
    expect(play(1.01, SPAN - 1n, 99).step.payout).toBe(99); // 99.99
    expect(play(1_000_000, SPAN - 1n, 1_000).step.payout).toBe(MAX_PAYOUT);
    expect(engine.maxPayout(1_000, { target: 1_000_000 })).toBe(MAX_PAYOUT);
    expect(engine.maxPayout(100, { target: 2.5 })).toBe(250);
  });

  it("refuses bad parameters", () => {
    const refused = (params: unknown) => ruleError(() => startRound(engine, 100, params, fixedRng([0.5, 0.5])));
    expect(refused({ target: 2.005 }).message).toMatch(/two decimals/);
    expect(refused({ target: 1 }).code).toBe("invalid_params");
    expect(refused({ target: 1_000_000.01 }).code).toBe("invalid_params");
    expect(refused({ target: "2" }).code).toBe("invalid_params");
    expect(refused({}).code).toBe("invalid_params");
    expect(refused({ target: 2, side: "over" }).message).toMatch(/side/);
  });
});

describe("limbo RTP", () => {
  it("is 99 % to 2⁻⁵²: never above, below by less than T / (100 · 2⁵²)", () => {
    const rows = exactRtpOf("limbo");
    expect(rows).toHaveLength(CURVE_TARGETS.length);
    for (const target of CURVE_TARGETS) {
      const t = BigInt(Math.round(target * 100));
      const rtp = curveRtp(t);
      // 0.99 − rtp = (99·2⁵² − T·floor(99·2⁵²/T)) / (100·2⁵²) = ((99·2⁵²) mod T) / (100·2⁵²)
      const gap = 99n * rtp.d - 100n * rtp.n; // in units of 1 / (100 · rtp.d)
      expect(gap >= 0n).toBe(true);
      expect(Number(gap) / Number(rtp.d) / 100).toBeLessThan(Number(t) / (100 * 2 ** 52));
    }
    for (const row of rows) expect(Math.abs(row.rtp - 0.99)).toBeLessThan(1e-9);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("limbo", (e) => {
  let r = 0n;
  const steps = run(e, [(s) => (r = draw52(s))]);
  const result = (99n * 2n ** 52n) / (2n ** 52n - r);
  const shown = result < 100n ? 100n : result;
  const t = BigInt(Math.round(e.params.target * 100));
  const win = shown >= t;
  return { steps, outcome: { result: Number(shown) / 100, win }, payout: win ? floorRatio(e.amount, t, 100) : 0 };
});
