import { expect } from "vitest";
import { sha256Hex, type FairnessInput, type Rng } from "../../src/fairness/stream";
import { rankOf } from "../../src/games/cards";
import type { Step } from "../../src/games/engine";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import { MAX_SKIPS, type HiLoAction, type HiLoState } from "../../src/games/hi-lo/engine";
import { likelier, riskier } from "../../src/games/hi-lo/rtp";
import { seededFloats } from "../stats";
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

// Shared by the hi-lo tests (hi-lo.test.ts, hi-lo.stats.test.ts): rounds played through the real stream.
const engine = requireEngine("hi-lo");
export const K = 13;

export const mcInput = (nonce: number): FairnessInput => ({ serverSeed: sha256Hex("hi-lo monte carlo"), clientSeed: "mc", nonce });

/** A float source for the player's own choices, kept apart from the game's stream. */
export const choices = (seed: number) => seededFloats(seed);

/**
 * Plays one round by a randomised strategy: 1–4 correct guesses, a quarter of them on the riskier side,
 * skipping 2, 3, K and A (and 5 % of other cards). Every strategy returns 99 %, but the one-rank guesses
 * on 2s and aces (12.87× each) make the return so skewed that a sample mean of this size is not normal;
 * skipping them keeps the band honest.
 */
export function playRound(rng: Rng, pick: () => number, amount: number) {
  const actions: HiLoAction[] = [];
  let step = startRound(engine, amount, {}, rng) as Step<HiLoState>;
  const target = 1 + Math.floor(pick() * 4);
  while (!step.done) {
    const state = step.state;
    const rank = rankOf(state.cards[state.cards.length - 1]!);
    const extreme = rank <= 3 || rank >= K;
    let action: HiLoAction;
    if (state.correct >= target) action = { type: "cashout" };
    else if (state.skips < MAX_SKIPS && (extreme || pick() < 0.05)) action = { type: "skip" };
    else action = { type: pick() < 0.75 ? likelier(rank) : riskier(rank) };
    actions.push(action);
    step = actRound(engine, state, action, rng) as Step<HiLoState>;
  }
  return { step, actions };
}
