import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import { MAX_PAYOUT, payoutRatio } from "../../limits";
import { cardName, dealCards, dealFromShoe, rankOf, type Card } from "../cards";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { cards, pays, describeAction } from "../describe";

/**
 * Blackjack (game-rules A1, with the product's choices): a fresh 6-deck shoe each round; the dealer
 * stands on all 17s and peeks with an ace or ten up; blackjack pays 3:2; double on any two cards, also
 * after a split; split identical ranks up to 4 hands (a J and a Q are both worth 10 but are not a pair);
 * aces split once and take one card each; insurance (half the bet, rounded down) when the dealer shows
 * an ace; no surrender. A hand that reaches 21 stands by itself.
 */
export const BLACKJACK_DECKS = 6;
export const MAX_HANDS = 4;
const ACE = 14;

export const blackjackParams = z.object({}).strict();
export type BlackjackParams = z.infer<typeof blackjackParams>;

export const blackjackActions = z.discriminatedUnion("type", [
  z.object({ type: z.literal("hit") }).strict(),
  z.object({ type: z.literal("stand") }).strict(),
  z.object({ type: z.literal("double") }).strict(),
  z.object({ type: z.literal("split") }).strict(),
  z.object({ type: z.literal("insurance"), take: z.boolean({ error: "take must be true or false" }) }).strict(),
]);
export type BlackjackAction = z.infer<typeof blackjackActions>;
export type BlackjackActionType = BlackjackAction["type"];
export type BlackjackMove = "hit" | "stand" | "double" | "split";

export type HandResult = "blackjack" | "win" | "push" | "lose" | "bust";

export interface BlackjackHand {
  cards: Card[];
  /** coins on this hand: the bet, twice the bet once doubled */
  stake: number;
  doubled: boolean;
  /** made by a split: a two-card 21 here is not a blackjack */
  split: boolean;
  /** a split ace: one card and no more */
  splitAces: boolean;
  finished: boolean;
  result?: HandResult;
  /** coins paid back on this hand (stake included), once settled */
  payout?: number;
}

export interface BlackjackInsurance {
  /** coins staked on insurance: 0 when declined */
  stake: number;
  payout: number;
}

export type BlackjackPhase = "insurance" | "playing" | "done";

/**
 * One player's side of a round against the dealer: the bet, its hands and insurance. The solo round
 * (BlackjackState) and every seat of the shared table (blackjack-table.ts) hold one, and the same
 * functions below play and settle it.
 */
export interface BlackjackSeat {
  bet: number;
  hands: BlackjackHand[];
  /** the hand being played */
  active: number;
  /** null until insurance is offered (dealer ace up) and decided */
  insurance: BlackjackInsurance | null;
}

export interface BlackjackState extends BlackjackSeat {
  /** up card, hole card, then the dealer's draws */
  dealer: Card[];
  /** every card out of the shoe, in the order dealt, so the shoe continues between steps */
  dealt: Card[];
  phase: BlackjackPhase;
  dealerBlackjack: boolean;
}

/** Deals the next card: from the solo round's fresh shoe, or from the table's shuffled shoe. */
export type DrawCard = () => Card;

// ---------------------------------------------------------------------------------------------------
// Hand values

/** Points of a card with an ace as 1: 2–10 face value, J/Q/K 10. */
export function cardPoints(card: Card): number {
  const rank = rankOf(card);
  return rank === ACE ? 1 : Math.min(rank, 10);
}

export interface HandValue {
  /** the best total: an ace counts 11 when that does not bust */
  total: number;
  /** an ace is counted as 11 */
  soft: boolean;
}

export function handValue(cards: readonly Card[]): HandValue {
  let hard = 0;
  let ace = false;
  for (const card of cards) {
    const points = cardPoints(card);
    hard += points;
    if (points === 1) ace = true;
  }
  const soft = ace && hard + 10 <= 21;
  return { total: soft ? hard + 10 : hard, soft };
}

/** Ace and a ten-value card as the first two cards (a hand made by a split never counts). */
export const isBlackjack = (cards: readonly Card[]): boolean => cards.length === 2 && handValue(cards).total === 21;

export const isBust = (cards: readonly Card[]): boolean => handValue(cards).total > 21;

