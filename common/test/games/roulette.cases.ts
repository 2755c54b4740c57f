import { BET_NAMES, EVEN_MONEY_TYPES, GROUP_TYPES, INSIDE_TYPES, LAYOUT_SETS, type RouletteBet } from "../../src/games/roulette/engine";
import { pick, uniform, type Enumerated, type Play, type RoundingCases } from "./case-support";

export const plays: Play[] = [
  {
    amount: 30,
    params: {
      bets: [
        { type: "odd", amount: 10 },
        { type: "corner", numbers: [1, 2, 4, 5], amount: 20 },
      ],
    },
  },
  {
    amount: 10,
    params: {
      bets: [
        { type: "even", amount: 5 },
        { type: "split", numbers: [8, 11], amount: 5 },
      ],
    },
  },
  {
    amount: 100,
    params: {
      bets: [
        { type: "red", amount: 50 },
        { type: "straight", numbers: [17], amount: 50 },
      ],
    },
  },
];

export const oneCoin: Play = { amount: 1, params: { bets: [{ type: "even", amount: 1 }] } };

const betTypes = (): [string, RouletteBet][] => [
  ...INSIDE_TYPES.map((type): [string, RouletteBet] => [type, { type, numbers: [...LAYOUT_SETS[type][0]!], amount: 1 } as RouletteBet]),
  ...EVEN_MONEY_TYPES.map((type): [string, RouletteBet] => [type, { type, amount: 1 } as RouletteBet]),
  ...GROUP_TYPES.map((type): [string, RouletteBet] => [type, { type, value: 2, amount: 1 } as RouletteBet]),
];

export const rounding: RoundingCases = {
  enumerated: betTypes().map(([label, bet]): Enumerated => ({
    bet: label,
    // the RTP table names a bet in words ("Six line")
    rtpBet: BET_NAMES[label as keyof typeof BET_NAMES],
    params: (stake) => ({ bets: [{ ...bet, amount: stake }] }),
    outcomes: () => uniform(37, (i) => [pick(i, 37)]),
  })),
};
