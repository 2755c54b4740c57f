/**
 * The arithmetic of the bet panel every game table shares: what amount may be sent, the ½ / 2x / Max
 * buttons, and auto-bet's next amount and stop rules. Pure, so the client and its tests agree on it.
 *
 * Amounts are whole coins. A table may stake the panel's amount several times at once (chips on a
 * layout: `units` chips of `amount` each); every rule here applies to the total it would send.
 */
import { coinsText } from "./format";

export interface StakeLimits {
  /**
   * the game's minimum stake of one bet: of the amount, so of each chip on a chip table (the server
   * checks every chip against its bet type's minimum, not the layout's total)
   */
  min: number;
  /** the game's maximum stake (total) */
  max: number;
  /** the balance the server last pushed */
  balance: number;
  /** how many times the amount is staked (chips on a layout); 1 for a plain bet */
  units?: number;
}

const unitsOf = (limits: StakeLimits): number => Math.max(1, limits.units ?? 1);

/** Reads the amount field: a number, or NaN when the text is not one. */
export function parseStake(text: string): number {
  const trimmed = text.trim().replace(/,/g, "");
  if (trimmed === "" || !/^\d+(\.\d*)?$/.test(trimmed)) return Number.NaN;
  return Number(trimmed);
}

/** Why this amount cannot be sent, as the player reads it under the field; null when it can. */
export function stakeProblem(amount: number, limits: StakeLimits): string | null {
  if (!Number.isFinite(amount)) return "Enter a bet amount in coins";
  if (!Number.isInteger(amount)) return "Bets are whole coins";
  const units = unitsOf(limits);
  const total = amount * units;
  if (amount < 1 || amount < limits.min) return `The minimum bet is ${coinsText(limits.min)}`;
  if (total > limits.max) {
    return units === 1
      ? `The maximum bet is ${coinsText(limits.max)}`
      : `The total bet (${coinsText(total)}) may not exceed ${coinsText(limits.max)}`;
  }
  if (total > limits.balance) return "Insufficient balance";
  return null;
}

/** The largest amount whose total fits the table limit and the balance (never below the smallest legal amount). */
export function maxStake(limits: StakeLimits): number {
  const units = unitsOf(limits);
  const top = Math.floor(Math.min(limits.max, limits.balance) / units);
  return Math.max(minStake(limits), top);
}

/** The smallest amount the minimum allows (per chip on a chip table). */
export const minStake = (limits: StakeLimits): number => Math.max(1, limits.min);

const clampStake = (amount: number, limits: StakeLimits): number =>
  Math.min(maxStake(limits), Math.max(minStake(limits), Math.floor(amount)));

/** ½: half, rounded down, never below the minimum. An unreadable amount becomes the minimum. */
export const halveStake = (amount: number, limits: StakeLimits): number =>
  Number.isFinite(amount) ? clampStake(amount / 2, limits) : minStake(limits);

/** 2x: double, never above the table limit or the balance. */
export const doubleStake = (amount: number, limits: StakeLimits): number =>
  Number.isFinite(amount) ? clampStake(amount * 2, limits) : minStake(limits);

// ---------------------------------------------------------------------------------------------------
// Auto-bet

/** What happens to the amount after a win or a loss: back to the starting amount, or changed by a percentage. */
export type AmountChange = { reset: true } | { reset: false; percent: number };

export interface AutoBetConfig {
  /** bets to place; 0 runs until a stop rule or the player stops it */
  count: number;
  /** stop once the session's net profit reaches this many coins; 0 = off */
  stopOnProfit: number;
  /** stop once the session's net loss reaches this many coins; 0 = off */
  stopOnLoss: number;
  onWin: AmountChange;
  onLoss: AmountChange;
}

/** Why a configuration cannot start, or null. */
export function autoBetConfigProblem(config: AutoBetConfig): string | null {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!whole(config.count)) return "Number of bets must be a whole number (0 = until stopped)";
  if (!whole(config.stopOnProfit)) return "Stop on profit must be a whole number of coins (0 = off)";
  if (!whole(config.stopOnLoss)) return "Stop on loss must be a whole number of coins (0 = off)";
  for (const [label, change] of [
    ["On win", config.onWin],
    ["On loss", config.onLoss],
  ] as const) {
    if (!change.reset && (!Number.isFinite(change.percent) || change.percent <= -100 || change.percent > 10_000)) {
      return `${label}: the change must be above -100 % and at most 10,000 %`;
    }
  }
  return null;
}

export interface AutoBetProgress {
  /** the amount the session started with (what "reset" returns to) */
  base: number;
  /** the amount of the next bet */
  amount: number;
  /** bets placed so far */
  played: number;
  /** net coins won (negative: lost) over the session */
  profit: number;
}

export const startAutoBet = (amount: number): AutoBetProgress => ({ base: amount, amount, played: 0, profit: 0 });

/** The amount after a change: the percentage applied and rounded to a whole coin. */
export function changeAmount(current: number, base: number, change: AmountChange): number {
  if (change.reset) return base;
  return Math.round(current * (1 + change.percent / 100));
}

export interface AutoBetStep {
  progress: AutoBetProgress;
  /** why the session ends here; null to keep going */
  stop: string | null;
}

/**
 * Records one settled bet of the session and decides the next: its amount after the win/loss rule,
 * and whether a stop rule fires. A push (payout = stake) keeps the amount.
 */
export function afterAutoBet(
  progress: AutoBetProgress,
  config: AutoBetConfig,
  settled: { stake: number; payout: number },
  limits: StakeLimits,
): AutoBetStep {
  const net = settled.payout - settled.stake;
  const played = progress.played + 1;
  const profit = progress.profit + net;
  let amount = progress.amount;
  if (net > 0) amount = changeAmount(progress.amount, progress.base, config.onWin);
  else if (net < 0) amount = changeAmount(progress.amount, progress.base, config.onLoss);
  amount = Math.max(minStake(limits), amount);
  const next: AutoBetProgress = { ...progress, amount, played, profit };
  if (config.stopOnProfit > 0 && profit >= config.stopOnProfit) return { progress: next, stop: "Profit target reached" };
  if (config.stopOnLoss > 0 && -profit >= config.stopOnLoss) return { progress: next, stop: "Loss limit reached" };
  if (config.count > 0 && played >= config.count) return { progress: next, stop: `${played} bet${played === 1 ? "" : "s"} placed` };
  const problem = stakeProblem(amount, limits);
  if (problem) return { progress: next, stop: problem };
  return { progress: next, stop: null };
}
