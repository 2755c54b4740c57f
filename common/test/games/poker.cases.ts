import { expect } from "vitest";
import type { Play, RoundingCases, Abandoned } from "./case-support";

export const plays: Play[] = [
  // folds only when the raise is refused
  { amount: 100, params: {}, act: () => [{ type: "raise" }, { type: "fold" }] },
  { amount: 10, params: {}, act: () => [{ type: "raise" }] },
];

export const oneCoin: Play = { amount: 1, params: {}, act: () => [{ type: "raise" }] };

export const rounding: RoundingCases = {
  sampled: [{ bet: "ante + raise", params: () => ({}), next: () => ({ type: "raise" }) }],
};

export const abandoned: Abandoned[] = [{ params: {}, voided: false, defaults: (a) => expect(a).toEqual([{ type: "fold" }]) }];