/** Half the bet, rounded down; 0 means insurance is not available (a 1-coin bet). */
export const insuranceCost = (bet: number): number => Math.floor(bet / 2);

/** The dealer's up card value for strategy charts: 2–10, ace as 11. */
const upValue = (card: Card): number => (cardPoints(card) === 1 ? 11 : cardPoints(card));

// ---------------------------------------------------------------------------------------------------
// Basic strategy: 6 decks, S17, DAS, no surrender (the standard multi-deck chart)

function splitsPair(points: number, up: number): boolean {
  switch (points) {
    case 1:
    case 8:
      return true;
    case 2:
    case 3:
    case 7:
      return up <= 7;
    case 4:
      return up === 5 || up === 6;
    case 6:
      return up <= 6;
    case 9:
      return up !== 7 && up !== 10 && up !== 11;
    default:
      return false; // 5,5 plays as hard 10; 10s stand
  }
}

type ChartMove = "H" | "S" | "D" | "Ds";

function hardMove(total: number, up: number): ChartMove {
  if (total <= 8) return "H";
  if (total === 9) return up >= 3 && up <= 6 ? "D" : "H";
  if (total === 10) return up <= 9 ? "D" : "H";
  if (total === 11) return up <= 10 ? "D" : "H";
  if (total === 12) return up >= 4 && up <= 6 ? "S" : "H";
  if (total <= 16) return up <= 6 ? "S" : "H";
  return "S";
}

function softMove(total: number, up: number): ChartMove {
  if (total <= 12) return "H";
  if (total <= 14) return up === 5 || up === 6 ? "D" : "H";
  if (total <= 16) return up >= 4 && up <= 6 ? "D" : "H";
  if (total === 17) return up >= 3 && up <= 6 ? "D" : "H";
  if (total === 18) return up >= 3 && up <= 6 ? "Ds" : up <= 8 ? "S" : "H";
  return "S";
}

/**
 * The basic-strategy move for a hand against the dealer's up card (never insurance). `canDouble` and
 * `canSplit` say what the table allows now; where the chart doubles and doubling is not allowed it hits
 * (or stands on soft 18).
 */
export function basicStrategy(hand: readonly Card[], dealerUpCard: Card, canDouble: boolean, canSplit: boolean): BlackjackMove {
  const up = upValue(dealerUpCard);
  const twoCards = hand.length === 2;
  if (canSplit && twoCards && rankOf(hand[0]!) === rankOf(hand[1]!) && splitsPair(cardPoints(hand[0]!), up)) return "split";
  const { total, soft } = handValue(hand);
  const move = soft ? softMove(total, up) : hardMove(total, up);
  switch (move) {
    case "H":
      return "hit";
    case "S":
      return "stand";
    case "D":
      return canDouble && twoCards ? "double" : "hit";
    case "Ds":
      return canDouble && twoCards ? "double" : "stand";
  }
}

// ---------------------------------------------------------------------------------------------------
// What the player may do

const activeHand = (state: BlackjackState): BlackjackHand | undefined =>
  state.phase === "playing" ? state.hands[state.active] : undefined;

/** The seat's current hand may double: it is unfinished and holds its first two cards. */
export function seatCanDouble(seat: BlackjackSeat): boolean {
  const hand = seat.hands[seat.active];
  return !!hand && !hand.finished && hand.cards.length === 2;
}

/** The seat's current hand may split: two cards of one rank, not split aces, fewer than MAX_HANDS hands. */
export function seatCanSplit(seat: BlackjackSeat): boolean {
  const hand = seat.hands[seat.active];
  return (
    !!hand &&
    !hand.finished &&
    !hand.splitAces &&
    hand.cards.length === 2 &&
    rankOf(hand.cards[0]!) === rankOf(hand.cards[1]!) &&
    seat.hands.length < MAX_HANDS
  );
}

export const canDouble = (state: BlackjackState): boolean => !!activeHand(state) && seatCanDouble(state);

export const canSplit = (state: BlackjackState): boolean => !!activeHand(state) && seatCanSplit(state);

