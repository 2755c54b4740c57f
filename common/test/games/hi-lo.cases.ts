import { expect } from "vitest";
import type { HiLoState } from "../../src/games/hi-lo/engine";
import type { Play, RoundingCases, Abandoned } from "./case-support";

/** Guesses the likelier side (the lower multiplier) until one guess was right, then cashes out. */
const oneRight = (v: any) =>
  v.correct >= 1 ? [{ type: "cashout" }] : [{ type: v.higher > 0 && v.higher <= v.lower ? "higher" : "lower" }, { type: "higher" }];

export const plays: Play[] = [
  // the unlikelier side until two guesses were right (a refused guess, one that cannot lose, falls back to the other side)
  {
    amount: 100,
    params: {},
    act: (v) =>
      v.correct >= 2
        ? [{ type: "cashout" }]
        : v.higher >= v.lower && v.higher > 0
          ? [{ type: "lower" }, { type: "higher" }]
          : [{ type: "higher" }, { type: "lower" }],
  },
  { amount: 10, params: {}, act: oneRight },
  { amount: 100, params: {}, act: () => [{ type: "cashout" }, { type: "higher" }, { type: "lower" }] },
];

export const oneCoin: Play = { amount: 1, params: {}, act: oneRight };

const cashOutAfter = (stopAt: number) => (s: HiLoState) => {
  if (s.correct >= stopAt) return { type: "cashout" };
  const rank = Math.floor(s.cards[s.cards.length - 1]! / 4) + 2;
  // a guess that cannot lose is refused: on a 2 only "lower" (a 2 again), on an ace only "higher"
  if (rank === 2) return { type: "lower" };
  if (rank === 14) return { type: "higher" };
  return { type: rank <= 8 ? "higher" : "lower" };
};

export const rounding: RoundingCases = {
  ratios: [["13/12 then 13/7", 99n * 13n * 13n, 100n * 12n * 7n]],
  sampled: [1, 2, 3].map((k) => ({ bet: `cash out after ${k}`, params: () => ({}), next: cashOutAfter(k) })),
};

/** Hi-lo: guess the likelier side until one guess was right. */
const oneCorrectGuess = (view: any) =>
  view.correct > 0 ? null : { type: view.higher > 0 && (view.lower === 0 || view.higher <= view.lower) ? "higher" : "lower" };

export const abandoned: Abandoned[] = [
  { params: {}, voided: true, defaults: (a) => expect(a).toEqual([]) },
  { params: {}, prepare: oneCorrectGuess, voided: false, defaults: (a) => expect(a).toEqual([{ type: "cashout" }]) },
];
