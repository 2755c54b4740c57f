import type { Play, RoundingCases, Sampled } from "./case-support";

export const plays: Play[] = [
  { amount: 100, params: { bets: { banker: 60, tie: 40 } } },
  { amount: 10, params: { bets: { player: 10 } } },
  { amount: 100, params: { bets: { banker: 100 } } },
];

export const oneCoin: Play = { amount: 1, params: { bets: { banker: 1 } } };

export const rounding: RoundingCases = {
  ratios: [["banker 1.95", 195, 100]],
  sampled: (["player", "banker", "tie"] as const).map((side): Sampled => ({
    bet: side,
    params: (s) => ({ bets: { [side]: s } }),
  })),
};
