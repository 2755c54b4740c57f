/**
 * Bet limits: what a stake may be and the most a round pays. Amounts are whole coins; every bet type
 * takes any stake from MIN_BET. How a payout that is not whole becomes whole coins is the round's
 * rounding rule (fairness/rounding.ts).
 */
export const MIN_BET = 1;
export const MAX_BET = 1_000_000;
/** The most any single round can pay back (stake included). */
export const MAX_PAYOUT = 100_000_000;

/**
 * The one stake rule: a whole number of coins from MIN_BET to MAX_BET. Every bet (solo tables, the crash
 * room, the blackjack table) is checked by it twice on the server: before its transaction (the message's
 * schema, `stakeAmount`, or `checkBet`) and inside it (`checkStake`, under the player's lock).
 */
export function isValidStake(amount: number): boolean {
  return Number.isSafeInteger(amount) && amount >= MIN_BET && amount <= MAX_BET;
}

/** What a player is told of a stake that breaks the rule, wherever it is checked. */
export const STAKE_RULE_MESSAGE = `Bet must be a whole number of coins from ${MIN_BET} to ${MAX_BET}`;

/** Whole coins, rounded down, capped at MAX_PAYOUT (for sums of payouts that are already whole). */
export function settlePayout(raw: number): number {
  if (!Number.isFinite(raw) || raw <= 0) return 0;
  return Math.min(Math.floor(raw), MAX_PAYOUT);
}

/**
 * amount × numerator / denominator in exact integer arithmetic, rounded down and capped: for whole
 * multiples (numerator a multiple of denominator), which no rule rounds. A ratio that can leave a
 * fraction goes through the round's payer (fairness/rounding.ts).
 */
export function payoutRatio(amount: number, numerator: number, denominator: number): number {
  const exact = (BigInt(amount) * BigInt(numerator)) / BigInt(denominator);
  return exact > BigInt(MAX_PAYOUT) ? MAX_PAYOUT : Number(exact);
}
