import { expect } from "vitest";
import type { Play, RoundingCases, Abandoned } from "./case-support";

const play = () => [{ type: "play" }];

export const plays: Play[] = [
  { amount: 100, params: { ante: 60, pairPlus: 40 }, act: play },
  { amount: 15, params: { ante: 10, pairPlus: 5 }, act: play },
  { amount: 100, params: { ante: 100, pairPlus: 0 }, act: play },
];

export const oneCoin: Play = { amount: 1, params: { ante: 1, pairPlus: 0 }, act: play };

export const rounding: RoundingCases = {
  sampled: [
    { bet: "ante + play", params: (s) => ({ ante: s, pairPlus: 0 }), next: () => ({ type: "play" }) },
    { bet: "pair plus", params: (s) => ({ ante: 0, pairPlus: s }) },
  ],
};

export const abandoned: Abandoned[] = [
  { params: { ante: 6, pairPlus: 4 }, voided: false, defaults: (a) => expect(a).toEqual([{ type: "fold" }]) },
];
