import { z } from "zod";
import { float52, type Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import { bustHundredths } from "../crash-chain";
import type { GameEngine, Step, StepContext } from "../engine";
import { pays, draw52 } from "../describe";

/**
 * Single-player Crash for the casino room: the player sets an automatic cash-out; the round's crash
 * point comes from the player's own provably-fair stream (a 52-bit draw, float52) through the same curve
 * as the shared room's hash chain. The bet wins when the crash point reaches the cash-out and then pays
 * amount × cash-out, so every cash-out returns 99 % (exact to 2⁻⁵²).
 */
export const MIN_CASH_OUT = 1.01;
export const MAX_CASH_OUT = 1_000_000;

export const crashParams = z
  .object({
    cashOutAt: z
      .number()
      .min(MIN_CASH_OUT, `cash-out must be at least ${MIN_CASH_OUT}×`)
      .max(MAX_CASH_OUT, `cash-out must be at most ${MAX_CASH_OUT.toLocaleString("en")}×`)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "cash-out has at most two decimals"),
  })
  .strict();
export type CrashParams = z.infer<typeof crashParams>;

export interface CrashState {
  cashOutAt: number;
  crashPoint: number;
  win: boolean;
}

const hundredths = (multiplier: number): number => Math.round(multiplier * 100);

export const crashEngine: GameEngine<CrashParams, CrashState> = {
  id: "crash",
  params: crashParams,
  start(amount: number, params: CrashParams, rng: Rng, pay: Payer = payDown): Step<CrashState> {
    const bust = bustHundredths(BigInt(float52(rng) * 2 ** 52));
    const target = hundredths(params.cashOutAt);
    const win = bust >= BigInt(target);
    return {
      state: { cashOutAt: params.cashOutAt, crashPoint: Number(bust) / 100, win },
      stake: amount,
      payout: win ? pay(amount, target, 100) : 0,
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (amount, params, pay = payUp) => pay(amount, hundredths(params.cashOutAt), 100),
  winChance: (params) => 0.99 / params.cashOutAt,
  describe: describeCrash,
};

function describeCrash({ state: s, step, floats }: StepContext<CrashState>): string[] {
  return [
    draw52(floats),
    `crash point = max(1.00, floor(99 × 2⁵² / (2⁵² − r)) / 100) = ${s.crashPoint.toFixed(2)}×`,
    `cash-out at ${s.cashOutAt}×: ${s.win ? "reached" : "not reached"}, ${pays(step.payout)}`,
  ];
}

export default crashEngine;
