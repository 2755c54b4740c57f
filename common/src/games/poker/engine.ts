import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { MAX_BET, payoutRatio } from "../../limits";
import { cardName, dealCards, type Card } from "../cards";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { evaluateFive, highCardFloorFive, type FiveCardCategory } from "../poker-hands";
import { cards, pays } from "../describe";

/**
 * "Texas Hold'em" as the lobby names it: five-card poker against the dealer, played as Caribbean Stud
 * Poker (game-rules A2). The bet is the ante. One deck; the player gets the first five cards of the
 * stream, the dealer the next five, the dealer's first card face up. The player folds (the ante is lost)
 * or raises 2 × ante. The dealer qualifies with A-K high or better; a dealer that does not qualify pays
 * the ante 1:1 and pushes the raise; a qualifying dealer is compared: the player's win pays the ante 1:1
 * and the raise per RAISE_PAYS, the dealer's win takes both, a tie pushes both.
 */
export const RAISE_MULTIPLE = 2;
export const MAX_ANTE = Math.floor(MAX_BET / RAISE_MULTIPLE);

/** Raise pays (x:1) by the player's hand: the standard table of game-rules A2. */
export const RAISE_PAYS: Record<FiveCardCategory, number> = {
  "high-card": 1,
  pair: 1,
  "two-pair": 2,
  "three-of-a-kind": 3,
  straight: 4,
  flush: 5,
  "full-house": 7,
  "four-of-a-kind": 20,
  "straight-flush": 50,
  "royal-flush": 100,
};

/** The weakest qualifying dealer hand: ace-king high. */
export const DEALER_QUALIFIES_AT = highCardFloorFive(14, 13);

export const pokerParams = z.object({}).strict();
export type PokerParams = z.infer<typeof pokerParams>;

export const pokerActions = z.discriminatedUnion("type", [
  z.object({ type: z.literal("fold") }).strict(),
  z.object({ type: z.literal("raise") }).strict(),
]);
export type PokerAction = z.infer<typeof pokerActions>;

export type PokerOutcome = "fold" | "dealer-not-qualified" | "win" | "push" | "lose";

export interface PokerState {
  ante: number;
  player: Card[];
  /** dealer[0] is the up card; the other four stay hidden until the round is over. */
  dealer: Card[];
  outcome: PokerOutcome | null;
}

export interface PokerSettlement {
  outcome: Exclude<PokerOutcome, "fold">;
  /** Total paid back for ante + raise, in antes (stake included). */
  antesBack: number;
}

/** Settles a raised hand: what ante and raise return together, in units of the ante. */
export function settleRaise(player: readonly Card[], dealer: readonly Card[]): PokerSettlement {
  const mine = evaluateFive(player);
  const theirs = evaluateFive(dealer);
  const raise = RAISE_MULTIPLE;
  if (theirs.value < DEALER_QUALIFIES_AT) return { outcome: "dealer-not-qualified", antesBack: 2 + raise };
  if (mine.value > theirs.value) return { outcome: "win", antesBack: 2 + raise * (1 + RAISE_PAYS[mine.category]) };
  if (mine.value === theirs.value) return { outcome: "push", antesBack: 1 + raise };
  return { outcome: "lose", antesBack: 0 };
}

export const pokerEngine: GameEngine<PokerParams, PokerState, PokerAction> = {
  maxStake: MAX_ANTE,
  id: "poker",
  params: pokerParams,
  actions: pokerActions,
  start(amount: number, _params: PokerParams, rng: Rng): Step<PokerState> {
    if (amount > MAX_ANTE) {
      throw new GameRuleError(
        "invalid_amount",
        `The ante may be at most ${MAX_ANTE} coins, so that the raise (${RAISE_MULTIPLE} × ante) stays within the bet limit`,
      );
    }
    const cards = dealCards(rng, 1, [], 10);
    return {
      state: { ante: amount, player: cards.slice(0, 5), dealer: cards.slice(5), outcome: null },
      stake: amount,
      payout: 0,
      done: false,
    };
  },
  act(state: PokerState, action: PokerAction): Step<PokerState> {
    if (state.outcome !== null) throw new GameRuleError("round_over", "The round is already over");
    if (action.type === "fold") {
      return { state: { ...state, outcome: "fold" }, stake: 0, payout: 0, done: true };
    }
    const { outcome, antesBack } = settleRaise(state.player, state.dealer);
    return {
      state: { ...state, outcome },
      stake: RAISE_MULTIPLE * state.ante,
      payout: payoutRatio(state.ante, antesBack, 1),
      done: true,
    };
  },
  /** Abandoned: the hand folds (a raise would stake more coins); the ante is lost. */
  defaultAction: () => ({ type: "fold" }),
  view(state: PokerState, done: boolean) {
    const player = evaluateFive(state.player);
    if (!done) {
      return { ante: state.ante, player: state.player, playerHand: player.category, dealerUp: state.dealer[0] };
    }
    const dealer = evaluateFive(state.dealer);
    return {
      ante: state.ante,
      player: state.player,
      playerHand: player.category,
      dealerUp: state.dealer[0],
      dealer: state.dealer,
      dealerHand: dealer.category,
      dealerQualifies: dealer.value >= DEALER_QUALIFIES_AT,
      outcome: state.outcome,
    };
  },
  maxPayout: (amount) => payoutRatio(amount, 2 + RAISE_MULTIPLE * (1 + RAISE_PAYS["royal-flush"]), 1),
  describe: describePoker,
};

function describePoker({ state: s, step }: StepContext<PokerState>): string[] {
  const mine = evaluateFive(s.player).category;
  const theirs = evaluateFive(s.dealer).category;
  const lines = [`player: ${cards(s.player)} (${mine})`, `dealer: ${cards(s.dealer)} (${theirs}), up card ${cardName(s.dealer[0]!)}`];
  if (s.outcome) lines.push(`${s.outcome === "fold" ? "folded" : `raised ${step.stake}: ${s.outcome}`}, ${pays(step.payout)}`);
  return lines;
}

export default pokerEngine;
