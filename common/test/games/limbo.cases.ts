import { winningDraws } from "../../src/games/limbo/engine";
import type { Enumerated, Outcomes, Play, RoundingCases } from "./case-support";

export const plays: Play[] = [
  { amount: 100, params: { target: 1.7 } },
  { amount: 10, params: { target: 2 } },
  { amount: 100, params: { target: 2.5 } },
];

export const oneCoin: Play = { amount: 1, params: { target: 2 } };

const TOP = 2 ** 26 - 1;
/** Limbo's curve (crash's too): a win (r = 2⁵² − 1) weighted by the winning draws, a loss (r = 0) by the rest. */
export function curve(targetHundredths: number): Outcomes {
  const wins = winningDraws(BigInt(targetHundredths));
  return {
    outcomes: [
      [[TOP / 2 ** 26, TOP / 2 ** 26], wins],
      [[0, 0], 2n ** 52n - wins],
    ],
    total: 2n ** 52n,
  };
}

export const rounding: RoundingCases = {
  ratios: [101, 150, 333, 1000].map((t) => [`${t / 100}×`, t, 100]),
  enumerated: [1.01, 1.5, 2, 10, 1_000].map((x): Enumerated => ({
    bet: `target ${x}×`,
    rtpBet: `target ${x}×`,
    params: () => ({ target: x }),
    outcomes: () => curve(Math.round(x * 100)),
  })),
};
