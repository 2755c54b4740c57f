import { z } from "zod";
import { CUT_CARD, SHOE_CARDS, TABLE_SEATS, seatNumber, seatSeeds, shoePack, shoeStreamInput, type SeatSeed } from "../games/shoe";
import { floatStream, type FairnessInput } from "../fairness/stream";
import { LEGACY_ROUNDING, payDown, unbiasedPayer, type Payer, type RoundingRule } from "../fairness/rounding";
import { isValidStake, STAKE_RULE_MESSAGE } from "../limits";
import { describeZodError } from "../validation";
import {
  blackjackActions,
  cardPoints,
  dealerPeeksBlackjack,
  decideInsurance,
  handValue,
  handsNeedDealer,
  insuranceCost,
  newHand,
  playDealer,
  playMove,
  seatMoves,
  seatPayout,
  settleDealerBlackjack,
  settleNatural,
  settleSeat,
  type BlackjackAction,
  type BlackjackActionType,
  type BlackjackSeat,
  type DrawCard,
} from "./blackjack/engine";
import type { Card } from "./cards";
import { GameRuleError } from "./engine";

/**
 * The shared blackjack table: one dealer, one shoe, up to 7 seats, each playing its own hand(s) with the
 * solo game's rules and pay table (blackjack.ts plays and settles every seat). A pure state machine:
 *
 *   betting ─deal→ [insurance, seat by seat] → turns, seat by seat ─→ dealer ─playDealer→ settled ─nextRound→ betting
 *
 * `deal` deals the round and, after the peek, goes straight to `settled` on a dealer blackjack, or to
 * `dealer` when no seat has a hand to play. Every transition returns a new state and leaves its input
 * untouched. The state holds secrets (the shoe, the hole card, the stream it came from); `tableView` is
 * the only thing any client may receive.
 */

export type TablePhase = "betting" | "insurance" | "turns" | "dealer" | "settled";

export interface TableSeat extends BlackjackSeat {
  /** seat number, 1–7 */
  seat: number;
  /** coins this seat has staked in the round: the bet, doubles, splits, insurance */
  staked: number;
  /** coins paid back to this seat (stakes included) once the round is settled; null before */
  payout: number | null;
}

export interface TableShoe {
  /** the stream the shoe was shuffled from (server seed: secret until the shoe ends) */
  input: FairnessInput;
  /** the shoe in dealing order (grows by a pack in the rare round that needs more than 312 cards) */
  cards: Card[];
  /** index of the next card to deal */
  next: number;
}

export interface TableState {
  shoe: TableShoe;
  /** rounds dealt from this shoe, the current one included */
  round: number;
  phase: TablePhase;
  /** the seats with a bet this round, in seat order */
  seats: TableSeat[];
  /** up card, hole card, then the dealer's draws */
  dealer: Card[];
  dealerBlackjack: boolean;
  /** index into `seats` of the seat to act (insurance and turns phases) */
  turn: number;
  /** shoe index of the round's first card */
  firstCard: number;
  /**
   * How a natural's 3:2 on an odd stake is made whole (docs/fairness.md, section 7): rule 2 draws from
   * the round's own stream (`roundRoundingInput`), rule 1 rounds down. Missing: rule 1.
   */
  rounding?: RoundingRule;
}

export const tableBet = z
  .object({
    seat: seatNumber,
    amount: z.number({ error: "amount must be a number" }).refine(isValidStake, STAKE_RULE_MESSAGE),
  })
  .strict();
export type TableBet = z.infer<typeof tableBet>;

export const tableBets = z
  .array(tableBet)
  .min(1, "a round needs at least one bet")
  .max(TABLE_SEATS)
  .refine((bets) => new Set(bets.map((b) => b.seat)).size === bets.length, "each seat may bet only once a round");

/**
 * A copy to change: everything but the shoe's cards, which no transition changes in place (they are
 * only ever replaced by a longer array), so states can share them.
 */
const clone = (state: TableState): TableState => ({
  ...state,
  shoe: { ...state.shoe },
  seats: JSON.parse(JSON.stringify(state.seats)) as TableSeat[],
  dealer: [...state.dealer],
});

