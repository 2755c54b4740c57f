import { z } from "zod";
import { drawWithoutReplacement, type Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import type { GameEngine, Step, StepContext } from "../engine";
import { pays } from "../describe";

/**
 * Keno: 40 tiles, 10 drawn by the removal draw of game-rules B3 (10 floats, never the same tile twice).
 * The player picks 1–10 tiles and a risk level; the multiplier depends on how many picks were drawn.
 * Every table below was designed here (the published tables carry copy errors) so that its exact
 * hypergeometric return lies between 98.9 % and 99.1 % for every pick count and risk level.
 */
export const TILES = 40;
export const DRAWN = 10;
export const MAX_PICKS = 10;
export const RISKS = ["classic", "low", "medium", "high"] as const;
export type KenoRisk = (typeof RISKS)[number];

/**
 * Multipliers (total returned per coin) by risk, then by number of picks (index 0 = 1 pick), then by
 * number of hits (index 0 = no hit). Low risk pays small amounts often; high risk pays mostly nothing
 * and a large top prize; classic sits between with tops up to 100×.
 */
export const PAY_TABLES: Readonly<Record<KenoRisk, readonly (readonly number[])[]>> = {
  classic: [
    [0, 3.96],
    [0, 1.96, 4.1],
    [0, 1.04, 3, 10.1],
    [0, 0.79, 1.85, 5, 20],
    [0, 0.3, 1.4, 4, 15, 40],
    [0, 0, 1.1, 3.25, 8, 16, 40],
    [0, 0, 0.43, 2.95, 5, 14, 30, 60],
    [0, 0, 0, 2.2, 3.95, 13, 25, 50, 80],
    [0, 0, 0, 1.55, 3, 8, 15.5, 40, 60, 90],
    [0, 0, 0, 1.4, 2.2, 4.65, 8, 18, 50, 80, 100],
  ],
  low: [
    [0.7, 1.86],
    [0, 2, 3.83],
    [0, 1.05, 1.55, 26],
    [0, 0, 2.2, 7.92, 90],
    [0, 0, 1.5, 4.15, 13.5, 300],
    [0, 0, 1.1, 2, 6.2, 100, 700],
    [0, 0, 1.1, 1.6, 3.55, 15, 220, 700],
    [0, 0, 1.1, 1.5, 2, 5.5, 39, 100, 800],
    [0, 0, 1.1, 1.3, 1.7, 2.5, 7.4, 50, 250, 1000],
    [0, 0, 1.1, 1.2, 1.3, 1.85, 3.5, 13, 50, 250, 1000],
  ],
  medium: [
    [0.4, 2.76],
    [0, 1.8, 5.15],
    [0, 0, 2.8, 50],
    [0, 0, 1.55, 10, 115],
    [0, 0, 1.4, 3.95, 14.5, 390],
    [0, 0, 0, 3, 9.05, 180, 715],
    [0, 0, 0, 2, 7, 30, 400, 800],
    [0, 0, 0, 2, 4, 11, 67.5, 400, 900],
    [0, 0, 0, 2, 2.5, 5, 15.5, 95, 500, 1000],
    [0, 0, 0, 1.6, 2, 4, 7, 26, 100, 500, 1000],
  ],
  high: [
    [0, 3.96],
    [0, 0, 17.16],
    [0, 0, 0, 81.5],
    [0, 0, 0, 9.95, 260],
    [0, 0, 0, 4.45, 48.5, 450],
    [0, 0, 0, 0, 11, 350, 710],
    [0, 0, 0, 0, 7, 90, 400, 800],
    [0, 0, 0, 0, 5, 20, 270, 600, 900],
    [0, 0, 0, 0, 4, 11, 56, 500, 800, 1000],
    [0, 0, 0, 0, 3.5, 8, 13, 63, 500, 800, 1000],
  ],
};

export const payTable = (risk: KenoRisk, picks: number): readonly number[] => PAY_TABLES[risk][picks - 1]!;

/** A multiplier in hundredths, so payouts are computed in integers. */
export const hundredths = (multiplier: number): number => Math.round(multiplier * 100);

const tile = z.number().int("tiles are whole numbers").min(1, "tiles run from 1 to 40").max(TILES, "tiles run from 1 to 40");

export const kenoParams = z
  .object({
    picks: z
      .array(tile)
      .min(1, "pick at least 1 tile")
      .max(MAX_PICKS, `pick at most ${MAX_PICKS} tiles`)
      .refine((picks) => new Set(picks).size === picks.length, "each tile may be picked only once"),
    risk: z.enum(RISKS),
  })
  .strict();
export type KenoParams = z.infer<typeof kenoParams>;

export interface KenoState {
  picks: number[];
  risk: KenoRisk;
  drawn: number[];
  hits: number[];
  multiplier: number;
}

const binomial = (n: number, k: number): bigint => {
  if (k < 0 || k > n) return 0n;
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
};

/** Ways to catch k of `picks` when 10 of 40 are drawn: C(picks, k) · C(40 − picks, 10 − k) (hypergeometric). */
export const catchWays = (picks: number, k: number): bigint => binomial(picks, k) * binomial(TILES - picks, DRAWN - k);
/** Every draw of 10 tiles from 40: C(40, 10). */
export const ALL_DRAWS = binomial(TILES, DRAWN);

export const ALL_TILES: readonly number[] = Array.from({ length: TILES }, (_, i) => i + 1);

export const kenoEngine: GameEngine<KenoParams, KenoState> = {
  id: "keno",
  params: kenoParams,
  start(amount: number, params: KenoParams, rng: Rng, pay: Payer = payDown): Step<KenoState> {
    const drawn = drawWithoutReplacement(rng, ALL_TILES, DRAWN);
    const hits = params.picks.filter((p) => drawn.includes(p));
    const multiplier = payTable(params.risk, params.picks.length)[hits.length]!;
    return {
      state: { picks: [...params.picks], risk: params.risk, drawn, hits, multiplier },
      stake: amount,
      payout: pay(amount, hundredths(multiplier), 100),
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (amount, params, pay = payUp) => pay(amount, hundredths(Math.max(...payTable(params.risk, params.picks.length))), 100),
  winChance: (p) => {
    const table = payTable(p.risk, p.picks.length);
    return table.reduce((sum, multiplier, hits) => (multiplier > 1 ? sum + kenoHitProbability(p.picks.length, hits) : sum), 0);
  },
  describe: describeKeno,
};

function describeKeno({ state: s, step }: StepContext<KenoState>): string[] {
  return [
    `drawn (in order): ${s.drawn.join(", ")}`,
    `picks: ${s.picks.join(", ")}; hits: ${s.hits.length ? s.hits.join(", ") : "none"}`,
    `${s.risk} table, ${s.picks.length} picks, ${s.hits.length} hits: ${s.multiplier}×, ${pays(step.payout)}`,
  ];
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** P(h of the player's picks are among the 10 drawn tiles): hypergeometric. */
export function kenoHitProbability(picks: number, hits: number): number {
  return (choose(picks, hits) * choose(TILES - picks, DRAWN - hits)) / choose(TILES, DRAWN);
}

export default kenoEngine;
