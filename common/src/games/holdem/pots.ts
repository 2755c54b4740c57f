/**
 * The main pot and the side pots of a Hold'em hand, and who wins each. Every pot is whole coins; a pot
 * that splits unevenly gives its odd chips one at a time to its winners in seat order starting from the
 * first seat left of the button (docs/architecture/holdem.md, "Split pots").
 */

export interface Pot {
  amount: number;
  /** The seats still in the hand that put in enough to win this pot, in seat order. */
  eligible: number[];
  /** Filled in by awardPots: each winner's share (one entry per winner). */
  winners: { seat: number; amount: number }[];
}

export interface Contribution {
  seat: number;
  contributed: number;
  folded: boolean;
}

/**
 * Cuts the chips put in into pots: one level per distinct contribution of a seat still in the hand
 * (the main pot up to the smallest all-in, a side pot up to the next, and so on). A folded seat's chips
 * go into the pots its contribution reaches, and it is eligible for none of them.
 */
export function buildPots(contributions: readonly Contribution[]): Pot[] {
  const inHand = contributions.filter((c) => !c.folded);
  const top = Math.max(...contributions.map((c) => c.contributed));
  const levels = [...new Set(inHand.map((c) => c.contributed))].sort((a, b) => a - b);
  // Whatever lies above the highest seat still in (it cannot: a bet nobody called is given back first)
  // would still be counted, in the last pot.
  if (levels.length === 0 || levels[levels.length - 1]! < top) levels.push(top);
  const pots: Pot[] = [];
  let below = 0;
  for (const level of levels) {
    const amount = contributions.reduce((sum, c) => sum + Math.max(0, Math.min(c.contributed, level) - below), 0);
    const eligible = inHand
      .filter((c) => c.contributed >= level)
      .map((c) => c.seat)
      .sort((a, b) => a - b);
    if (amount > 0) {
      // A level no seat still in reaches adds its chips to the pot below it.
      if (eligible.length === 0 && pots.length > 0) pots[pots.length - 1]!.amount += amount;
      else pots.push({ amount, eligible, winners: [] });
    }
    below = level;
  }
  return pots;
}

/**
 * Gives each pot to its best eligible hands (higher `valueOf` wins; a pot with one eligible seat goes to
 * it unseen). `fromButton` lists every seat of the hand clockwise starting left of the button: the order
 * the odd chips go in.
 */
export function awardPots(pots: readonly Pot[], valueOf: (seat: number) => number, fromButton: readonly number[]): Pot[] {
  return pots.map((pot) => {
    const best = Math.max(...pot.eligible.map(valueOf));
    const winners = pot.eligible.filter((seat) => valueOf(seat) === best);
    const ordered = fromButton.filter((seat) => winners.includes(seat));
    const share = Math.floor(pot.amount / ordered.length);
    const odd = pot.amount - share * ordered.length;
    return { ...pot, winners: ordered.map((seat, i) => ({ seat, amount: share + (i < odd ? 1 : 0) })) };
  });
}
