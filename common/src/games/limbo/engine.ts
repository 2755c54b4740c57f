import { z } from "zod";
import { float52, type Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import type { GameEngine, Step, StepContext } from "../engine";
import { pays, draw52 } from "../describe";

/**
 * Limbo: the player names a target multiplier; the game draws a result multiplier with
 * P(result ≥ x) = 0.99 / x at 52-bit resolution (as bustabit), and a result at or above the target pays
 * the target. Every target returns 99 % (exact to 2⁻⁵²).
 */
export const MIN_TARGET = 1.01;
export const MAX_TARGET = 1_000_000;
const SPAN = 2n ** 52n;

export const limboParams = z
  .object({
    target: z
      .number()
      .min(MIN_TARGET)
      .max(MAX_TARGET)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "target has at most two decimals"),
  })
  .strict();
export type LimboParams = z.infer<typeof limboParams>;

export interface LimboState {
  target: number;
  result: number;
  win: boolean;
}

/** The result multiplier in hundredths: floor(99 · 2⁵² / (2⁵² − r)), r the 52-bit draw. */
export function limboResultHundredths(r52: bigint): bigint {
  return (99n * SPAN) / (SPAN - r52);
}

/**
 * How many of the 2⁵² equally likely draws r reach a target of T hundredths (T ≥ 100) on the curve
 * floor(99 · 2⁵² / (2⁵² − r)): it reaches T ⇔ 2⁵² − r ≤ 99 · 2⁵² / T, so the count is floor(99 · 2⁵² / T).
 */
export function winningDraws(targetHundredths: bigint): bigint {
  return (99n * SPAN) / targetHundredths;
}

export const limboEngine: GameEngine<LimboParams, LimboState> = {
  id: "limbo",
  params: limboParams,
  start(amount: number, params: LimboParams, rng: Rng, pay: Payer = payDown): Step<LimboState> {
    const r = BigInt(float52(rng) * 2 ** 52);
    const raw = limboResultHundredths(r);
    const resultHundredths = raw < 100n ? 100n : raw;
    const targetHundredths = Math.round(params.target * 100);
    const win = resultHundredths >= BigInt(targetHundredths);
    return {
      state: { target: params.target, result: Number(resultHundredths) / 100, win },
      stake: amount,
      payout: win ? pay(amount, targetHundredths, 100) : 0,
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (amount, params, pay = payUp) => pay(amount, Math.round(params.target * 100), 100),
  winChance: (params) => 0.99 / params.target,
  describe: describeLimbo,
};

function describeLimbo({ state: s, step, floats }: StepContext<LimboState>): string[] {
  return [
    draw52(floats),
    `result = max(1.00, floor(99 × 2⁵² / (2⁵² − r)) / 100) = ${s.result.toFixed(2)}×`,
    `target ${s.target}×: ${s.win ? "reached" : "not reached"}, ${pays(step.payout)}`,
  ];
}

export default limboEngine;
