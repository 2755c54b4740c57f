import { expect } from "vitest";
import { handValue, type BlackjackState } from "../../src/games/blackjack/engine";
import type { Play, RoundingCases, Abandoned } from "./case-support";

/** Hits below `stop`, and takes insurance or not. */
const hitBelow = (stop: number, insure: boolean) => (v: any) =>
  v.phase === "insurance" ? [{ type: "insurance", take: insure }] : [{ type: v.hands[v.active].total < stop ? "hit" : "stand" }];

export const plays: Play[] = [
  {
    amount: 100,
    params: {},
    act: hitBelow(17, false),
    verifierSays: /^dealt from a fresh 6-deck shoe: player (10|[2-9JQKA])[♦♥♠♣], dealer up /,
  },
  { amount: 10, params: {}, act: hitBelow(15, true) },
  { amount: 100, params: {}, act: (v) => (v?.phase === "insurance" ? [{ type: "insurance", take: false }] : [{ type: "stand" }]) },
];

export const oneCoin: Play = { amount: 1, params: {}, act: hitBelow(15, true) };

export const rounding: RoundingCases = {
  ratios: [["3:2", 5, 2]],
  sampled: [
    {
      bet: "main bet and insurance",
      params: () => ({}),
      next: (s: BlackjackState) => {
        if (s.phase === "insurance") return { type: "insurance", take: s.bet % 4 === 2 };
        return { type: handValue(s.hands[s.active]!.cards).total < 17 ? "hit" : "stand" };
      },
    },
  ],
};

export const abandoned: Abandoned[] = [
  {
    params: {},
    voided: false,
    defaults: (a) => expect(a.every((x) => x.type === "stand" || (x.type === "insurance" && !x.take))).toBe(true),
  },
];
