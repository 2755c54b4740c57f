import type { LegalActions } from "@casino/common/games/holdem/hand-machine";

/**
 * The bet sizes the Hold'em table offers on the player's turn, from the private view's legal actions and
 * the public hand: every amount is the total the player's bet reaches on the street ("raise to"), as the
 * room's `bet` and `raise` actions take it. Nothing here decides what is legal: the server's `legal`
 * range bounds every size.
 */

/** The bet or raise the player may make now, and its range; null when neither is open (call or fold only). */
export interface Sizing {
  type: "bet" | "raise";
  min: number;
  max: number;
}

export const sizingOf = (legal: LegalActions | null): Sizing | null =>
  legal?.bet ? { type: "bet", ...legal.bet } : legal?.raise ? { type: "raise", ...legal.raise } : null;

/** One of the size buttons: its label and the total it bets to. */
export interface Preset {
  id: "min" | "half" | "pot" | "all-in";
  label: string;
  amount: number;
}

/** `amount` kept in the range, in whole coins. */
export const clampSize = (sizing: Sizing, amount: number): number => Math.min(sizing.max, Math.max(sizing.min, Math.floor(amount)));

/**
 * A pot-fraction size: the player calls first (the pot then holds the call too), then bets that
 * fraction of the pot on top. `pot` is everything put in so far, this street's bets included;
 * `currentBet` the street's bet to match and `committed` what the player has put in on the street.
 */
export function potSize(fraction: number, hand: { pot: number; currentBet: number }, committed: number): number {
  const toCall = Math.max(0, hand.currentBet - committed);
  return hand.currentBet + fraction * (hand.pot + toCall);
}

/** Min, half pot, pot and all-in, each within the legal range (a short stack's may come to the same amount). */
export function presets(sizing: Sizing, hand: { pot: number; currentBet: number }, committed: number): Preset[] {
  return [
    { id: "min", label: "Min", amount: sizing.min },
    { id: "half", label: "½ pot", amount: clampSize(sizing, potSize(0.5, hand, committed)) },
    { id: "pot", label: "Pot", amount: clampSize(sizing, potSize(1, hand, committed)) },
    { id: "all-in", label: "All-in", amount: sizing.max },
  ];
}

/** The action a size sends: all-in for every chip, else a bet or a raise to the amount. */
export const sizedAction = (sizing: Sizing, amount: number) =>
  amount === sizing.max ? ({ type: "allIn" } as const) : ({ type: sizing.type, amount } as const);

/** A typed size: whole coins within the range, else why not. */
export function typedSize(sizing: Sizing, text: string): { amount: number } | { error: string } {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isInteger(value)) return { error: "Type a whole number of coins" };
  if (value < sizing.min || value > sizing.max) return { error: `From ${sizing.min} to ${sizing.max}` };
  return { amount: value };
}
