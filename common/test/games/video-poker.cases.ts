import { expect } from "vitest";
import type { Play, RoundingCases, Abandoned } from "./case-support";

const holding = (hold: boolean[]) => () => [{ type: "draw", hold }];

export const plays: Play[] = [
  { amount: 100, params: {}, act: holding([true, false, true, false, false]), verifierSays: /replacements drawn: (\S+ ){4}\S+ / },
  { amount: 10, params: {}, act: holding([false, false, true, true, true]) },
  { amount: 100, params: {}, act: holding([true, true, false, false, false]) },
];

export const oneCoin: Play = { amount: 1, params: {}, act: holding([false, false, true, true, true]) };

export const rounding: RoundingCases = {
  sampled: [
    {
      bet: "hold the pairs",
      params: () => ({}),
      next: () => ({ type: "draw", hold: [true, true, false, false, false] }),
    },
  ],
};

export const abandoned: Abandoned[] = [
  { params: {}, voided: false, defaults: (a) => expect(a).toEqual([{ type: "draw", hold: [true, true, true, true, true] }]) },
];
