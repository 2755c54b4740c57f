import { z } from "zod";
import { MAX_BET, MAX_PAYOUT } from "../limits";
import { GameRuleError, type ChipBet } from "./engine";

/**
 * What the multi-bet table games (roulette, sic bo, craps) share: every chip is a whole number of coins,
 * and the amount debited must be exactly what lies on the table.
 */
export const chipAmount = z
  .number()
  .int("a bet amount is a whole number of coins")
  .min(1, "a bet amount is at least 1 coin")
  .max(MAX_BET, `a bet amount is at most ${MAX_BET} coins`);

/** Enough for any real layout; bounds the work a single request can cause. */
export const MAX_BETS_PER_ROUND = 200;

export const sumOfAmounts = (bets: readonly { amount: number }[]): number => bets.reduce((sum, bet) => sum + bet.amount, 0);

export function requireAmountMatches(amount: number, bets: readonly { amount: number }[]): void {
  const total = sumOfAmounts(bets);
  if (total !== amount) {
    throw new GameRuleError("invalid_amount", `The amount staked (${amount}) must equal the sum of the bets on the table (${total})`);
  }
}

/** The coins several winning bets return together, capped like any single payout. */
export const totalPayout = (payouts: readonly number[]): number =>
  Math.min(
    payouts.reduce((sum, p) => sum + p, 0),
    MAX_PAYOUT,
  );

/** The sum of the chips that unchecked params state: NaN when one of them is not a number. */
export const chipSum = (values: readonly unknown[]): number =>
  values.reduce<number>((total, v) => total + (typeof v === "number" ? v : NaN), 0);

/** A chip worth `factor` times as much (a value that is not a number stays as it is). */
export const scaleChip = <T>(value: T, factor: number): T => (typeof value === "number" ? ((value * factor) as T) : value);

/** The chips of a layout whose every bet carries its amount (roulette, sic bo, craps). */
export const layoutChips = <P extends { bets: readonly { amount: number }[] }>(): ChipBet<P> => ({
  stake: (p) => (Array.isArray(p.bets) ? chipSum(p.bets.map((b) => (b as { amount?: unknown })?.amount)) : undefined),
  scale: (p, factor) => ({ ...p, bets: p.bets.map((b) => ({ ...b, amount: scaleChip(b.amount, factor) })) }),
});
