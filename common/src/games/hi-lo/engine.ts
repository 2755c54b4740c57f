import { z } from "zod";
import { payDown, payExact, payUp, type Payer } from "../../fairness/rounding";
import { pickIndex, type Rng } from "../../fairness/stream";
import { MAX_PAYOUT } from "../../limits";
import { cardName, rankOf, type Card } from "../cards";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { pays } from "../describe";

/**
 * Hi-Lo on an unlimited deck: every card is an independent pick of one of the 52 codes (game-rules B3),
 * ranks 2 (lowest) … A (highest). The player guesses whether the next card is "higher or same" or
 * "lower or same" than the current one, skips a card, or cashes out after at least one correct guess.
 *
 * A correct guess with probability p = k/13 (k = ranks that win) multiplies the fair multiplier by 13/k;
 * the 1 % edge is applied once, at cash-out: the payout is amount × 0.99 × Π 13/kᵢ, made whole by the
 * round's rule (rule 2: one of the two whole coins around it, the exact value on average; rule 1, rounded
 * down, only for rounds played before it). The fair product is a martingale, so every strategy returns
 * exactly 99 %, at every stake.
 *
 * A guess that cannot lose (higher or same on a 2, lower or same on an ace) is refused: it has p = 1,
 * adds nothing to the multiplier, and would only be a skip that dodges the skip limit and unlocks a
 * cash-out at 0.99× without any risk taken.
 */
export const RANKS = 13;
/** Skips per round: skipping is free, so it is bounded to keep every round (and its state) finite. */
export const MAX_SKIPS = 52;
const LOWEST_RANK = 2;
const HIGHEST_RANK = 14;

export type Guess = "higher" | "lower";
export type HiLoMove = Guess | "skip";

export const hiLoParams = z.object({}).strict();
export type HiLoParams = z.infer<typeof hiLoParams>;

export const hiLoActions = z.discriminatedUnion("type", [
  z.object({ type: z.literal("higher") }).strict(),
  z.object({ type: z.literal("lower") }).strict(),
  z.object({ type: z.literal("skip") }).strict(),
  z.object({ type: z.literal("cashout") }).strict(),
]);
export type HiLoAction = z.infer<typeof hiLoActions>;

export interface HiLoState {
  amount: number;
  /** Every card dealt, in order; the last one is the current card. */
  cards: Card[];
  /** moves[i] is what the player did on cards[i], which dealt cards[i + 1]. */
  moves: HiLoMove[];
  /**
   * The fair multiplier Π 13/kᵢ as decimal strings (BigInt does not survive JSON). 13 is prime and
   * every k is below 13, so the fraction is always in lowest terms.
   */
  numerator: string;
  denominator: string;
  correct: number;
  skips: number;
  status: "open" | "lost" | "cashed";
}

/** Ranks (of 13) on which the guess wins from `rank`: the current rank counts for both guesses. */
export function winningRanks(rank: number, guess: Guess): number {
  return guess === "higher" ? HIGHEST_RANK - rank + 1 : rank - LOWEST_RANK + 1;
}

export function guessWins(rank: number, guess: Guess, nextRank: number): boolean {
  return guess === "higher" ? nextRank >= rank : nextRank <= rank;
}

/**
 * amount × 0.99 × numerator / denominator made whole by `pay` (rounded down unless given: what the panel
 * shows), capped at MAX_PAYOUT; exact at any length of round.
 */
export function cashValue(amount: number, numerator: bigint, denominator: bigint, pay: Payer = payDown): number {
  return pay(amount, 99n * numerator, 100n * denominator);
}

const stateCashValue = (s: HiLoState, pay: Payer = payDown): number =>
  s.correct === 0 ? 0 : cashValue(s.amount, BigInt(s.numerator), BigInt(s.denominator), pay);

const currentCard = (s: HiLoState): Card => s.cards[s.cards.length - 1]!;

const dealCard = (rng: Rng): Card => pickIndex(rng, 52);

/** The multiplier (edge included) a correct guess would reach, for display; 0 when the guess is refused. */
function nextMultiplier(s: HiLoState, guess: Guess): number {
  const k = winningRanks(rankOf(currentCard(s)), guess);
  if (k === RANKS) return 0;
  return ratioToNumber(99n * BigInt(s.numerator) * 13n, 100n * BigInt(s.denominator) * BigInt(k));
}

/** A fraction as a number with four decimals, rounded down (what the player is shown). */
function ratioToNumber(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 10_000n) / denominator) / 10_000;
}

