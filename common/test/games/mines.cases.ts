import { expect } from "vitest";
import { sha256Hex, type FairnessInput, type Rng } from "../../src/fairness/stream";
import type { Step } from "../../src/games/engine";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { minesMultiplier, TILES, type MinesAction, type MinesState } from "../../src/games/mines/engine";
import { seededFloats } from "../stats";
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

// Shared by the mines tests (mines.test.ts, mines.stats.test.ts): rounds played through the real stream.
const engine = requireEngine("mines");

export const mcInput = (nonce: number): FairnessInput => ({ serverSeed: sha256Hex("mines monte carlo"), clientSeed: "mc", nonce });

/** A seeded source for the player's choices, apart from the game's stream. */
export const seededRng = (seed: number): (() => number) => seededFloats(seed);

/**
 * (mines, most gems to reveal) pairs whose top multiplier stays below 5×: every plan returns 99 %, but a
 * long shot such as 5 gems among 20 mines (52,599×) would make a sample of this size far from normal.
 */
export const PLANS: readonly [number, number][] = [
  [1, 5],
  [2, 5],
  [3, 4],
  [5, 3],
  [10, 2],
  [20, 1],
];

/** Plays a round: a plan, 1 to its most gems, tiles chosen at random. */
export function playRound(rng: Rng, pick: () => number, amount: number) {
  const [m, most] = PLANS[Math.floor(pick() * PLANS.length)]!;
  const target = 1 + Math.floor(pick() * most);
  const actions: MinesAction[] = [];
  let step = startRound(engine, amount, { mines: m }, rng) as Step<MinesState>;
  while (!step.done) {
    const hidden = Array.from({ length: 25 }, (_, i) => i).filter((t) => !step.state.revealed.includes(t));
    const action: MinesAction =
      step.state.revealed.length >= target ? { type: "cashout" } : { type: "reveal", tile: hidden[Math.floor(pick() * hidden.length)]! };
    actions.push(action);
    step = actRound(engine, step.state, action, rng) as Step<MinesState>;
  }
  return { m, step, actions };
}
