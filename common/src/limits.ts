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
