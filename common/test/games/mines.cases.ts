import { expect } from "vitest";
import { minesMultiplier, TILES } from "../../src/games/mines/engine";
import type { Play, Ratio, RoundingCases, Abandoned } from "./case-support";

/** Reveals `tiles` in order, then cashes out. */
const revealThenCashOut = (tiles: number[]) => (v: any) =>
  v.revealed.length >= tiles.length ? [{ type: "cashout" }] : [{ type: "reveal", tile: tiles[v.revealed.length] }];

export const plays: Play[] = [
  { amount: 100, params: { mines: 2 }, act: revealThenCashOut([24, 12, 7]), verifierSays: /^mines on tiles \d+, \d+ / },
  { amount: 10, params: { mines: 5 }, act: revealThenCashOut([3, 17]) },
  // cashes out once a gem is found
  { amount: 100, params: { mines: 3 }, act: () => [{ type: "cashout" }, { type: "reveal", tile: 12 }, { type: "reveal", tile: 3 }] },
];

export const oneCoin: Play = { amount: 1, params: { mines: 5 }, act: revealThenCashOut([3, 17]) };

const revealInOrder = (gems: number) => (s: { revealed: number[] }) =>
  s.revealed.length >= gems ? { type: "cashout" } : { type: "reveal", tile: s.revealed.length };

export const rounding: RoundingCases = {
  ratios: [1, 3, 5, 24].flatMap((m) =>
    [...new Set([1, 2, TILES - m])].filter((g) => g <= TILES - m).map((g): Ratio => [`${m} after ${g}`, ...minesMultiplier(m, g)]),
  ),
  sampled: [1, 3, 10, 24].flatMap((mines) =>
    [1, 2]
      .filter((g) => g <= TILES - mines)
      .map((gems) => ({ bet: `${mines} mines, ${gems} gems`, params: () => ({ mines }), next: revealInOrder(gems) })),
  ),
};

const oneGem = (view: any) => (view.revealed.length > 0 ? null : { type: "reveal", tile: 12 });

export const abandoned: Abandoned[] = [
  { params: { mines: 2 }, voided: true, defaults: (a) => expect(a).toEqual([]) },
  { params: { mines: 1 }, prepare: oneGem, voided: false, defaults: (a) => expect(a).toEqual([{ type: "cashout" }]) },
];
