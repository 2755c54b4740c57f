import type { RoundingRule } from "@casino/common";
import type { SeatSeed } from "@casino/common/games/shoe";
import { act, deal, dealerTurn, defaultAction, newShoe, nextRound, type TableState } from "@casino/common/games/blackjack-table";

/** A round of a shoe as stored: its phase, its bets (seat and amount) and its actions in order. */
export interface StoredRound {
  id: string;
  round: number;
  phase: "betting" | "playing" | "settled" | "void";
  actions: { seat: number; action: unknown }[];
  bets: { seat: number; amount: number }[];
}

/**
 * The table's state after the record of a shoe: every dealt round replayed with the table's own engine
 * (its bets, then its actions in order; a settled round through the dealer's turn). The last dealt round
 * is left where its record stops. Rounds never dealt (betting, void) are skipped. Null before the shoe's
 * first deal.
 */
export function replayShoe(
  shoe: { serverSeed: string; seats: SeatSeed[] | null; rounding: RoundingRule },
  rounds: readonly StoredRound[],
): TableState | null {
  const dealt = rounds.filter((r) => (r.phase === "playing" || r.phase === "settled") && r.bets.length > 0);
  if (dealt.length === 0 || !shoe.seats) return null;
  let state = newShoe(shoe.serverSeed, shoe.seats, shoe.rounding);
  dealt.forEach((round, i) => {
    if (i > 0) state = nextRound(state);
    state = deal(
      state,
      round.bets.map((b) => ({ seat: b.seat, amount: b.amount })),
    );
    for (const { seat, action } of round.actions) state = act(state, seat, action).state;
    if (round.phase === "settled" && state.phase === "dealer") state = dealerTurn(state);
  });
  return state;
}

/**
 * Plays the round to its end by the default action (insurance declined, the hand stands) for every seat
 * still to act, then the dealer: the restart rule. Returns the settled state and the actions it added.
 */
export function settleByDefault(start: TableState | null): { state: TableState; added: { seat: number; action: unknown }[] } {
  if (!start) throw new Error("no dealt round to settle");
  let state = start;
  const added: { seat: number; action: unknown }[] = [];
  for (let fallback = defaultAction(state); fallback; fallback = defaultAction(state)) {
    state = act(state, fallback.seat, fallback.action).state;
    added.push(fallback);
  }
  if (state.phase === "dealer") state = dealerTurn(state);
  return { state, added };
}
