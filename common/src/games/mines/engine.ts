import { z } from "zod";
import { drawWithoutReplacement, type Rng } from "../../fairness/stream";
import { payDown, payExact, payUp, type Payer } from "../../fairness/rounding";
import { MAX_PAYOUT } from "../../limits";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { pays } from "../describe";

/**
 * Mines: a 5×5 grid (tiles 0..24, row-major) hides m mines (1–24), drawn at bet time as the first m
 * picks of a pick-and-remove draw over the 25 tiles (game-rules B3). Each gem revealed raises the
 * multiplier to 0.99 × C(25, k) / C(25 − m, k) = 0.99 / P(k gems in a row), so cashing out after any k
 * gems returns exactly 99 % (before rounding down to a coin). A mine ends the round with nothing;
 * revealing the last gem cashes out automatically.
 */
export const TILES = 25;
export const MIN_MINES = 1;
export const MAX_MINES = 24;
const ALL_TILES: readonly number[] = Array.from({ length: TILES }, (_, i) => i);

export const minesParams = z
  .object({
    mines: z
      .number()
      .int("mines must be a whole number")
      .min(MIN_MINES, `at least ${MIN_MINES} mine`)
      .max(MAX_MINES, `at most ${MAX_MINES} mines`),
  })
  .strict();
export type MinesParams = z.infer<typeof minesParams>;

export const minesActions = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("reveal"),
      tile: z
        .number()
        .int("tile must be a whole number")
        .min(0, "tile must be from 0 to 24")
        .max(TILES - 1, "tile must be from 0 to 24"),
    })
    .strict(),
  z.object({ type: z.literal("cashout") }).strict(),
]);
export type MinesAction = z.infer<typeof minesActions>;

export interface MinesState {
  amount: number;
  mineCount: number;
  /** Secret while the round is open; in the order they were drawn. */
  mines: number[];
  /** Gems revealed, in order. */
  revealed: number[];
  /** The mine the player hit, if any. */
  hit: number | null;
  status: "open" | "lost" | "cashed";
}

export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

/** The multiplier after k gems with m mines as [numerator, denominator]: 0.99 × C(25, k) / C(25 − m, k). */
export function minesMultiplier(mines: number, gems: number): [number, number] {
  return [99 * binomial(TILES, gems), 100 * binomial(TILES - mines, gems)];
}

/** The cash-out payout, made whole by `pay` (rounded down unless given: what the panel shows). */
export function minesCashValue(amount: number, mines: number, gems: number, pay: Payer = payDown): number {
  const [num, den] = minesMultiplier(mines, gems);
  return pay(amount, num, den);
}

const multiplierNumber = (mines: number, gems: number): number => {
  const [num, den] = minesMultiplier(mines, gems);
  return num / den;
};

export const minesEngine: GameEngine<MinesParams, MinesState, MinesAction> = {
  id: "mines",
  params: minesParams,
  actions: minesActions,
  start(amount: number, params: MinesParams, rng: Rng): Step<MinesState> {
    const mines = drawWithoutReplacement(rng, ALL_TILES, params.mines);
    return {
      state: { amount, mineCount: params.mines, mines, revealed: [], hit: null, status: "open" },
      stake: amount,
      payout: 0,
      done: false,
    };
  },
  act(state: MinesState, action: MinesAction, _rng: Rng, pay: Payer = payDown): Step<MinesState> {
    if (state.status !== "open") throw new GameRuleError("round_over", "The round is already over");
    const gems = state.revealed.length;

    if (action.type === "cashout") {
      if (gems === 0) throw new GameRuleError("nothing_to_cash_out", "Reveal at least one gem before cashing out");
      return {
        state: { ...state, status: "cashed" },
        stake: 0,
        payout: minesCashValue(state.amount, state.mineCount, gems, pay),
        done: true,
      };
    }

    const { tile } = action;
    if (state.revealed.includes(tile)) {
      throw new GameRuleError("already_revealed", `Tile ${tile} is already revealed`);
    }
    if (state.mines.includes(tile)) {
      return { state: { ...state, hit: tile, status: "lost" }, stake: 0, payout: 0, done: true };
    }
    const next: MinesState = { ...state, revealed: [...state.revealed, tile] };
    // With every gem found, or the payout cap reached, another reveal could only lose: cash out.
    if (next.revealed.length === TILES - state.mineCount || minesCashValue(state.amount, state.mineCount, gems + 1) >= MAX_PAYOUT) {
      return {
        state: { ...next, status: "cashed" },
        stake: 0,
        payout: minesCashValue(state.amount, state.mineCount, gems + 1, pay),
        done: true,
      };
    }
    return { state: next, stake: 0, payout: 0, done: false };
  },
  /** Abandoned: cashed out after a gem; before any gem the round is void (stake refunded). */
  defaultAction: (state) => (state.revealed.length > 0 ? { type: "cashout" } : null),
  view(state: MinesState, done: boolean) {
    const gems = state.revealed.length;
    const shown = {
      mineCount: state.mineCount,
      revealed: state.revealed,
      status: state.status,
      multiplier: gems === 0 ? 0 : multiplierNumber(state.mineCount, gems),
      // a cash-out now pays cashValue or cashValueUp (cashValueExact rounded down and up, rule 2)
      cashValue: gems === 0 ? 0 : minesCashValue(state.amount, state.mineCount, gems),
      cashValueUp: gems === 0 ? 0 : minesCashValue(state.amount, state.mineCount, gems, payUp),
      cashValueExact: gems === 0 ? 0 : minesCashValue(state.amount, state.mineCount, gems, payExact),
      nextMultiplier: gems === TILES - state.mineCount ? 0 : multiplierNumber(state.mineCount, gems + 1),
    };
    return done ? { ...shown, mines: state.mines, hit: state.hit } : shown;
  },
  maxPayout: (amount, params, pay = payUp) => minesCashValue(amount, params.mines, TILES - params.mines, pay),
  describe: describeMines,
};

function describeMines({ previous, state: s, step, action }: StepContext<MinesState>): string[] {
  if (!previous) return [`mines on tiles ${s.mines.join(", ")} (drawn in that order; tiles 0–24, row by row)`];
  const a = action as { type: string; tile?: number };
  if (a.type === "cashout") return [`cash out after ${s.revealed.length} gem${s.revealed.length === 1 ? "" : "s"}: ${pays(step.payout)}`];
  if (s.status === "lost") return [`tile ${a.tile}: mine, round lost`];
  const lines = [`tile ${a.tile}: gem (${s.revealed.length} found)`];
  if (step.done) lines.push(`cashed out automatically: ${pays(step.payout)}`);
  return lines;
}

/** Mines: the chance that the next tile revealed is a gem, with `gems` found so far. */
export const minesSafeChance = (mines: number, gems: number): number => (TILES - mines - gems) / (TILES - gems);

export default minesEngine;
