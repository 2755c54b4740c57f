import { expect } from "vitest";
import { LAY_ODDS_RETURN, PASS_ODDS_RETURN, PLACE_RETURN, POINTS } from "../../src/games/craps/engine";
import type { Play, Ratio, RoundingCases, Sampled, Abandoned } from "./case-support";

const roll = () => [{ type: "roll" }];

export const plays: Play[] = [
  {
    amount: 100,
    params: {
      bets: [
        { type: "pass", amount: 60 },
        { type: "field", amount: 40 },
      ],
    },
    act: roll,
    verifierSays: /dice: [1-6] \+ [1-6] = \d+/,
  },
  { amount: 10, params: { bets: [{ type: "dontPass", amount: 10 }] }, act: roll },
  { amount: 100, params: { bets: [{ type: "pass", amount: 100 }] }, act: roll },
];

export const oneCoin: Play = { amount: 1, params: { bets: [{ type: "pass", amount: 1 }] }, act: roll };

/** Odds behind a line bet once it has a point (three times the flat bet), then rolls. */
const oddsThenRoll = (state: { point: number | null; bets: { type: string; odds: number; amount: number }[] }) => {
  const line = state.bets.find((b) => (b.type === "pass" || b.type === "dontPass") && b.odds === 0);
  if (line && state.point !== null)
    return { type: "bet", bets: [{ type: line.type === "pass" ? "passOdds" : "dontPassOdds", amount: 3 * line.amount }] };
  return { type: "roll" };
};

export const rounding: RoundingCases = {
  ratios: POINTS.flatMap((p): Ratio[] => [
    [`place ${p}`, ...PLACE_RETURN[p]],
    [`odds ${p}`, ...PASS_ODDS_RETURN[p]],
    [`lay ${p}`, ...LAY_ODDS_RETURN[p]],
  ]),
  sampled: [
    { type: "pass" },
    { type: "dontPass" },
    { type: "field" },
    { type: "anySeven" },
    { type: "anyCraps" },
    ...POINTS.map((number) => ({ type: "place", number })),
    ...[4, 6, 8, 10].map((number) => ({ type: "hard", number })),
  ].map((bet): Sampled => ({
    bet: `${bet.type}${"number" in bet ? ` ${bet.number}` : ""}`,
    params: (s) => ({ bets: [{ ...bet, amount: s }] }),
    next: oddsThenRoll,
  })),
};

export const abandoned: Abandoned[] = [
  {
    params: { bets: [{ type: "pass", amount: 10 }] },
    voided: false,
    defaults: (a) => expect(a.every((x) => x.type === "roll")).toBe(true),
  },
];

/** The total of a list of bets (craps.test.ts, craps.stats.test.ts). */
export const sumOf = (bets: { amount: number }[]) => bets.reduce((s, b) => s + b.amount, 0);
