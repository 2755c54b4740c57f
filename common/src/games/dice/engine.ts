import { z } from "zod";
import { pickIndex, type Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import type { GameEngine, Step, StepContext } from "../engine";
import { f, pays } from "../describe";

/**
 * Dice: 10,000 equally likely rolls 0.00–99.99. "under t" wins when roll < t, "over t" when roll > t.
 * The win chance c (in hundredths of a percent) is t for under and 9999 − t for over, from 0.01 % to
 * 98 %; a win pays 99 / chance, so every target returns exactly 99 % (before rounding down to a coin).
 */
export const ROLLS = 10_000;
export const MIN_CHANCE = 1; // 0.01 %
export const MAX_CHANCE = 9_800; // 98 %
/** A win returns RTP_NUMERATOR / chance for 1: 99 % × 10,000 rolls. */
export const RTP_NUMERATOR = 9_900;

const hundredths = z
  .number()
  .min(0)
  .max(99.99)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "target has at most two decimals");

export const diceParams = z
  .object({ target: hundredths, direction: z.enum(["over", "under"]) })
  .strict()
  .refine((p) => {
    const c = winChance(p);
    return c >= MIN_CHANCE && c <= MAX_CHANCE;
  }, "win chance must be between 0.01 % and 98 %");
export type DiceParams = z.infer<typeof diceParams>;

export interface DiceState {
  target: number;
  direction: "over" | "under";
  roll: number;
  win: boolean;
}

/** Win chance in hundredths of a percent (1 = 0.01 %). */
export function winChance(p: DiceParams): number {
  const t = Math.round(p.target * 100);
  return p.direction === "under" ? t : ROLLS - 1 - t;
}

export const diceEngine: GameEngine<DiceParams, DiceState> = {
  id: "dice",
  params: diceParams,
  start(amount: number, params: DiceParams, rng: Rng, pay: Payer = payDown): Step<DiceState> {
    const rollHundredths = pickIndex(rng, ROLLS);
    const t = Math.round(params.target * 100);
    const win = params.direction === "under" ? rollHundredths < t : rollHundredths > t;
    return {
      state: { target: params.target, direction: params.direction, roll: rollHundredths / 100, win },
      stake: amount,
      payout: win ? pay(amount, RTP_NUMERATOR, winChance(params)) : 0,
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (amount, params, pay = payUp) => pay(amount, RTP_NUMERATOR, winChance(params)),
  winChance: (params) => winChance(params) / ROLLS,
  describe: describeDice,
};

function describeDice({ state: s, step, floats }: StepContext<DiceState>): string[] {
  const roll = Math.round(s.roll * 100);
  return [
    `roll = floor(${f(floats, 0)} × 10000) / 100 = ${(roll / 100).toFixed(2)}`,
    `${s.direction} ${s.target} wins when the roll is ${s.direction === "under" ? "below" : "above"} ${s.target}: ${s.win ? "win" : "lose"}, ${pays(step.payout)}`,
  ];
}

export default diceEngine;
