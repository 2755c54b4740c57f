import { z } from "zod";
import { drawWithoutReplacement, type Rng } from "../../fairness/stream";
import { payoutRatio } from "../../limits";
import { FULL_DECK, rankOf, suitOf, type Card } from "../cards";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { BINOM, fiveCardCategory, fiveCardValue, type FiveCardCategory } from "../poker-hands";
import { cards, pays } from "../describe";

/**
 * Video Poker, Jacks or Better 9/6 (game-rules A5), one deck. Ten floats drive the round exactly as
 * game-rules B3 describes the removal draw over the 52-card list: floats 1–5 deal the hand, floats 6–10
 * draw five replacements (always all five, so the stream position does not depend on the hold), and the
 * k-th card the player discards is replaced by the k-th replacement. The bet is in credits (coins); the
 * royal flush pays 800 per credit at any bet, which the usual machines pay only at five credits.
 */
export const PAYS: Record<FiveCardCategory | "jacks-or-better", number> = {
  "royal-flush": 800,
  "straight-flush": 50,
  "four-of-a-kind": 25,
  "full-house": 9,
  flush: 6,
  straight: 4,
  "three-of-a-kind": 3,
  "two-pair": 2,
  "jacks-or-better": 1,
  pair: 0,
  "high-card": 0,
};

export type VideoPokerHand = FiveCardCategory | "jacks-or-better";

/** The pay-table line of a five-card value: a pair counts only as jacks or better. */
export function payLine(value: number): VideoPokerHand {
  const category = fiveCardCategory(value);
  if (category !== "pair") return category;
  const pairRank = Math.floor(value / 16 ** 4) % 16;
  return pairRank >= 11 ? "jacks-or-better" : "pair";
}

const scratchRanks = [0, 0, 0, 0, 0];

/** The pay-table line five cards make (allocation-free: the analyses call it for every hand). */
export function payLineOf(cards: readonly Card[]): VideoPokerHand {
  for (let i = 0; i < 5; i++) scratchRanks[i] = rankOf(cards[i]!);
  const s = suitOf(cards[0]!);
  const flush = suitOf(cards[1]!) === s && suitOf(cards[2]!) === s && suitOf(cards[3]!) === s && suitOf(cards[4]!) === s;
  return payLine(fiveCardValue(scratchRanks, flush));
}

/** Credits paid per credit bet for five cards. */
export const payPerCredit = (cards: readonly Card[]): number => PAYS[payLineOf(cards)];

export const videoPokerParams = z.object({}).strict();
export type VideoPokerParams = z.infer<typeof videoPokerParams>;

export const videoPokerActions = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("draw"),
      hold: z
        .array(z.boolean(), { message: "hold must list five true/false flags" })
        .length(5, "hold must list exactly five flags, one per card"),
    })
    .strict(),
]);
export type VideoPokerAction = z.infer<typeof videoPokerActions>;

export interface VideoPokerState {
  bet: number;
  hand: Card[];
  held: boolean[] | null;
  /** Cards 6–10 of the removal draw; drawn at the draw step. */
  replacements: Card[] | null;
  final: Card[] | null;
}

export const videoPokerEngine: GameEngine<VideoPokerParams, VideoPokerState, VideoPokerAction> = {
  id: "video-poker",
  params: videoPokerParams,
  actions: videoPokerActions,
  start(amount: number, _params: VideoPokerParams, rng: Rng): Step<VideoPokerState> {
    const hand = drawWithoutReplacement(rng, FULL_DECK, 5);
    const state: VideoPokerState = { bet: amount, hand, held: null, replacements: null, final: null };
    return { state, stake: amount, payout: 0, done: false };
  },
  act(state: VideoPokerState, action: VideoPokerAction, rng: Rng): Step<VideoPokerState> {
    if (state.final !== null) throw new GameRuleError("round_over", "The round is already over");
    // The remaining list keeps deck order, which is what the single ten-card removal draw would leave.
    const remaining = FULL_DECK.filter((card) => !state.hand.includes(card));
    const replacements = drawWithoutReplacement(rng, remaining, 5);
    let next = 0;
    const final = state.hand.map((card, i) => (action.hold[i] ? card : replacements[next++]!));
    return {
      state: { ...state, held: [...action.hold], replacements, final },
      stake: 0,
      payout: payoutRatio(state.bet, payPerCredit(final), 1),
      done: true,
    };
  },
  /** Abandoned: the dealt hand stands as it is (all five cards held) and is paid by the table. */
  defaultAction: () => ({ type: "draw", hold: [true, true, true, true, true] }),
  view(state: VideoPokerState, done: boolean) {
    const dealt = { bet: state.bet, hand: state.hand, dealtHand: payLineOf(state.hand) };
    if (!done || state.final === null) return dealt;
    return {
      ...dealt,
      held: state.held,
      replacements: state.replacements,
      final: state.final,
      finalHand: payLineOf(state.final),
      paysPerCredit: payPerCredit(state.final),
    };
  },
  maxPayout: (amount) => payoutRatio(amount, PAYS["royal-flush"], 1),
  describe: describeVideoPoker,
};

// ---------------------------------------------------------------------------------------------------
// Optimal holds. For a hold S of the dealt cards D, the final hands are the 5-card sets H ⊇ S that avoid
// the discards D \ S. By inclusion–exclusion, Σ pay(H) over them = Σ_{S ⊆ T ⊆ D} (−1)^{|T∖S|} G(T),
// where G(T) = Σ pay(H) over every 5-card hand H ⊇ T. G of every card set of size 0–4 is tabulated once
// (one pass over the 2,598,960 hands), after which all 32 holds of a deal cost a few dozen operations.