/** The moves open to the seat's current hand (hit and stand always, then double and split when allowed). */
export function seatMoves(seat: BlackjackSeat): BlackjackMove[] {
  const moves: BlackjackMove[] = ["hit", "stand"];
  if (seatCanDouble(seat)) moves.push("double");
  if (seatCanSplit(seat)) moves.push("split");
  return moves;
}

export function legalActions(state: BlackjackState): BlackjackActionType[] {
  if (state.phase === "insurance") return ["insurance"];
  if (!activeHand(state)) return [];
  return seatMoves(state);
}

// ---------------------------------------------------------------------------------------------------
// Playing and settling a seat: shared by the solo round and the table

export const newHand = (cards: Card[], stake: number, split: boolean, splitAces: boolean): BlackjackHand => ({
  cards,
  stake,
  doubled: false,
  split,
  splitAces,
  finished: false,
});

/** Records the insurance decision; returns the coins it stakes (half the bet, rounded down, or 0). */
export function decideInsurance(seat: BlackjackSeat, take: boolean): number {
  const stake = take ? insuranceCost(seat.bet) : 0;
  seat.insurance = { stake, payout: 0 };
  return stake;
}

/** With an ace or a ten-value card up the dealer peeks: true when the two cards make a blackjack. */
export function dealerPeeksBlackjack(dealer: readonly Card[]): boolean {
  const points = cardPoints(dealer[0]!);
  return (points === 1 || points === 10) && isBlackjack(dealer.slice(0, 2));
}

/** The seat's payout so far: its hands' payouts, plus insurance's, capped at MAX_PAYOUT. */
export const seatPayout = (seat: BlackjackSeat): number =>
  Math.min(MAX_PAYOUT, seat.hands.reduce((sum, h) => sum + (h.payout ?? 0), 0) + (seat.insurance?.payout ?? 0));

/** The dealer has a blackjack: the seat's blackjack pushes, any other hand loses, insurance pays 3 for 1. */
export function settleDealerBlackjack(seat: BlackjackSeat): void {
  const hand = seat.hands[0]!;
  hand.finished = true;
  if (isBlackjack(hand.cards)) [hand.result, hand.payout] = ["push", seat.bet];
  else [hand.result, hand.payout] = ["lose", 0];
  if (seat.insurance) seat.insurance.payout = payoutRatio(seat.insurance.stake, 3, 1);
}

/**
 * After the peek (no dealer blackjack): a two-card 21 is paid 3:2 at once. True when it was. 3:2 is the
 * stake plus 1.5 × stake, made whole by the round's payer (an odd stake has half a coin to round).
 */
export function settleNatural(seat: BlackjackSeat, pay: Payer): boolean {
  const hand = seat.hands[0]!;
  if (!isBlackjack(hand.cards)) return false;
  hand.finished = true;
  [hand.result, hand.payout] = ["blackjack", pay(seat.bet, 5, 2)];
  return true;
}

/**
 * Moves play to the seat's next unfinished hand, giving a split hand its second card when play reaches
 * it (split aces stop there; any hand on 21 stands). True when every hand is finished.
 */
export function advanceSeat(seat: BlackjackSeat, draw: DrawCard): boolean {
  for (;;) {
    const hand = seat.hands[seat.active];
    if (!hand) return true;
    if (hand.cards.length === 1) {
      hand.cards.push(draw());
      if (hand.splitAces || handValue(hand.cards).total === 21) hand.finished = true;
    }
    if (!hand.finished) return false;
    seat.active += 1;
  }
}

/**
 * Plays one move on the seat's current hand, then advances to the next unfinished hand. Returns the
 * coins the move stakes (the bet again for a double or a split). Throws a GameRuleError for a double or
 * a split the rules do not allow.
 */
