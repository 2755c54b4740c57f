import { rankOf, suitOf, type Card } from "./cards";

/**
 * Poker hand ranking for every poker game (Caribbean Stud, Three Card Poker, Jacks or Better). A hand's
 * value is one integer: category × 16^k plus its tie-break ranks in base 16 (most significant first),
 * so comparing two values compares the hands exactly and equal values are exact ties.
 *
 * The rank-level functions take ranks (2..14) and a flush flag rather than cards, so the RTP analyses can
 * evaluate whole rank classes without building cards.
 */

export const FIVE_CARD_CATEGORIES = [
  "high-card",
  "pair",
  "two-pair",
  "three-of-a-kind",
  "straight",
  "flush",
  "full-house",
  "four-of-a-kind",
  "straight-flush",
  "royal-flush",
] as const;
export type FiveCardCategory = (typeof FIVE_CARD_CATEGORIES)[number];

/** Three Card Poker order: a straight beats a flush, because it is rarer with three cards. */
export const THREE_CARD_CATEGORIES = ["high-card", "pair", "flush", "straight", "three-of-a-kind", "straight-flush"] as const;
export type ThreeCardCategory = (typeof THREE_CARD_CATEGORIES)[number];

export interface HandRank<C extends string> {
  category: C;
  /** Higher is better; equal values are exact ties. */
  value: number;
}

const FIVE_SHIFT = 16 ** 5;
const THREE_SHIFT = 16 ** 3;

// Scratch space reused by every evaluation: the RTP analyses evaluate millions of hands.
const counts = new Int8Array(15);
const groupRank = new Int8Array(5);
const groupCount = new Int8Array(5);

/**
 * Groups the ranks by (multiplicity desc, rank desc) into groupRank/groupCount and returns the number of
 * groups. Poker tie-breaks compare exactly this sequence (the pair before its kickers, and so on).
 */
function group(ranks: readonly number[]): number {
  counts.fill(0);
  for (let i = 0; i < ranks.length; i++) counts[ranks[i]!]! += 1;
  let n = 0;
  for (let r = 14; r >= 2; r--) {
    const c = counts[r]!;
    if (c === 0) continue;
    // Stable insertion by multiplicity keeps equal multiplicities in descending rank order.
    let j = n;
    while (j > 0 && groupCount[j - 1]! < c) {
      groupRank[j] = groupRank[j - 1]!;
      groupCount[j] = groupCount[j - 1]!;
      j--;
    }
    groupRank[j] = r;
    groupCount[j] = c;
    n++;
  }
  return n;
}

function groupedTieBreak(n: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = value * 16 + (i < n ? groupRank[i]! : 0);
  return value;
}

/** Top rank of a straight among distinct, grouped ranks (descending), or 0. The wheel counts as 5-high. */
function straightTop(n: number, length: number): number {
  if (n !== length) return 0;
  const high = groupRank[0]!;
  const low = groupRank[length - 1]!;
  if (high - low === length - 1) return high;
  // Ace plays low: A-5-4-3-2 and A-3-2 (the remaining ranks must run down to 2).
  if (high === 14 && groupRank[1] === length && low === 2) return length;
  return 0;
}

/** Value of a five-card hand from its ranks and whether all five cards share a suit. */
export function fiveCardValue(ranks: readonly number[], flush: boolean): number {
  const n = group(ranks);
  const top = straightTop(n, 5);
  let category: number;
  if (top > 0) category = flush ? (top === 14 ? 9 : 8) : 4;
  else if (flush) category = 5;
  else if (n === 2) category = groupCount[0] === 4 ? 7 : 6;
  else if (n === 3) category = groupCount[0] === 3 ? 3 : 2;
  else if (n === 4) category = 1;
  else category = 0;
  const tieBreak = top > 0 ? top * 16 ** 4 : groupedTieBreak(n, 5);
  return category * FIVE_SHIFT + tieBreak;
}

export const fiveCardCategoryIndex = (value: number): number => Math.floor(value / FIVE_SHIFT);
export const fiveCardCategory = (value: number): FiveCardCategory => FIVE_CARD_CATEGORIES[fiveCardCategoryIndex(value)]!;

function isFlush(cards: readonly Card[]): boolean {
  const suit = suitOf(cards[0]!);
  return cards.every((c) => suitOf(c) === suit);
}

export function evaluateFive(cards: readonly Card[]): HandRank<FiveCardCategory> {
  if (cards.length !== 5) throw new Error(`a five-card hand needs 5 cards, got ${cards.length}`);
  const value = fiveCardValue(cards.map(rankOf), isFlush(cards));
  return { category: fiveCardCategory(value), value };
}

/** Value of a three-card hand from its ranks and whether all three cards share a suit. */
export function threeCardValue(ranks: readonly number[], flush: boolean): number {
  const n = group(ranks);
  const top = straightTop(n, 3);
  let category: number;
  if (top > 0) category = flush ? 5 : 3;
  else if (n === 1) category = 4;
  else if (flush) category = 2;
  else if (n === 2) category = 1;
  else category = 0;
  const tieBreak = top > 0 ? top * 16 ** 2 : groupedTieBreak(n, 3);
  return category * THREE_SHIFT + tieBreak;
}

export const threeCardCategoryIndex = (value: number): number => Math.floor(value / THREE_SHIFT);
export const threeCardCategory = (value: number): ThreeCardCategory => THREE_CARD_CATEGORIES[threeCardCategoryIndex(value)]!;

export function evaluateThree(cards: readonly Card[]): HandRank<ThreeCardCategory> {
  if (cards.length !== 3) throw new Error(`a three-card hand needs 3 cards, got ${cards.length}`);
  const value = threeCardValue(cards.map(rankOf), isFlush(cards));
  return { category: threeCardCategory(value), value };
}

/** Negative when a is worse, positive when better, 0 on an exact tie (values from the same evaluator). */
export const compareHands = (a: { value: number }, b: { value: number }): number => Math.sign(a.value - b.value);

/**
 * The value of the weakest high-card hand led by these ranks: a dealer "qualifies with A-K" when its value
 * is at least highCardFloorFive(14, 13); "Q-6-4 or better" is at least highCardFloorThree(12, 6, 4).
 */
export const highCardFloorFive = (...leading: number[]): number => leading.reduce((v, r, i) => v + r * 16 ** (4 - i), 0);
export const highCardFloorThree = (...leading: number[]): number => leading.reduce((v, r, i) => v + r * 16 ** (2 - i), 0);

/** C(n, k) for n ≤ 52, k ≤ 5 (0 when k > n): how many hands, holds and draws the poker analyses count. */
export const BINOM: readonly (readonly number[])[] = Array.from({ length: 53 }, (_, n) =>
  Array.from({ length: 6 }, (_, k) => {
    let c = 1;
    for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
    return k > n ? 0 : Math.round(c);
  }),
);
