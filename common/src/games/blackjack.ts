import { z } from "zod";
import type { Rng } from "../fairness/stream";
import { payDown, payUp, type Payer } from "../fairness/rounding";
import { MAX_PAYOUT, payoutRatio } from "../limits";
import { dealCards, dealFromShoe, rankOf, type Card } from "./cards";
import { GameRuleError, type GameEngine, type Step } from "./engine";

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

export interface BlackjackState {
  bet: number;
  hands: BlackjackHand[];
  /** up card, hole card, then the dealer's draws */
  dealer: Card[];
  /** every card out of the shoe, in the order dealt, so the shoe continues between steps */
  dealt: Card[];
  phase: BlackjackPhase;
  /** the hand being played while phase is "playing" */
  active: number;
  /** null until insurance is offered (dealer ace up) and decided */
  insurance: BlackjackInsurance | null;
  dealerBlackjack: boolean;
}

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

export function canDouble(state: BlackjackState): boolean {
  const hand = activeHand(state);
  return !!hand && !hand.finished && hand.cards.length === 2;
}

export function canSplit(state: BlackjackState): boolean {
  const hand = activeHand(state);
  return (
    !!hand &&
    !hand.finished &&
    !hand.splitAces &&
    hand.cards.length === 2 &&
    rankOf(hand.cards[0]!) === rankOf(hand.cards[1]!) &&
    state.hands.length < MAX_HANDS
  );
}

export function legalActions(state: BlackjackState): BlackjackActionType[] {
  if (state.phase === "insurance") return ["insurance"];
  if (!activeHand(state)) return [];
  const actions: BlackjackActionType[] = ["hit", "stand"];
  if (canDouble(state)) actions.push("double");
  if (canSplit(state)) actions.push("split");
  return actions;
}

// ---------------------------------------------------------------------------------------------------
// The round

function draw(state: BlackjackState, rng: Rng): Card {
  const card = dealFromShoe(rng, BLACKJACK_DECKS, state.dealt);
  state.dealt.push(card);
  return card;
}

const newHand = (cards: Card[], stake: number, split: boolean, splitAces: boolean): BlackjackHand => ({
  cards,
  stake,
  doubled: false,
  split,
  splitAces,
  finished: false,
});

function settleHand(hand: BlackjackHand, dealerTotal: number): void {
  const total = handValue(hand.cards).total;
  if (total > 21) [hand.result, hand.payout] = ["bust", 0];
  else if (dealerTotal > 21 || total > dealerTotal) [hand.result, hand.payout] = ["win", payoutRatio(hand.stake, 2, 1)];
  else if (total === dealerTotal) [hand.result, hand.payout] = ["push", hand.stake];
  else [hand.result, hand.payout] = ["lose", 0];
}

const handsPayout = (state: BlackjackState): number =>
  Math.min(
    MAX_PAYOUT,
    state.hands.reduce((sum, h) => sum + (h.payout ?? 0), 0),
  );

/** The dealer draws to 17 (standing on soft 17) unless every hand has bust, then every hand is settled. */
function finishRound(state: BlackjackState, rng: Rng): number {
  if (state.hands.some((h) => !isBust(h.cards))) {
    while (handValue(state.dealer).total < 17) state.dealer.push(draw(state, rng));
  }
  const dealerTotal = handValue(state.dealer).total;
  for (const hand of state.hands) settleHand(hand, dealerTotal);
  state.phase = "done";
  return handsPayout(state);
}

/**
 * Moves play to the next unfinished hand, giving a split hand its second card when play reaches it
 * (split aces stop there; any hand on 21 stands). With no hand left the dealer plays.
 * Returns the payout when the round ends here.
 */
function advance(state: BlackjackState, rng: Rng): number {
  for (;;) {
    const hand = state.hands[state.active];
    if (!hand) return finishRound(state, rng);
    if (hand.cards.length === 1) {
      hand.cards.push(draw(state, rng));
      if (hand.splitAces || handValue(hand.cards).total === 21) hand.finished = true;
    }
    if (!hand.finished) return 0;
    state.active += 1;
  }
}

/** After the insurance decision (or at once without one): the peek, naturals, then play. */
function afterPeek(state: BlackjackState, pay: Payer): number {
  const hand = state.hands[0]!;
  const up = state.dealer[0]!;
  const peeks = cardPoints(up) === 1 || cardPoints(up) === 10;
  if (peeks && isBlackjack(state.dealer)) {
    state.dealerBlackjack = true;
    hand.finished = true;
    if (isBlackjack(hand.cards)) [hand.result, hand.payout] = ["push", state.bet];
    else [hand.result, hand.payout] = ["lose", 0];
    if (state.insurance) state.insurance.payout = payoutRatio(state.insurance.stake, 3, 1);
    state.phase = "done";
    return Math.min(MAX_PAYOUT, handsPayout(state) + (state.insurance?.payout ?? 0));
  }
  if (isBlackjack(hand.cards)) {
    hand.finished = true;
    // 3:2: the stake plus 1.5 × stake, made whole by the round's payer (an odd stake has half a coin to round)
    [hand.result, hand.payout] = ["blackjack", pay(state.bet, 5, 2)];
    state.phase = "done";
    return handsPayout(state);
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
      const stake = action.take ? insuranceCost(state.bet) : 0;
      state.insurance = { stake, payout: 0 };
      return done(state, stake, afterPeek(state, pay));
    }
    if (state.phase === "insurance") throw new GameRuleError("insurance_pending", "Take or decline insurance first");
    const hand = state.hands[state.active]!;
    switch (action.type) {
      case "hit": {
        hand.cards.push(draw(state, rng));
        if (handValue(hand.cards).total >= 21) hand.finished = true;
        return done(state, 0, advance(state, rng));
      }
      case "stand": {
        hand.finished = true;
        return done(state, 0, advance(state, rng));
      }
      case "double": {
        if (!canDouble(previous)) throw new GameRuleError("cannot_double", "You can only double on your first two cards");
        hand.stake += state.bet;
        hand.doubled = true;
        hand.cards.push(draw(state, rng));
        hand.finished = true;
        return done(state, state.bet, advance(state, rng));
      }
      case "split": {
        if (!canSplit(previous)) {
          const reason =
            previous.hands.length >= MAX_HANDS
              ? `You can split into at most ${MAX_HANDS} hands`
              : hand.cards.length !== 2
                ? "You can only split your first two cards"
                : "You can only split two cards of the same rank (a J and a Q are not a pair)";
          throw new GameRuleError("cannot_split", reason);
        }
        const [first, second] = hand.cards as [Card, Card];
        const aces = rankOf(first) === ACE;
        state.hands.splice(state.active, 1, newHand([first], state.bet, true, aces), newHand([second], state.bet, true, aces));
        return done(state, state.bet, advance(state, rng));
      }
    }
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
};