export function playMove(seat: BlackjackSeat, move: BlackjackMove, draw: DrawCard): number {
  const hand = seat.hands[seat.active]!;
  let stake = 0;
  switch (move) {
    case "hit": {
      hand.cards.push(draw());
      if (handValue(hand.cards).total >= 21) hand.finished = true;
      break;
    }
    case "stand": {
      hand.finished = true;
      break;
    }
    case "double": {
      if (!seatCanDouble(seat)) throw new GameRuleError("cannot_double", "You can only double on your first two cards");
      hand.stake += seat.bet;
      hand.doubled = true;
      hand.cards.push(draw());
      hand.finished = true;
      stake = seat.bet;
      break;
    }
    case "split": {
      if (!seatCanSplit(seat)) {
        const reason =
          seat.hands.length >= MAX_HANDS
            ? `You can split into at most ${MAX_HANDS} hands`
            : hand.cards.length !== 2
              ? "You can only split your first two cards"
              : "You can only split two cards of the same rank (a J and a Q are not a pair)";
        throw new GameRuleError("cannot_split", reason);
      }
      const [first, second] = hand.cards as [Card, Card];
      const aces = rankOf(first) === ACE;
      seat.hands.splice(seat.active, 1, newHand([first], seat.bet, true, aces), newHand([second], seat.bet, true, aces));
      stake = seat.bet;
      break;
    }
  }
  advanceSeat(seat, draw);
  return stake;
}

/** The dealer must draw unless every hand still open has bust (settled hands, such as a paid blackjack, do not count). */
export const handsNeedDealer = (hands: readonly BlackjackHand[]): boolean => hands.some((h) => h.result === undefined && !isBust(h.cards));

/** The dealer draws to 17, standing on soft 17. */
export function playDealer(dealer: Card[], draw: DrawCard): void {
  while (handValue(dealer).total < 17) dealer.push(draw());
}

/** A hand against the dealer's final total: a win returns 2 × its stake, a push its stake, a loss or bust nothing. */
export function settleHand(hand: BlackjackHand, dealerTotal: number): void {
  const total = handValue(hand.cards).total;
  if (total > 21) [hand.result, hand.payout] = ["bust", 0];
  else if (dealerTotal > 21 || total > dealerTotal) [hand.result, hand.payout] = ["win", payoutRatio(hand.stake, 2, 1)];
  else if (total === dealerTotal) [hand.result, hand.payout] = ["push", hand.stake];
  else [hand.result, hand.payout] = ["lose", 0];
}

/** Settles every hand of the seat not settled yet against the dealer's final cards. */
export function settleSeat(seat: BlackjackSeat, dealer: readonly Card[]): void {
  const dealerTotal = handValue(dealer).total;
  for (const hand of seat.hands) if (hand.result === undefined) settleHand(hand, dealerTotal);
}

// ---------------------------------------------------------------------------------------------------
// The solo round

function soloDraw(state: BlackjackState, rng: Rng): DrawCard {
  return () => {
    const card = dealFromShoe(rng, BLACKJACK_DECKS, state.dealt);
    state.dealt.push(card);
    return card;
  };
}

/** The dealer draws to 17 (standing on soft 17) unless every hand has bust, then every hand is settled. */
function finishRound(state: BlackjackState, rng: Rng): number {
  if (handsNeedDealer(state.hands)) playDealer(state.dealer, soloDraw(state, rng));
  settleSeat(state, state.dealer);
  state.phase = "done";
  return seatPayout(state);
}

/** After the insurance decision (or at once without one): the peek, naturals, then play. */
function afterPeek(state: BlackjackState, pay: Payer): number {
  if (dealerPeeksBlackjack(state.dealer)) {
    state.dealerBlackjack = true;
    settleDealerBlackjack(state);
    state.phase = "done";
    return seatPayout(state);
  }
  if (settleNatural(state, pay)) {
    state.phase = "done";
    return seatPayout(state);
  }
  state.phase = "playing";
  state.active = 0;
  return 0;
}

const done = (state: BlackjackState, stake: number, payout: number): Step<BlackjackState> => ({
  state,
  stake,
  payout,
  done: state.phase === "done",
});