/** Deals the shoe's next card, shuffling the next pack of the same stream if all 312 are gone. */
function shoeDraw(shoe: TableShoe): DrawCard {
  return () => {
    if (shoe.next >= shoe.cards.length) shoe.cards = [...shoe.cards, ...shoePack(shoe.input, shoe.cards.length / SHOE_CARDS)];
    return shoe.cards[shoe.next++]!;
  };
}

/**
 * A new shoe, shuffled from the shoe's server seed and the client seeds of the players seated now. Its
 * rounds round a natural's half coin by `rounding` (rule 1, rounded down, unless told otherwise).
 */
export function newShoe(serverSeed: string, seeds: readonly SeatSeed[], rounding: RoundingRule = LEGACY_ROUNDING): TableState {
  const parsed = seatSeeds.safeParse(seeds);
  if (!parsed.success) throw new GameRuleError("invalid_seeds", describeZodError(parsed.error));
  const input = shoeStreamInput(serverSeed, parsed.data);
  return {
    shoe: { input, cards: shoePack(input, 0), next: 0 },
    round: 0,
    phase: "betting",
    seats: [],
    dealer: [],
    dealerBlackjack: false,
    turn: 0,
    firstCard: 0,
    rounding,
  };
}

/**
 * The stream a round's payouts are rounded from under rule 2: the shoe's stream with nonce = the round's
 * number (1, 2, …; the shoe itself is nonce 0), so it shares no float with the shuffle and is as secret
 * as the shoe's seed until the shoe ends.
 */
export const roundRoundingInput = (shoe: FairnessInput, round: number): FairnessInput => ({ ...shoe, nonce: round });

/** The payer of the state's current round. */
function roundPayer(state: TableState): Payer {
  if ((state.rounding ?? LEGACY_ROUNDING) === 1) return payDown;
  return unbiasedPayer(floatStream(roundRoundingInput(state.shoe.input, state.round)));
}

/** The cut card has come out: the round being played (or just settled) is the shoe's last. */
export const cutCardOut = (state: TableState): boolean => state.shoe.next > CUT_CARD;

/** The shoe is over: its last round is settled. Reveal its server seed and start a new shoe. */
export const shoeFinished = (state: TableState): boolean => state.phase === "settled" && cutCardOut(state);

/** Whether the seat decides insurance: the dealer shows an ace and half its bet is at least a coin. */
const offeredInsurance = (seat: TableSeat): boolean => insuranceCost(seat.bet) > 0;

const seatDone = (seat: TableSeat): boolean => seat.active >= seat.hands.length;

/** Moves the turn to the next seat (from `from`) that still has to act in this phase, or on to the next phase. */
function passTurn(state: TableState, from: number): void {
  if (state.phase === "insurance") {
    const next = state.seats.findIndex((s, i) => i >= from && offeredInsurance(s) && s.insurance === null);
    if (next >= 0) return void (state.turn = next);
    return peek(state);
  }
  const next = state.seats.findIndex((s, i) => i >= from && !seatDone(s));
  if (next >= 0) {
    state.phase = "turns";
    state.turn = next;
  } else {
    state.phase = "dealer";
    state.turn = state.seats.length;
  }
}

/** The peek (after insurance, or at once): a dealer blackjack settles every seat; else naturals are paid and play starts. */
function peek(state: TableState): void {
  if (dealerPeeksBlackjack(state.dealer)) {
    state.dealerBlackjack = true;
    for (const seat of state.seats) {
      settleDealerBlackjack(seat);
      seat.active = seat.hands.length;
      seat.payout = seatPayout(seat);
    }
    state.phase = "settled";
    state.turn = state.seats.length;
    return;
  }
  // A natural on an odd stake has half a coin to round: under rule 2 each such seat draws, in seat
  // order, from the round's own stream (roundRoundingInput); the naturals are the round's only
  // fractional payouts, so these are the only draws it makes.
  const pay = roundPayer(state);
  for (const seat of state.seats) {
    if (settleNatural(seat, pay)) seat.active = seat.hands.length;
  }
  state.phase = "turns";
  passTurn(state, 0);
}

