/**
 * Bet limits and payout rounding: the one place that decides what a stake may be and what a win pays.
 * Amounts are whole coins. A payout is rounded down to a whole coin and never exceeds MAX_PAYOUT, so no
 * rounding can create a coin and no single bet can pay more than its table allows.
 */
export const MIN_BET = 1;
export const MAX_BET = 1_000_000;
/** The most any single round can pay back (stake included). */
export const MAX_PAYOUT = 100_000_000;

export function isValidStake(amount: number): boolean {
  return Number.isSafeInteger(amount) && amount >= MIN_BET && amount <= MAX_BET;
}

/** Whole coins, rounded down, capped at MAX_PAYOUT. */
export function settlePayout(raw: number): number {
  if (!Number.isFinite(raw) || raw <= 0) return 0;
  return Math.min(Math.floor(raw), MAX_PAYOUT);
}

/** amount × numerator / denominator in exact integer arithmetic, rounded down and capped. */
export function payoutRatio(amount: number, numerator: number, denominator: number): number {
  const exact = (BigInt(amount) * BigInt(numerator)) / BigInt(denominator);
  return exact > BigInt(MAX_PAYOUT) ? MAX_PAYOUT : Number(exact);
}

// ---------------------------------------------------------------------------------------------------
// Minimum bets. Rounding a payout down to a whole coin costs a small stake a large share of its return
// (a 1-coin coin flip win pays 1, not 1.98: 50 % RTP). Every bet type therefore has a minimum stake:
// the smallest amount from which on EVERY larger stake, too, rounding costs at most
// MAX_ROUNDING_COST of the stake in expectation (at most 1 percentage point of RTP). The figures are
// computed exactly from each engine's pay table and probabilities (`games/min-bet.ts`).

/** The most that rounding payouts down may cost a bet at or above its minimum: 1 percentage point of RTP. */
export const MAX_ROUNDING_COST_PERCENT = 1;

/** An exact probability as numerator / denominator. */
export type Chance = readonly [bigint, bigint];

/** One way a bet pays: with `chance`, it returns stake × numerator / denominator, rounded down. */
export interface PayLine {
  chance: Chance;
  numerator: bigint;
  denominator: bigint;
}

/**
 * The coins a stake loses to rounding in expectation, exactly: Σ chance × ((stake × numerator) mod
 * denominator) / denominator, as [numerator, denominator].
 */
export function roundingLoss(stake: number, lines: readonly PayLine[]): Chance {
  let num = 0n;
  let den = 1n;
  const a = BigInt(stake);
  for (const line of lines) {
    const lost = (a * line.numerator) % line.denominator;
    if (lost === 0n) continue;
    const n = line.chance[0] * lost;
    const d = line.chance[1] * line.denominator;
    [num, den] = [num * d + n * den, den * d];
  }
  return [num, den];
}

/** Whether rounding costs this stake at most MAX_ROUNDING_COST_PERCENT of it: loss ≤ stake / 100. */
export function roundingWithinLimit(stake: number, lines: readonly PayLine[]): boolean {
  const [num, den] = roundingLoss(stake, lines);
  return num * 100n <= BigInt(stake) * BigInt(MAX_ROUNDING_COST_PERCENT) * den;
}

/**
 * The minimum stake of a bet whose payouts are `lines`: the smallest amount such that it and every
 * larger stake lose at most 1 % of the stake to rounding. Exact: a stake loses less than
 * B = Σ chance × (denominator − 1) / denominator coins, so every stake from 100 × B on is within the limit,
 * and the stakes below that are checked one by one.
 */
export function minimumStake(lines: readonly PayLine[]): number {
  let num = 0n;
  let den = 1n;
  for (const line of lines) {
    if (line.denominator === 1n) continue;
    const n = line.chance[0] * (line.denominator - 1n);
    const d = line.chance[1] * line.denominator;
    [num, den] = [num * d + n * den, den * d];
  }
  // every stake ≥ ceil(100 × B / MAX_ROUNDING_COST_PERCENT) is within the limit
  const limitFactor = 100n / BigInt(MAX_ROUNDING_COST_PERCENT);
  const safe = Number((num * limitFactor + den - 1n) / den);
  for (let stake = safe - 1; stake >= 1; stake--) {
    if (!roundingWithinLimit(stake, lines)) return stake + 1;
  }
  return MIN_BET;
}

/**
 * The minimum stake when only an upper bound on the chance of a rounded payout is known (a round whose
 * player may go on for ever, like Hi-Lo): each round loses less than one coin to rounding, and only when
 * it pays, so a stake of at least 100 × that chance is within the limit whatever the player does.
 */
export function minimumStakeForBound(chanceOfRoundedPayout: Chance): number {
  const [n, d] = chanceOfRoundedPayout;
  const limitFactor = 100n / BigInt(MAX_ROUNDING_COST_PERCENT);
  return Math.max(MIN_BET, Number((n * limitFactor + d - 1n) / d));
}