export const blackjackEngine: GameEngine<BlackjackParams, BlackjackState, BlackjackAction> = {
  id: "blackjack",
  params: blackjackParams,
  actions: blackjackActions,
  start(amount: number, _params: BlackjackParams, rng: Rng, pay: Payer = payDown): Step<BlackjackState> {
    const [p1, up, p2, hole] = dealCards(rng, BLACKJACK_DECKS, [], 4) as [Card, Card, Card, Card];
    const state: BlackjackState = {
      bet: amount,
      hands: [newHand([p1, p2], amount, false, false)],
      dealer: [up, hole],
      dealt: [p1, up, p2, hole],
      phase: "insurance",
      active: 0,
      insurance: null,
      dealerBlackjack: false,
    };
    if (cardPoints(up) === 1 && insuranceCost(amount) > 0) return done(state, amount, 0);
    return done(state, amount, afterPeek(state, pay));
  },
  act(previous: BlackjackState, action: BlackjackAction, rng: Rng, pay: Payer = payDown): Step<BlackjackState> {
    if (previous.phase === "done") throw new GameRuleError("round_over", "The round is already over");
    const state = JSON.parse(JSON.stringify(previous)) as BlackjackState;
    if (action.type === "insurance") {
      if (state.phase !== "insurance")
        throw new GameRuleError("no_insurance", "Insurance is only offered before play, when the dealer shows an ace");
      const stake = decideInsurance(state, action.take);
      return done(state, stake, afterPeek(state, pay));
    }
    if (state.phase === "insurance") throw new GameRuleError("insurance_pending", "Take or decline insurance first");
    const stake = playMove(state, action.type, soloDraw(state, rng));
    const payout = state.active >= state.hands.length ? finishRound(state, rng) : 0;
    return done(state, stake, payout);
  },
  /** Abandoned: insurance is declined and every hand left stands; the dealer then plays as usual. */
  defaultAction: (state) => (state.phase === "insurance" ? { type: "insurance", take: false } : { type: "stand" }),
  view(state: BlackjackState, finished: boolean) {
    const hands = state.hands.map((h) => ({ ...h, ...handValue(h.cards) }));
    if (finished) return { ...state, hands, dealerTotal: handValue(state.dealer).total, actions: [] };
    const { dealt: _secretShoe, dealer, ...open } = state;
    return {
      ...open,
      hands,
      // the hole card stays face down while the round is open
      dealer: [dealer[0]!, null],
      dealerTotal: handValue([dealer[0]!]).total,
      actions: legalActions(state),
    };
  },
  /** Four split hands, each doubled and won: 4 × 2 × 2 = 16 times the bet. */
  maxPayout: (amount) => payUp(amount, 16, 1),
  describe: describeBlackjack,
};

function describeBlackjack({ previous, state: s, step, action }: StepContext<BlackjackState>): string[] {
  const before = previous;
  const dealt = s.dealt.slice(before ? before.dealt.length : 0);
  const lines: string[] = [];
  if (!before) {
    lines.push(
      `dealt from a fresh 6-deck shoe: player ${cardName(s.dealt[0]!)}, dealer up ${cardName(s.dealt[1]!)}, player ${cardName(s.dealt[2]!)}, dealer hole ${cardName(s.dealt[3]!)}`,
    );
  } else if ((action as { type?: string })?.type !== "insurance") {
    lines.push(`${describeAction(action)}${dealt.length ? `: dealt ${cards(dealt)}` : ""}`);
  }
  if (s.phase === "insurance") lines.push(`dealer shows an ace: insurance offered (${Math.floor(s.bet / 2)} coins)`);
  if (s.insurance && before?.phase === "insurance")
    lines.push(s.insurance.stake > 0 ? `insurance taken: ${s.insurance.stake} coins` : "insurance declined");
  s.hands.forEach((hand, i) => {
    const v = handValue(hand.cards);
    const tags = [hand.doubled ? "doubled" : "", hand.split ? "split" : "", hand.result ?? (hand.finished ? "stands" : "")].filter(Boolean);
    lines.push(
      `hand ${i + 1}: ${cards(hand.cards)} = ${v.soft ? "soft " : ""}${v.total}${tags.length ? ` (${tags.join(", ")})` : ""}${hand.payout !== undefined ? `, ${pays(hand.payout)}` : ""}`,
    );
  });
  lines.push(`dealer: ${cards(s.dealer)} = ${handValue(s.dealer).total}${s.dealerBlackjack ? " (blackjack)" : ""}`);
  if (s.insurance && s.phase === "done" && s.insurance.stake > 0) lines.push(`insurance ${pays(s.insurance.payout)}`);
  if (step.done) lines.push(`round over: ${pays(step.payout)}`);
  return lines;
}

export default blackjackEngine;
