import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { payoutRatio, settlePayout } from "../../limits";
import { dealCards, type Card } from "../cards";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { evaluateThree, highCardFloorThree, type ThreeCardCategory } from "../poker-hands";
import { cards, pays } from "../describe";
import { chipSum, scaleChip } from "../table-bets";

/**
 * Three Card Poker (game-rules A4). One deck; the player gets the first three cards of the stream, the
 * dealer the next three (hidden). With an ante the player folds (ante lost) or plays (a second bet equal
 * to the ante). The dealer qualifies with queen high or better; a dealer that does not qualify pays the
 * ante 1:1 and pushes the play; a qualifying dealer is compared: the higher hand wins both bets 1:1, a tie
 * pushes both. Whenever the player plays, the ante bonus is paid on the ante whatever the dealer holds.
 * Pair Plus is settled on the player's three cards alone; a Pair-Plus-only round ends at the deal.
 */
export const ANTE_BONUS: Partial<Record<ThreeCardCategory, number>> = {
  straight: 1,
  "three-of-a-kind": 4,
  "straight-flush": 5,
};

export const PAIR_PLUS_PAYS: Partial<Record<ThreeCardCategory, number>> = {
  pair: 1,
  flush: 4,
  straight: 6,
  "three-of-a-kind": 30,
  "straight-flush": 40,
};

/** The weakest qualifying dealer hand: queen high. */
export const DEALER_QUALIFIES_AT = highCardFloorThree(12);
/** The optimal play rule: play Q-6-4 or better (game-rules A4). */
export const PLAY_AT_LEAST = highCardFloorThree(12, 6, 4);

export const playsByStrategy = (player: readonly Card[]): boolean => evaluateThree(player).value >= PLAY_AT_LEAST;

const coins = (what: string) =>
  z
    .number({ message: `${what} must be a number of coins` })
    .int(`${what} must be a whole number of coins`)
    .min(0, `${what} may not be negative`);

export const threeCardPokerParams = z
  .object({ ante: coins("ante"), pairPlus: coins("pairPlus") })
  .strict()
  .refine((p) => p.ante > 0 || p.pairPlus > 0, "Place an ante, a Pair Plus bet, or both");
export type ThreeCardPokerParams = z.infer<typeof threeCardPokerParams>;

export const threeCardPokerActions = z.discriminatedUnion("type", [
  z.object({ type: z.literal("fold") }).strict(),
  z.object({ type: z.literal("play") }).strict(),
]);
export type ThreeCardPokerAction = z.infer<typeof threeCardPokerActions>;

export type AnteOutcome = "fold" | "dealer-not-qualified" | "win" | "push" | "lose";

export interface ThreeCardPokerState {
  ante: number;
  pairPlus: number;
  player: Card[];
  dealer: Card[];
  /** null while the player still has to fold or play, and for a Pair-Plus-only round. */
  anteOutcome: AnteOutcome | null;
  done: boolean;
}

/** What the Pair Plus bet pays back (stake included). */
export function pairPlusReturn(pairPlus: number, player: readonly Card[]): number {
  const pays = PAIR_PLUS_PAYS[evaluateThree(player).category];
  return pays === undefined ? 0 : payoutRatio(pairPlus, 1 + pays, 1);
}

/** Ante + play + ante bonus for a played hand, in antes (stake included). */
export function settlePlay(player: readonly Card[], dealer: readonly Card[]): { outcome: AnteOutcome; antesBack: number } {
  const mine = evaluateThree(player);
  const theirs = evaluateThree(dealer);
  const bonus = ANTE_BONUS[mine.category] ?? 0;
  if (theirs.value < DEALER_QUALIFIES_AT) return { outcome: "dealer-not-qualified", antesBack: 3 + bonus };
  if (mine.value > theirs.value) return { outcome: "win", antesBack: 4 + bonus };
  if (mine.value === theirs.value) return { outcome: "push", antesBack: 2 + bonus };
  return { outcome: "lose", antesBack: bonus };
}

export const threeCardPokerEngine: GameEngine<ThreeCardPokerParams, ThreeCardPokerState, ThreeCardPokerAction> = {
  id: "three-card-poker",
  params: threeCardPokerParams,
  actions: threeCardPokerActions,
  start(amount: number, params: ThreeCardPokerParams, rng: Rng): Step<ThreeCardPokerState> {
    if (amount !== params.ante + params.pairPlus) {
      throw new GameRuleError("invalid_amount", `The bet (${amount}) must equal ante + Pair Plus (${params.ante} + ${params.pairPlus})`);
    }
    const cards = dealCards(rng, 1, [], 6);
    const player = cards.slice(0, 3);
    const dealer = cards.slice(3);
    const done = params.ante === 0;
    return {
      state: { ante: params.ante, pairPlus: params.pairPlus, player, dealer, anteOutcome: null, done },
      stake: amount,
      payout: done ? pairPlusReturn(params.pairPlus, player) : 0,
      done,
    };
  },
  act(state: ThreeCardPokerState, action: ThreeCardPokerAction): Step<ThreeCardPokerState> {
    if (state.done) throw new GameRuleError("round_over", "The round is already over");
    const pairPlus = pairPlusReturn(state.pairPlus, state.player);
    if (action.type === "fold") {
      return { state: { ...state, anteOutcome: "fold", done: true }, stake: 0, payout: pairPlus, done: true };
    }
    const { outcome, antesBack } = settlePlay(state.player, state.dealer);
    return {
      state: { ...state, anteOutcome: outcome, done: true },
      stake: state.ante,
      payout: settlePayout(payoutRatio(state.ante, antesBack, 1) + pairPlus),
      done: true,
    };
  },
  /** Abandoned: the hand folds (playing would stake more coins); the ante is lost, Pair Plus is still paid. */
  defaultAction: () => ({ type: "fold" }),
  view(state: ThreeCardPokerState, done: boolean) {
    const base = {
      ante: state.ante,
      pairPlus: state.pairPlus,
      player: state.player,
      playerHand: evaluateThree(state.player).category,
    };
    if (!done) return base;
    return {
      ...base,
      dealer: state.dealer,
      dealerHand: evaluateThree(state.dealer).category,
      dealerQualifies: evaluateThree(state.dealer).value >= DEALER_QUALIFIES_AT,
      anteOutcome: state.anteOutcome,
    };
  },
  maxPayout: (_amount, params) => {
    const anteMax = params.ante > 0 ? payoutRatio(params.ante, 4 + ANTE_BONUS["straight-flush"]!, 1) : 0;
    const pairPlusMax = payoutRatio(params.pairPlus, 1 + PAIR_PLUS_PAYS["straight-flush"]!, 1);
    return settlePayout(anteMax + pairPlusMax);
  },
  chips: {
    stake: (p) => chipSum([p.ante, p.pairPlus]),
    scale: (p, factor) => ({ ...p, ante: scaleChip(p.ante, factor), pairPlus: scaleChip(p.pairPlus, factor) }),
  },
  describe: describeThreeCardPoker,
};

function describeThreeCardPoker({ state: s, step }: StepContext<ThreeCardPokerState>): string[] {
  const lines = [
    `player: ${cards(s.player)} (${evaluateThree(s.player).category})`,
    `dealer: ${cards(s.dealer)} (${evaluateThree(s.dealer).category})`,
  ];
  if (s.anteOutcome) lines.push(`${s.anteOutcome === "fold" ? "folded" : `played ${step.stake}: ${s.anteOutcome}`}`);
  if (step.done) lines.push(`round ${pays(step.payout)}`);
  return lines;
}

export default threeCardPokerEngine;
