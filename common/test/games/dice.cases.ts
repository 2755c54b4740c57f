import { fixedRng } from "../../src/fairness/stream";
import { requireEngine, startRound } from "../../src/games/runner";
import type { DiceParams, DiceState } from "../../src/games/dice/engine";
import { pick, uniform, type Enumerated, type Play, type RoundingCases } from "./case-support";

export const plays: Play[] = [
  {
    amount: 100,
    params: { target: 33.33, direction: "over" },
    verifierSays: /roll = floor\(0\.\d+ × 10000\) \/ 100 = \d+\.\d\d/,
  },
  { amount: 10, params: { target: 49.5, direction: "under" } },
  { amount: 100, params: { target: 49.5, direction: "over" } },
];

export const oneCoin: Play = { amount: 1, params: { target: 49.5, direction: "under" } };

export const rounding: RoundingCases = {
  ratios: [1, 2, 49.5, 50, 98].map((c) => [`chance ${c} %`, 9900, Math.round(c * 100)]),
  // every target returns the same 99 %: the RTP table's first row
  enumerated: [0.01, 2, 49.5, 50, 98].flatMap((target) =>
    (["under", "over"] as const)
      .filter((direction) => direction === "under" || target >= 1.99)
      .map((direction): Enumerated => ({
        bet: `${direction} ${target}`,
        params: () => ({ target, direction }),
        outcomes: () => uniform(10_000, (i) => [pick(i, 10_000)]),
      })),
  ),
};

// Shared by the dice tests (dice.test.ts, dice.stats.test.ts): a round on a chosen roll.
const engine = requireEngine("dice");

/** The float that rolls `hundredths` (0..9999): the middle of its 1/10,000 slice. */
export const rollFloat = (hundredths: number) => (hundredths + 0.5) / 10_000;

export const play = (params: DiceParams, rollHundredths: number, amount = 100) => {
  const step = startRound(engine, amount, params, fixedRng([rollFloat(rollHundredths)]));
  return { step, state: step.state as DiceState };
};
