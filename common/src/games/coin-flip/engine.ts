import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import type { GameEngine, Step, StepContext } from "../engine";
import { f, pays } from "../describe";

/** Coin Flip: f < 0.5 is tails, otherwise heads (2³¹ values each); a correct call pays 1.98×. */
export const coinFlipParams = z.object({ side: z.enum(["heads", "tails"]) }).strict();
export type CoinFlipParams = z.infer<typeof coinFlipParams>;
export type CoinSide = CoinFlipParams["side"];

export interface CoinFlipState {
  side: CoinSide;
  outcome: CoinSide;
  win: boolean;
}

/** What a correct call returns for 1, stake included, as [numerator, denominator]: 1.98. */
export const WIN_RETURN = [198, 100] as const;

export const flipCoin = (rng: Rng): CoinSide => (rng.next() < 0.5 ? "tails" : "heads");

export const coinFlipEngine: GameEngine<CoinFlipParams, CoinFlipState> = {
  id: "coin-flip",
  params: coinFlipParams,
  start(amount: number, params: CoinFlipParams, rng: Rng, pay: Payer = payDown): Step<CoinFlipState> {
    const outcome = flipCoin(rng);
    const win = outcome === params.side;
    return {
      state: { side: params.side, outcome, win },
      stake: amount,
      payout: win ? pay(amount, ...WIN_RETURN) : 0,
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (amount, _params, pay = payUp) => pay(amount, ...WIN_RETURN),
  winChance: () => 0.5,
  describe: describeCoinFlip,
};

function describeCoinFlip({ state: s, step, floats }: StepContext<CoinFlipState>): string[] {
  return [
    `${f(floats, 0)} ${s.outcome === "tails" ? "< 0.5: tails" : "≥ 0.5: heads"}`,
    `called ${s.side}: ${s.win ? "win" : "lose"}, ${pays(step.payout)}`,
  ];
}

export default coinFlipEngine;
