import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import { type DiceParams, type DiceState } from "../../src/games/dice/engine";
import { MAX_PAYOUT } from "../../src/limits";
import { diceRtp, DICE_CASES } from "../../src/games/dice/rtp";
import { ruleError } from "../helpers";
import { independentDerivation, index, pay, run } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";
import { play } from "./dice.cases";

const engine = requireEngine("dice");

describe("dice rules", () => {
  it("maps a float to one of 10,000 rolls 0.00–99.99", () => {
    const roll = (f: number) => (startRound(engine, 1, { target: 50, direction: "under" }, fixedRng([f])).state as DiceState).roll;
    expect(roll(0)).toBe(0);
    expect(roll(0.5)).toBe(50);
    expect(roll(0.123456)).toBe(12.34);
    expect(roll(1 - 2 ** -32)).toBe(99.99);
  });

  it("under 0.01 (0.01 % chance) wins only on 0.00 and pays 9,900×", () => {
    const p: DiceParams = { target: 0.01, direction: "under" };
    expect(play(p, 0).step.payout).toBe(990_000);
    expect(play(p, 0).state.win).toBe(true);
    expect(play(p, 1).step.payout).toBe(0);
  });

  it("over 99.98 (0.01 % chance) wins only on 99.99", () => {
    const p: DiceParams = { target: 99.98, direction: "over" };
    expect(play(p, 9999).step.payout).toBe(990_000);
    expect(play(p, 9998).step.payout).toBe(0);
  });

  it("under 98 (98 % chance) wins up to 97.99 and pays 99/98 rounded down", () => {
    const p: DiceParams = { target: 98, direction: "under" };
    expect(play(p, 0).step.payout).toBe(101); // 100 × 1.0102…
    expect(play(p, 9799).step.payout).toBe(101);
    expect(play(p, 9800).step.payout).toBe(0);
    expect(play(p, 9800, 9_800).step.payout).toBe(0);
    expect(play(p, 9799, 9_800).step.payout).toBe(9_900);
  });

  it("over 1.99 (98 % chance) wins from 2.00 and loses on the target itself", () => {
    const p: DiceParams = { target: 1.99, direction: "over" };
    expect(play(p, 200).step.payout).toBe(101);
    expect(play(p, 9999).step.payout).toBe(101);
    expect(play(p, 199).step.payout).toBe(0);
  });

  it("pays 1.98× at 50 % either way, stake included, rounded down", () => {
    expect(play({ target: 50, direction: "under" }, 4999).step.payout).toBe(198);
    expect(play({ target: 50, direction: "under" }, 5000).step.payout).toBe(0);
    expect(play({ target: 49.99, direction: "over" }, 5000).step.payout).toBe(198);
    expect(play({ target: 49.99, direction: "over" }, 4999).step.payout).toBe(0);
    expect(play({ target: 50, direction: "under" }, 0, 3).step.payout).toBe(5); // 5.94
  });

  it("caps the payout of a long shot at MAX_PAYOUT", () => {
    const p: DiceParams = { target: 0.01, direction: "under" };
    expect(play(p, 0, 1_000_000).step.payout).toBe(MAX_PAYOUT);
    expect(engine.maxPayout(1_000_000, p)).toBe(MAX_PAYOUT);
    expect(engine.maxPayout(100, { target: 50, direction: "under" })).toBe(198);
  });

  it("refuses bad parameters with a clear message", () => {
    const refused = (params: unknown) => ruleError(() => startRound(engine, 100, params, fixedRng([0.5])));
    expect(refused({ target: 50.123, direction: "under" }).message).toMatch(/two decimals/);
    expect(refused({ target: 0, direction: "under" }).message).toMatch(/win chance/); // 0 %
    expect(refused({ target: 98.01, direction: "under" }).message).toMatch(/win chance/); // 98.01 %
    expect(refused({ target: 1.98, direction: "over" }).message).toMatch(/win chance/); // 98.01 %
    expect(refused({ target: 99.99, direction: "over" }).message).toMatch(/win chance/); // 0 %
    expect(refused({ target: 100, direction: "under" }).code).toBe("invalid_params");
    expect(refused({ target: -1, direction: "under" }).code).toBe("invalid_params");
    expect(refused({ target: 50, direction: "sideways" }).code).toBe("invalid_params");
    expect(refused({ target: 50 }).code).toBe("invalid_params");
    expect(refused({ target: 50, direction: "under", amount: 5 }).message).toMatch(/amount/);
    expect(ruleError(() => startRound(engine, 0, { target: 50, direction: "under" }, fixedRng([0.5]))).code).toBe("invalid_amount");
  });
});

describe("dice RTP", () => {
  it("is exactly 99 % for the tabled targets, by enumeration of the 10,000 rolls", () => {
    const rows = exactRtpOf("dice");
    expect(rows).toHaveLength(DICE_CASES.length);
    for (const row of rows) expect(row.rtp).toBe(0.99);
    for (const params of DICE_CASES) {
      const { rolls, floats } = diceRtp(params);
      expect(rolls.n * 100n).toBe(99n * rolls.d);
      // each roll has 429,496 or 429,497 of the 2³² floats: within 2·10⁻⁶ of 99 %
      expect(Math.abs(Number(floats.n) / Number(floats.d) - 0.99)).toBeLessThan(2e-6);
    }
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("dice", (e) => {
  let roll = 0;
  let payout = 0;
  const t = Math.round(e.params.target * 100);
  const under = e.params.direction === "under";
  const chance = under ? t : 9999 - t;
  const wins = () => (under ? roll < t : roll > t);
  const steps = run(e, [
    (s) => {
      roll = index(s, 10_000);
      if (wins()) payout = pay(e, s, e.amount, 9900, chance);
    },
  ]);
  return { steps, outcome: { roll: roll / 100, win: wins() }, payout };
});
