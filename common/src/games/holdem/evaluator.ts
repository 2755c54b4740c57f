import { rankOf, suitOf, type Card } from "../cards";
import { fiveCardCategory, fiveCardValue, type FiveCardCategory } from "../poker-hands";

/**
 * Hold'em's hand evaluator: the best five cards of five to seven (two hole cards and the board). It
 * picks the five cards directly from the rank and suit counts (no loop over the 21 five-card subsets)
 * and ranks them with the five-card ranking every poker game shares (poker-hands.ts), so a Hold'em hand's
 * `value` compares exactly like Caribbean Stud's: higher is better, equal values split the pot.
 */

export interface BestHand {
  category: FiveCardCategory;
  /** Comparable across hands: higher wins, equal is an exact tie. */
  value: number;
  /**
   * The five cards that make the hand, in the order they are read: the group first (the quads, the
   * trips then the pair, the higher pair), then the kickers high to low; a straight from its top card
   * down (the wheel ends with its ace: 5 4 3 2 A).
   */
  cards: Card[];
}

const byRankDesc = (a: Card, b: Card) => rankOf(b) - rankOf(a) || suitOf(a) - suitOf(b);

/** The five cards of the highest straight among `cards` (sorted high to low), or null. */
function straightOf(sorted: readonly Card[]): Card[] | null {
  const byRank = new Map<number, Card>();
  for (const c of sorted) if (!byRank.has(rankOf(c))) byRank.set(rankOf(c), c);
  for (let top = 14; top >= 5; top--) {
    const run: Card[] = [];
    for (let r = top; r > top - 5; r--) {
      const card = byRank.get(r === 1 ? 14 : r);
      if (card === undefined) break;
      run.push(card);
    }
    if (run.length === 5) return run;
  }
  return null;
}

/** The five cards of the best hand without a flush: groups by (size, rank), then the kickers. */
function groupedBest(sorted: readonly Card[]): Card[] {
  const groups = new Map<number, Card[]>();
  for (const c of sorted) groups.set(rankOf(c), [...(groups.get(rankOf(c)) ?? []), c]);
  const ordered = [...groups.values()].sort((a, b) => b.length - a.length || rankOf(b[0]!) - rankOf(a[0]!));
  const top = ordered[0]!;
  const second = ordered[1];
  // Quads take one kicker; a full house its pair (the best second group of at least two); trips two
  // kickers; two pair one kicker; a pair three: always the highest cards left.
  let made: Card[];
  if (top.length >= 3 && second && second.length >= 2) {
    const pair = ordered
      .slice(1)
      .filter((g) => g.length >= 2)
      .sort((a, b) => rankOf(b[0]!) - rankOf(a[0]!))[0]!;
    made = top.length === 4 ? top : [...top, ...pair.slice(0, 2)];
  } else if (top.length === 2 && second && second.length === 2) made = [...top, ...second];
  else made = top;
  const kickers = sorted.filter((c) => !made.includes(c));
  return [...made, ...kickers].slice(0, 5);
}

/** The best five-card hand of five to seven distinct cards. */
export function bestHand(cards: readonly Card[]): BestHand {
  if (cards.length < 5 || cards.length > 7) throw new Error(`the best hand needs 5 to 7 cards, got ${cards.length}`);
  if (new Set(cards).size !== cards.length) throw new Error("the cards must be distinct");
  const sorted = [...cards].sort(byRankDesc);
  const suitCounts = [0, 0, 0, 0];
  for (const c of sorted) suitCounts[suitOf(c)]! += 1;
  const flushSuit = suitCounts.findIndex((n) => n >= 5);
  let five: Card[];
  let flush = false;
  if (flushSuit >= 0) {
    // With seven cards, five of one suit leave too few for quads or a full house: the flush (or the
    // straight flush within it) is the best hand.
    const suited = sorted.filter((c) => suitOf(c) === flushSuit);
    five = straightOf(suited) ?? suited.slice(0, 5);
    flush = true;
  } else {
    const grouped = groupedBest(sorted);
    const straight = straightOf(sorted);
    // A straight beats trips, two pair, a pair and high card, and loses to a full house or quads.
    const groupedIsFullOrQuads = rankOf(grouped[0]!) === rankOf(grouped[2]!) && rankOf(grouped[3]!) === rankOf(grouped[4]!);
    const groupedIsQuads = rankOf(grouped[0]!) === rankOf(grouped[3]!);
    five = straight && !groupedIsFullOrQuads && !groupedIsQuads ? straight : grouped;
  }
  const value = fiveCardValue(five.map(rankOf), flush);
  return { category: fiveCardCategory(value), value, cards: five };
}