export interface DrawTables {
  /** sums[k][colex index of a k-card set] = Σ pay over the 5-card hands containing it (k = 0..4). */
  sums: Float64Array[];
  /** pay per credit of every 5-card hand, by colex index. */
  pay: Uint16Array;
}

const POPCOUNT = Array.from({ length: 32 }, (_, m) => [0, 1, 2, 3, 4].filter((i) => m & (1 << i)).length);

let tables: DrawTables | null = null;

/** Builds (once) the G table; about half a second. */
export function drawTables(): DrawTables {
  if (tables) return tables;
  const sums = [0, 1, 2, 3, 4].map((k) => new Float64Array(BINOM[52]![k]!));
  const pay = new Uint16Array(BINOM[52]![5]!);
  const hand = [0, 0, 0, 0, 0];
  // index[mask] = colex index of the chosen cards, extended as each loop adds a larger card.
  const index = new Int32Array(32);
  const extend = (card: number, position: number) => {
    hand[position] = card;
    const bit = 1 << position;
    for (let mask = 0; mask < bit; mask++) index[mask | bit] = index[mask]! + BINOM[card]![POPCOUNT[mask]! + 1]!;
  };
  for (let c0 = 0; c0 < 48; c0++) {
    extend(c0, 0);
    for (let c1 = c0 + 1; c1 < 49; c1++) {
      extend(c1, 1);
      for (let c2 = c1 + 1; c2 < 50; c2++) {
        extend(c2, 2);
        for (let c3 = c2 + 1; c3 < 51; c3++) {
          extend(c3, 3);
          for (let c4 = c3 + 1; c4 < 52; c4++) {
            extend(c4, 4);
            const p = payPerCredit(hand);
            if (p === 0) continue;
            pay[index[31]!] = p;
            for (let mask = 0; mask < 31; mask++) sums[POPCOUNT[mask]!]![index[mask]!] += p;
          }
        }
      }
    }
  }
  tables = { sums, pay };
  return tables;
}

const popcount = (mask: number): number => POPCOUNT[mask]!;

/** Colex index of the cards of `sorted` (ascending) selected by `mask`, among sets of that size. */
function colexIndex(sorted: readonly number[], mask: number): number {
  let index = 0;
  let j = 0;
  for (let i = 0; i < 5; i++) {
    if (mask & (1 << i)) {
      j += 1;
      index += BINOM[sorted[i]!]![j]!;
    }
  }
  return index;
}

/** C(47, 5 − |S|): the number of equally likely draws for a hold of |S| cards. */
const DRAWS_FOR_HOLD: readonly number[] = POPCOUNT.map((k) => BINOM[47]![5 - k]!);

/**
 * Fills `totals[mask]` with Σ pay over the draws for every hold (bit i = hold sorted[i]), given G of
 * every subset in `totals`; an in-place superset Möbius transform.
 */
function holdTotalsFromSubsetSums(totals: Float64Array): void {
  for (let bit = 1; bit < 32; bit <<= 1) {
    for (let mask = 0; mask < 32; mask++) if (!(mask & bit)) totals[mask]! -= totals[mask | bit]!;
  }
}

export interface HoldAdvice {
  /** hold[i] refers to cards[i] as given. */
  hold: boolean[];
  /** Expected credits back per credit bet with this hold. */
  expectedReturn: number;
}

/**
 * Expected credits back per credit for all 32 holds: entry `mask` holds cards[i] when bit i is set.
 * Exact: every draw of the C(47, 5 − held) is counted through the tabulated pay sums.
 */
export function holdReturns(cards: readonly Card[]): number[] {
  if (cards.length !== 5 || new Set(cards).size !== 5 || cards.some((c) => !Number.isInteger(c) || c < 0 || c > 51)) {
    throw new Error("a video poker hand is five different cards");
  }
  const { sums, pay } = drawTables();
  const order = [0, 1, 2, 3, 4].sort((a, b) => cards[a]! - cards[b]!);
  const sorted = order.map((i) => cards[i]!);
  const totals = new Float64Array(32);
  for (let mask = 0; mask < 31; mask++) totals[mask] = sums[popcount(mask)]![colexIndex(sorted, mask)]!;
  totals[31] = pay[colexIndex(sorted, 31)]!;
  holdTotalsFromSubsetSums(totals);
  const returns = new Array<number>(32);
  for (let sortedMask = 0; sortedMask < 32; sortedMask++) {
    let mask = 0;
    for (let i = 0; i < 5; i++) if (sortedMask & (1 << i)) mask |= 1 << order[i]!;
    returns[mask] = totals[sortedMask]! / DRAWS_FOR_HOLD[sortedMask]!;
  }
  return returns;
}

/** The hold that maximises the expected return (ties: the first in hold-mask order). */
export function optimalHold(cards: readonly Card[]): HoldAdvice {
  const returns = holdReturns(cards);
  let best = 0;
  for (let mask = 1; mask < 32; mask++) if (returns[mask]! > returns[best]!) best = mask;
  return { hold: [0, 1, 2, 3, 4].map((i) => (best & (1 << i)) !== 0), expectedReturn: returns[best]! };
}

function describeVideoPoker({ state: s, step }: StepContext<VideoPokerState>): string[] {
  if (!s.final) return [`dealt: ${cards(s.hand)} (${payLineOf(s.hand)})`];
  const held = s.hand.filter((_, i) => s.held![i]);
  return [
    `held: ${held.length ? cards(held) : "nothing"}`,
    `replacements drawn: ${cards(s.replacements!)} (the k-th discard takes the k-th)`,
    `final: ${cards(s.final)} (${payLineOf(s.final)}), ${pays(step.payout)}`,
  ];
}

export default videoPokerEngine;
