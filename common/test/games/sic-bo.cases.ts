import { product, type Enumerated, type Play, type RoundingCases } from "./case-support";

export const plays: Play[] = [
  {
    amount: 20,
    params: {
      bets: [
        { type: "big", amount: 10 },
        { type: "combination", numbers: [2, 6], amount: 10 },
      ],
    },
  },
  {
    amount: 10,
    params: {
      bets: [
        { type: "small", amount: 6 },
        { type: "single", value: 4, amount: 4 },
      ],
    },
  },
  { amount: 100, params: { bets: [{ type: "small", amount: 100 }] } },
];

export const oneCoin: Play = { amount: 1, params: { bets: [{ type: "small", amount: 1 }] } };

export const rounding: RoundingCases = {
  enumerated: (
    [
      ["small", { type: "small" }],
      ["big", { type: "big" }],
      ["total 4 or 17", { type: "total", value: 4 }],
      ["total 10 or 11", { type: "total", value: 10 }],
      ["specific triple", { type: "triple", value: 3 }],
      ["any triple", { type: "anyTriple" }],
      ["specific double", { type: "double", value: 5 }],
      ["two-dice combination", { type: "combination", numbers: [2, 6] }],
      ["single number", { type: "single", value: 4 }],
    ] as const
  ).map(([label, bet]): Enumerated => ({
    bet: label,
    rtpBet: label,
    params: (stake) => ({ bets: [{ ...bet, amount: stake }] }),
    outcomes: () => product([6, 6, 6]),
  })),
};