/**
 * Closes betting and deals the round: one card to each seat in seat order, the dealer's up card, a second
 * card to each seat, the hole card. Then insurance seat by seat when the dealer shows an ace, the peek,
 * and the first seat's turn. Each bet is a seat's opening stake.
 */
export function deal(previous: TableState, bets: readonly TableBet[]): TableState {
  if (previous.phase !== "betting") throw new GameRuleError("not_betting", "Bets are only taken between rounds");
  if (cutCardOut(previous)) throw new GameRuleError("shoe_finished", "The cut card is out: this shoe is finished");
  const parsed = tableBets.safeParse(bets);
  if (!parsed.success) throw new GameRuleError("invalid_bets", describeZodError(parsed.error));
  const state = clone(previous);
  const draw = shoeDraw(state.shoe);
  const ordered = [...parsed.data].sort((a, b) => a.seat - b.seat);
  state.firstCard = state.shoe.next;
  state.round += 1;
  state.dealerBlackjack = false;
  state.seats = ordered.map((b) => ({
    seat: b.seat,
    bet: b.amount,
    hands: [newHand([], b.amount, false, false)],
    active: 0,
    insurance: null,
    staked: b.amount,
    payout: null,
  }));
  for (const seat of state.seats) seat.hands[0]!.cards.push(draw());
  const up = draw();
  for (const seat of state.seats) seat.hands[0]!.cards.push(draw());
  state.dealer = [up, draw()];
  if (cardPoints(up) === 1 && state.seats.some(offeredInsurance)) {
    state.phase = "insurance";
    passTurn(state, 0);
  } else peek(state);
  return state;
}

/** The seat whose turn it is, or null outside the insurance and turns phases. */
export function seatToAct(state: TableState): number | null {
  if (state.phase !== "insurance" && state.phase !== "turns") return null;
  return state.seats[state.turn]?.seat ?? null;
}

/** What the seat to act may do now. */
export function tableActions(state: TableState): BlackjackActionType[] {
  if (state.phase === "insurance") return ["insurance"];
  if (state.phase !== "turns") return [];
  return seatMoves(state.seats[state.turn]!);
}

export interface TableStep {
  state: TableState;
  /** the seat that acted */
  seat: number;
  /** coins the action staked for that seat (insurance, a double or a split), 0 for the rest */
  stake: number;
}

/** A seated player's action, in turn: insurance while it is offered, then hit, stand, double or split. */
export function act(previous: TableState, seatNo: number, rawAction: unknown): TableStep {
  const parsed = blackjackActions.safeParse(rawAction);
  if (!parsed.success) throw new GameRuleError("invalid_action", describeZodError(parsed.error));
  const action: BlackjackAction = parsed.data;
  const toAct = seatToAct(previous);
  if (toAct === null) throw new GameRuleError("no_turn", "No seat is to act now");
  if (seatNo !== toAct) throw new GameRuleError("not_your_turn", `It is seat ${toAct}'s turn`);
  const state = clone(previous);
  const seat = state.seats[state.turn]!;
  let stake: number;
  if (action.type === "insurance") {
    if (state.phase !== "insurance")
      throw new GameRuleError("no_insurance", "Insurance is only offered before play, when the dealer shows an ace");
    stake = decideInsurance(seat, action.take);
    passTurn(state, state.turn + 1);
  } else {
    if (state.phase === "insurance") throw new GameRuleError("insurance_pending", "Take or decline insurance first");
    stake = playMove(seat, action.type, shoeDraw(state.shoe));
    if (seatDone(seat)) passTurn(state, state.turn + 1);
  }
  seat.staked += stake;
  return { state, seat: seatNo, stake };
}

/**
 * What the table does for the seat to act when its timer runs out or its player has gone: declines
 * insurance, and stands the current hand (a later split hand gets its own turn and its own timer).
 * Never stakes a coin. Null when no seat is to act.
 */
export function defaultAction(state: TableState): { seat: number; action: BlackjackAction } | null {
  const seat = seatToAct(state);
  if (seat === null) return null;
  return { seat, action: state.phase === "insurance" ? { type: "insurance", take: false } : { type: "stand" } };
}

