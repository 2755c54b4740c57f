import { pickIndex, type Rng } from "../fairness/stream";

/**
 * Cards as codes 0..51, rank-major with suit order ♦♥♠♣ (game-rules B3): code = (rank − 2) × 4 + suit,
 * rank 2..14 (11 J, 12 Q, 13 K, 14 A). Written once for every card game.
 */
export type Card = number;
export const SUITS = ["♦", "♥", "♠", "♣"] as const;
export const RANK_NAMES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] as const;

export const rankOf = (card: Card): number => Math.floor(card / 4) + 2;
export const suitOf = (card: Card): number => card % 4;
export const cardCode = (rank: number, suit: number): Card => (rank - 2) * 4 + suit;
export const cardName = (card: Card): string => `${RANK_NAMES[rankOf(card) - 2]}${SUITS[suitOf(card)]}`;
export const FULL_DECK: readonly Card[] = Array.from({ length: 52 }, (_, i) => i);

/**
 * Deals one card from a shoe of `decks` decks from which `dealt` are gone: the remaining shoe in
 * canonical order (by code, each code as many times as it is left), index floor(f × remaining).
 * One float per card, without replacement.
 */
export function dealFromShoe(rng: Rng, decks: number, dealt: readonly Card[]): Card {
  const counts = new Array<number>(52).fill(decks);
  for (const card of dealt) counts[card]! -= 1;
  const remaining = decks * 52 - dealt.length;
  if (remaining <= 0) throw new Error("the shoe is empty");
  let index = pickIndex(rng, remaining);
  for (let code = 0; code < 52; code++) {
    if (index < counts[code]!) return code;
    index -= counts[code]!;
  }
  throw new Error("unreachable: index beyond the shoe");
}

/** Deals `count` cards in order from the shoe, each removed before the next is drawn. */
export function dealCards(rng: Rng, decks: number, dealt: readonly Card[], count: number): Card[] {
  const gone = [...dealt];
  const cards: Card[] = [];
  for (let i = 0; i < count; i++) {
    const card = dealFromShoe(rng, decks, gone);
    gone.push(card);
    cards.push(card);
  }
  return cards;
}
