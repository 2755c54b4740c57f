import type { GameId } from "../catalogue";
import type { Rng } from "../fairness/stream";
import { BACCARAT_WIN_PROBABILITY } from "../rtp-table";
import { MAX_PAYOUT } from "../limits";
import { GameRuleError } from "./engine";
import { requireEngine, startRound } from "./runner";
import { LEGACY_ROUNDING } from "../fairness/rounding";
import { BACCARAT_SIDES, betPayout, type BaccaratParams } from "./baccarat";
import { ROLLS, winChance as diceWinChance, type DiceParams } from "./dice";
import { allOrderedRolls } from "./dice-faces";
import { DRAWN, TILES as KENO_TILES, payTable, type KenoParams } from "./keno";
import { TILES as MINE_TILES } from "./mines";
import { POCKETS, settleBet, type RouletteParams } from "./roulette";
import { DICE_COUNT, settleSicBoBet, type SicBoParams } from "./sic-bo";
import { REELS, linePays } from "./slots";
import { totalPayout } from "./table-bets";

/**
 * What the bet panel shows before a bet: the most it can pay and how likely it is to win, both from the
 * engines, and whether the server would accept it at all. The check runs the engine's own opening step
 * (on a constant stream, so nothing is predicted), so a bet the panel offers is one the engine accepts.
 */
export interface BetQuote {
  /** the most this bet can pay back, stake included */
  maxPayout: number;
  /**
   * What the best outcome pays per coin before rounding to whole coins (2 decimals at least): the
   * engine's payout of a large stake where the bet's parameters hold no amounts, else maxPayout / stake.
   */
  multiplier: number;
  /** probability that the round pays back more than the stake; null where it depends on the player's play */
  winChance: number | null;
}

export type QuoteResult = { ok: true; quote: BetQuote } | { ok: false; error: string };

/** A stream that always gives the same float: enough to run an engine's validation, predicts nothing. */
const constantRng = (): Rng => {
  let cursor = 0;
  return {
    next: () => ((cursor += 1), 0.5),
    get cursor() {
      return cursor;
    },
  };
};