/** Applies the default action for the seat to act (its turn timed out). */
export function timeOut(state: TableState): TableStep {
  const fallback = defaultAction(state);
  if (!fallback) throw new GameRuleError("no_turn", "No seat is to act now");
  return act(state, fallback.seat, fallback.action);
}

/** The dealer's turn: the hole card is turned, the dealer draws to 17 unless no hand is left to beat, every seat settles. */
export function dealerTurn(previous: TableState): TableState {
  if (previous.phase !== "dealer") throw new GameRuleError("not_dealer_turn", "The seats have not all played");
  const state = clone(previous);
  if (handsNeedDealer(state.seats.flatMap((s) => s.hands))) playDealer(state.dealer, shoeDraw(state.shoe));
  for (const seat of state.seats) {
    settleSeat(seat, state.dealer);
    seat.payout = seatPayout(seat);
  }
  state.phase = "settled";
  return state;
}

/** Clears the settled round for the next betting window, on the same shoe. */
export function nextRound(previous: TableState): TableState {
  if (previous.phase !== "settled") throw new GameRuleError("round_open", "The round is still being played");
  if (cutCardOut(previous)) throw new GameRuleError("shoe_finished", "The cut card is out: this shoe is finished");
  return { ...clone(previous), phase: "betting", seats: [], dealer: [], dealerBlackjack: false, turn: 0 };
}

/** The dealer's hole card is face up: after every seat has played, or when the peek found a blackjack. */
const holeRevealed = (state: TableState): boolean => state.phase === "dealer" || state.phase === "settled";

/**
 * What every client at the table (seated or watching) receives. Never a card still in the shoe, never the
 * stream or its seed, and the hole card only once it is turned: the view is a function of the public
 * cards alone.
 */
export function tableView(state: TableState) {
  const revealed = holeRevealed(state);
  const dealer = state.dealer.length === 0 ? [] : revealed ? [...state.dealer] : [state.dealer[0]!, null];
  const toAct = seatToAct(state);
  return {
    phase: state.phase,
    round: state.round,
    seats: state.seats.map((s) => ({
      seat: s.seat,
      bet: s.bet,
      staked: s.staked,
      payout: s.payout,
      active: s.active,
      insurance: s.insurance,
      hands: s.hands.map((h) => ({ ...h, ...handValue(h.cards) })),
    })),
    dealer,
    dealerTotal: state.dealer.length === 0 ? null : handValue(revealed ? state.dealer : [state.dealer[0]!]).total,
    dealerBlackjack: state.dealerBlackjack,
    toAct,
    actions: tableActions(state),
    shoe: {
      /** cards dealt from the shoe so far */
      dealt: state.shoe.next,
      cardsLeft: Math.max(0, SHOE_CARDS - state.shoe.next),
      cutCardOut: cutCardOut(state),
    },
  };
}
export type TableView = ReturnType<typeof tableView>;

/** A shoe's round as the table records it, for the verifier to replay (`verifiers/verify-shoe.ts`). */
export const shoeRound = z
  .object({
    bets: z.array(tableBet),
    actions: z.array(z.object({ seat: seatNumber, action: z.unknown() }).strict()),
  })
  .strict();
export type ShoeRound = z.infer<typeof shoeRound>;

/** A card code as a record holds it (0–51: rank × 4 + suit, games/cards.ts). */
const cardCode = z.number().int().min(0).max(51);
const coins = z.number().int().min(0);

/**
 * What the server recorded of a dealt round when it settled it (each seat's round in the player's
 * history): the dealer's cards and, for each seat, its hands' cards, its stakes and its payout. A field
 * the server could not find in its records is null. The verifier compares it with the round it deals again.
 */
export const recordedShoeRound = z
  .object({
    dealer: z.array(cardCode).nullable(),
    seats: z.array(z.object({ seat: seatNumber, hands: z.array(z.array(cardCode)).nullable(), staked: coins, payout: coins }).strict()),
  })
  .strict();
export type RecordedShoeRound = z.infer<typeof recordedShoeRound>;
