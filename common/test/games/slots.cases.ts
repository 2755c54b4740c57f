import { REELS } from "../../src/games/slots/engine";
import { product, type Play, type RoundingCases } from "./case-support";

export const plays: Play[] = [
  { amount: 100, params: {}, verifierSays: /stops: reel 1 floor\(0\.\d+ × 20\) = \d+; reel 2/ },
  { amount: 10, params: {} },
];

export const oneCoin: Play = { amount: 1, params: {} };

export const rounding: RoundingCases = {
  enumerated: [
    {
      bet: "classic 3-reel",
      rtpBet: "classic 3-reel",
      params: () => ({}),
      outcomes: () => product(REELS.map((r) => r.length)),
    },
  ],
};