export function quoteBet(game: GameId, amount: number, params: unknown): QuoteResult {
  try {
    const engine = requireEngine(game);
    // validation only: the constant stream predicts nothing, and rounding down needs no draw
    startRound(engine, amount, params, constantRng(), { rounding: LEGACY_ROUNDING });
    const parsed = engine.params.parse(params ?? {});
    const maxPayout = engine.maxPayout(amount, parsed);
    return {
      ok: true,
      quote: { maxPayout, multiplier: nominalMultiplier(game, amount, maxPayout, parsed), winChance: winChance(game, parsed) },
    };
  } catch (error) {
    if (error instanceof GameRuleError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Games whose bet parameters carry the stake themselves (chips on a layout). */
const STAKE_IN_PARAMS: readonly GameId[] = ["roulette", "sic-bo", "craps", "baccarat", "three-card-poker"];
const REFERENCE_STAKE = 1_000_000;

/** A chip table's bet with every chip worth `factor` times as much. */
function scaledChips(game: GameId, params: unknown, factor: number): unknown {
  const p = params as Record<string, unknown>;
  const times = (v: unknown) => (typeof v === "number" ? v * factor : v);
  switch (game) {
    case "baccarat":
      return { ...p, bets: Object.fromEntries(Object.entries(p.bets as object).map(([k, v]) => [k, times(v)])) };
    case "three-card-poker":
      return { ...p, ante: times(p.ante), pairPlus: times(p.pairPlus) };
    default:
      return { ...p, bets: (p.bets as { amount: number }[]).map((b) => ({ ...b, amount: times(b.amount) })) };
  }
}

/** Chips a hundred times larger: the payout rounded up then shows the multiplier to its hundredths. */
const CHIP_SCALE = 100;

function nominalMultiplier(game: GameId, amount: number, maxPayout: number, params: unknown): number {
  const effective = maxPayout / amount;
  if (STAKE_IN_PARAMS.includes(game)) {
    const scaled = amount * CHIP_SCALE;
    const reference = requireEngine(game).maxPayout(scaled, scaledChips(game, params, CHIP_SCALE));
    return reference < MAX_PAYOUT ? reference / scaled : effective;
  }
  // the largest stake (up to a million coins) whose payout stays under the cap
  const stake = Math.max(amount, Math.min(REFERENCE_STAKE, Math.floor(MAX_PAYOUT / (effective + 1))));
  const reference = requireEngine(game).maxPayout(stake, params);
  return reference < MAX_PAYOUT ? reference / stake : effective;
}

const ALL_SIC_BO_ROLLS = allOrderedRolls(DICE_COUNT);

let slotsWinShare: number | undefined;
/** Share of the 20³ reel stops whose line pays more than the stake (every paying line does: the least is 2 for 1). */
function slotsWinChance(): number {
  if (slotsWinShare === undefined) {
    let wins = 0;
    for (const a of REELS[0]!) for (const b of REELS[1]!) for (const c of REELS[2]!) if (linePays([a, b, c]) > 1) wins += 1;
    slotsWinShare = wins / (REELS[0]!.length * REELS[1]!.length * REELS[2]!.length);
  }
  return slotsWinShare;
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** P(h of the player's picks are among the 10 drawn tiles): hypergeometric. */
export function kenoHitProbability(picks: number, hits: number): number {
  return (choose(picks, hits) * choose(KENO_TILES - picks, DRAWN - hits)) / choose(KENO_TILES, DRAWN);
}

/**
 * The probability that the opening bet pays back more than it staked, for the games where that is one
 * number. Multi-step card games, hi-lo and craps depend on the player's decisions: null.
 */
export function winChance(game: GameId, params: unknown): number | null {
  switch (game) {
    case "dice":
      return diceWinChance(params as DiceParams) / ROLLS;
    case "limbo":
      return 0.99 / (params as { target: number }).target;
    case "crash":
      return 0.99 / (params as { cashOutAt: number }).cashOutAt;
    case "coin-flip":
      return 0.5;
    case "slots":
      return slotsWinChance();
    case "keno": {
      const p = params as KenoParams;
      const table = payTable(p.risk, p.picks.length);
      return table.reduce((sum, multiplier, hits) => (multiplier > 1 ? sum + kenoHitProbability(p.picks.length, hits) : sum), 0);
    }
    case "roulette": {
      const { bets } = params as RouletteParams;
      const stake = bets.reduce((s, b) => s + b.amount, 0);
      let wins = 0;
      for (let pocket = 0; pocket < POCKETS; pocket++) {
        if (totalPayout(bets.map((bet) => settleBet(bet, pocket).payout)) > stake) wins += 1;
      }
      return wins / POCKETS;
    }
    case "sic-bo": {
      const { bets } = params as SicBoParams;
      const stake = bets.reduce((s, b) => s + b.amount, 0);
      const wins = ALL_SIC_BO_ROLLS.filter((dice) => totalPayout(bets.map((bet) => settleSicBoBet(bet, dice).payout)) > stake).length;
      return wins / ALL_SIC_BO_ROLLS.length;
    }
    case "baccarat": {
      const { bets } = params as BaccaratParams;
      const stake = BACCARAT_SIDES.reduce((s, side) => s + (bets[side] ?? 0), 0);
      return BACCARAT_SIDES.reduce((chance, winner) => {
        const paid = BACCARAT_SIDES.reduce((s, side) => s + (bets[side] === undefined ? 0 : betPayout(side, bets[side]!, winner)), 0);
        return paid > stake ? chance + BACCARAT_WIN_PROBABILITY[winner] : chance;
      }, 0);
    }
    default:
      return null;
  }
}

/** Mines: the chance that the next tile revealed is a gem, with `gems` found so far. */
export const minesSafeChance = (mines: number, gems: number): number => (MINE_TILES - mines - gems) / (MINE_TILES - gems);
