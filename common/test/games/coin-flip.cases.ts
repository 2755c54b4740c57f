import { pick, uniform, type Enumerated, type Play, type RoundingCases } from "./case-support";

export const plays: Play[] = [
  { amount: 100, params: { side: "tails" } },
  { amount: 10, params: { side: "heads" } },
];

export const oneCoin: Play = { amount: 1, params: { side: "heads" } };

export const rounding: RoundingCases = {
  ratios: [["1.98", 198, 100]],
  enumerated: (["heads", "tails"] as const).map((side): Enumerated => ({
    bet: side,
    rtpBet: side,
    params: () => ({ side }),
    outcomes: () => uniform(2, (i) => [pick(i, 2)]),
  })),
};