export const hiLoEngine: GameEngine<HiLoParams, HiLoState, HiLoAction> = {
  id: "hi-lo",
  params: hiLoParams,
  actions: hiLoActions,
  start(amount: number, _params: HiLoParams, rng: Rng): Step<HiLoState> {
    const state: HiLoState = {
      amount,
      cards: [dealCard(rng)],
      moves: [],
      numerator: "1",
      denominator: "1",
      correct: 0,
      skips: 0,
      status: "open",
    };
    return { state, stake: amount, payout: 0, done: false };
  },
  act(state: HiLoState, action: HiLoAction, rng: Rng, pay: Payer = payDown): Step<HiLoState> {
    if (state.status !== "open") throw new GameRuleError("round_over", "The round is already over");
    const open = (next: HiLoState): Step<HiLoState> => ({ state: next, stake: 0, payout: 0, done: false });

    if (action.type === "cashout") {
      if (state.correct === 0) {
        throw new GameRuleError("nothing_to_cash_out", "Make at least one correct guess before cashing out");
      }
      return { state: { ...state, status: "cashed" }, stake: 0, payout: stateCashValue(state, pay), done: true };
    }

    if (action.type === "skip") {
      if (state.skips >= MAX_SKIPS) {
        throw new GameRuleError("skip_limit", `A round allows at most ${MAX_SKIPS} skips`);
      }
      const card = dealCard(rng);
      return open({ ...state, cards: [...state.cards, card], moves: [...state.moves, "skip"], skips: state.skips + 1 });
    }

    const guess: Guess = action.type;
    const rank = rankOf(currentCard(state));
    const k = winningRanks(rank, guess);
    if (k === RANKS) {
      throw new GameRuleError(
        "certain_guess",
        guess === "higher"
          ? "Higher or same cannot lose on a 2: guess lower or skip the card"
          : "Lower or same cannot lose on an ace: guess higher or skip the card",
      );
    }
    const card = dealCard(rng);
    const dealt = { ...state, cards: [...state.cards, card], moves: [...state.moves, guess] };
    if (!guessWins(rank, guess, rankOf(card))) {
      return { state: { ...dealt, status: "lost" }, stake: 0, payout: 0, done: true };
    }
    const next: HiLoState = {
      ...dealt,
      numerator: (BigInt(state.numerator) * 13n).toString(),
      denominator: (BigInt(state.denominator) * BigInt(k)).toString(),
      correct: state.correct + 1,
    };
    // At the payout cap another guess could only lose coins, never win more: the round cashes out.
    if (stateCashValue(next) >= MAX_PAYOUT) return { state: { ...next, status: "cashed" }, stake: 0, payout: MAX_PAYOUT, done: true };
    return open(next);
  },
  /** Abandoned: cashed out after a correct guess; before any correct guess the round is void (stake refunded). */
  defaultAction: (state) => (state.correct > 0 ? { type: "cashout" } : null),
  view(state: HiLoState) {
    // Nothing is secret: the next card does not exist until the stream deals it.
    const { numerator, denominator, ...rest } = state;
    return {
      ...rest,
      card: currentCard(state),
      // What a cash-out pays per coin now; 0 while cashing out is not allowed yet.
      multiplier: state.correct === 0 ? 0 : ratioToNumber(99n * BigInt(numerator), 100n * BigInt(denominator)),
      // a cash-out now pays cashValue or cashValueUp (cashValueExact rounded down and up, rule 2)
      cashValue: stateCashValue(state),
      cashValueUp: stateCashValue(state, payUp),
      cashValueExact: stateCashValue(state, payExact),
      higher: nextMultiplier(state, "higher"),
      lower: nextMultiplier(state, "lower"),
      skipsLeft: MAX_SKIPS - state.skips,
    };
  },
  // The multiplier has no ceiling: only the payout cap bounds a round.
  maxPayout: () => MAX_PAYOUT,
  describe: describeHiLo,
};

function describeHiLo({ previous, state: s, step, action }: StepContext<HiLoState>): string[] {
  const rankName = (card: Card) => cardName(card).slice(0, -1);
  if (!previous) return [`first card: ${cardName(s.cards[0]!)}`];
  const before = previous;
  const current = before.cards[before.cards.length - 1]!;
  const a = (action as { type: string }).type;
  if (a === "cashout") return [`cash out after ${before.correct} correct guess${before.correct === 1 ? "" : "es"}: ${pays(step.payout)}`];
  const next = s.cards[s.cards.length - 1]!;
  if (a === "skip") return [`skip ${cardName(current)}: next card ${cardName(next)}`];
  const right = s.status !== "lost";
  const lines = [
    `${a} or same as ${cardName(current)} (rank ${rankName(current)}): next card ${cardName(next)}, ${right ? "correct" : "wrong"}`,
  ];
  if (right) lines.push(`multiplier now 0.99 × ${s.numerator}/${s.denominator}`);
  if (step.done) lines.push(right ? `payout cap reached: cashed out, ${pays(step.payout)}` : "round lost");
  return lines;
}

export default hiLoEngine;
