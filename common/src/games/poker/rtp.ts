import { rankOf, suitOf, type Card } from "../cards";
import { BINOM, evaluateFive, fiveCardCategory, fiveCardCategoryIndex, fiveCardValue, highCardFloorFive } from "../poker-hands";
import { DEALER_QUALIFIES_AT, RAISE_PAYS } from "./engine";
import type { RtpRow } from "../../rtp/types";

/**
 * Exact return of Caribbean Stud ("poker") per unit of ante. The 19,933,230,517,200 equally likely
 * (player hand, dealer up card, dealer hole cards) deals are counted by rank class instead of one by one:
 *
 * - A hand's value depends only on its five ranks and whether it is a flush, so player/dealer pairs are
 *   counted per pair of rank multisets (6,175 each): Π_r C(4, x_r)·C(4 − x_r, y_r) card pairs, of which
 *   exactly 4·Π C(4 − x_r, y_r) give a player flush, 4·Π C(4 − y_r, x_r) a dealer flush, and 12 + 4·[the
 *   rank sets are disjoint] both (same suit needs disjoint ranks).
 * - Pairs or better (every straight and flush included) are always raised and hands below A-K always
 *   folded, so the up card does not matter for them. For an A-K-high hand the best decision depends on
 *   the up card: the dealer hands holding that card are counted by rank multiset (by the up card's rank),
 *   then corrected for the dealer's flushes, which depend only on which of the player's ranks share the
 *   up card's suit. Each such (hand, up card) is raised exactly when raising has the higher expectation.
 *
 * All counts are integers below 2⁵³, so the result is exact up to the final division.
 */
/** C(n, k) for the cards left of one rank (n ≤ 4), flat for the hot loops: SMALL[n * 5 + k]. */
const SMALL = Array.from({ length: 25 }, (_, i) => BINOM[Math.floor(i / 5)]![i % 5]!);
const c4 = (n: number, k: number): number => SMALL[n * 5 + k]!;

const HOLE_DRAWS = BINOM[46]![4]!;
const PLAYER_HANDS = BINOM[52]![5]!;
const DEALS = PLAYER_HANDS * 47 * HOLE_DRAWS;
const QUAL = DEALER_QUALIFIES_AT;
const PAIR_VALUE = 16 ** 5; // the weakest one-pair value

interface RankClass {
  counts: Int8Array; // by rank − 2
  ranks: number[]; // distinct ranks − 2
  mults: number[];
  mask: number;
  distinct: boolean;
  value: number;
  flushValue: number;
}

function rankClasses(): RankClass[] {
  const out: RankClass[] = [];
  const counts = new Int8Array(13);
  const walk = (from: number, left: number) => {
    if (left === 0) {
      const ranks: number[] = [];
      const mults: number[] = [];
      const list: number[] = [];
      let mask = 0;
      for (let r = 0; r < 13; r++) {
        if (counts[r] === 0) continue;
        ranks.push(r);
        mults.push(counts[r]!);
        mask |= 1 << r;
        for (let k = 0; k < counts[r]!; k++) list.push(r + 2);
      }
      const distinct = ranks.length === 5;
      out.push({
        counts: Int8Array.from(counts),
        ranks,
        mults,
        mask,
        distinct,
        value: fiveCardValue(list, false),
        flushValue: distinct ? fiveCardValue(list, true) : -1,
      });
      return;
    }
    for (let r = from; r < 13; r++) {
      if (counts[r]! >= 4) continue;
      counts[r]! += 1;
      walk(r, left - 1);
      counts[r]! -= 1;
    }
  };
  walk(0, 5);
  return out;
}

/** Net result in antes when a raised hand beats a qualifying dealer: ante 1:1, raise per the table. */
const winNet = (player: number): number => 1 + 2 * RAISE_PAYS[fiveCardCategory(player)];

const isAceKingHigh = (value: number): boolean => value >= QUAL && value < PAIR_VALUE;

/**
 * Σ over (player hand, dealer hand) card pairs whose player hand is a pair or better of the raise result,
 * plus the number of player hands below A-K high (always folded) and of A-K-high hands.
 */
function alwaysDecided(classes: RankClass[]): { raisedNet: number; folded: number; aceKing: number } {
  let raisedNet = 0;
  let folded = 0;
  let aceKing = 0;
  const n = classes.length;
  // Flat copies of the dealer side: this loop runs 6,175² times.
  const yRank = new Int8Array(n * 5);
  const yMult = new Int8Array(n * 5);
  const yLength = new Int8Array(n);
  const yMask = new Int32Array(n);
  const yValue = new Float64Array(n);
  const yFlushValue = new Float64Array(n);
  classes.forEach((y, j) => {
    y.ranks.forEach((r, i) => {
      yRank[j * 5 + i] = r;
      yMult[j * 5 + i] = y.mults[i]!;
    });
    yLength[j] = y.ranks.length;
    yMask[j] = y.mask;
    yValue[j] = y.value;
    yFlushValue[j] = y.flushValue;
  });
  const avail = new Int8Array(13);
  const outcome = (player: number, win: number, dealer: number) => (dealer < QUAL ? 1 : player > dealer ? win : player === dealer ? 0 : -3);
  for (const x of classes) {
    const cX = x.ranks.reduce((p, _r, i) => p * c4(4, x.mults[i]!), 1);
    if (x.distinct) {
      const nonFlushHands = cX - 4;
      if (x.value < QUAL) folded += nonFlushHands;
      else if (isAceKingHigh(x.value)) aceKing += nonFlushHands;
    }
    for (let r = 0; r < 13; r++) avail[r] = 4 - x.counts[r]!;
    const vX = x.value;
    const winX = winNet(vX);
    if (!x.distinct) {
      // A paired hand is never a flush: only the dealer's flushes need counting apart.
      for (let j = 0; j < n; j++) {
        let prod = 1;
        const len = yLength[j]!;
        for (let i = 0; i < len && prod > 0; i++) prod *= SMALL[avail[yRank[j * 5 + i]!]! * 5 + yMult[j * 5 + i]!]!;
        if (prod === 0) continue;
        let dealerFlush = 0;
        if (len === 5) {
          let q = 1;
          for (let i = 0; i < x.ranks.length; i++) q *= SMALL[(4 - ((yMask[j]! >> x.ranks[i]!) & 1)) * 5 + x.mults[i]!]!;
          dealerFlush = 4 * q;
          raisedNet += dealerFlush * outcome(vX, winX, yFlushValue[j]!);
        }
        raisedNet += (cX * prod - dealerFlush) * outcome(vX, winX, yValue[j]!);
      }
      continue;
    }
    // Distinct ranks: a flush is always raised, the rest only when it is a straight.
    const straight = vX >= PAIR_VALUE;
    const vXFlush = x.flushValue;
    const winXFlush = winNet(vXFlush);
    for (let j = 0; j < n; j++) {
      let prod = 1;
      const len = yLength[j]!;
      for (let i = 0; i < len && prod > 0; i++) prod *= SMALL[avail[yRank[j * 5 + i]!]! * 5 + yMult[j * 5 + i]!]!;
      if (prod === 0) continue;
      const playerFlush = 4 * prod;
      const vY = yValue[j]!;
      if (len < 5) {
        raisedNet += playerFlush * outcome(vXFlush, winXFlush, vY);
        if (straight) raisedNet += (cX * prod - playerFlush) * outcome(vX, winX, vY);
        continue;
      }
      // One card per rank on both sides: the dealer's flushes avoid the player's cards of their suit.
      const shared = x.mask & yMask[j]!;
      let q = 1;
      for (let i = 0; i < 5; i++) q *= (shared >> x.ranks[i]!) & 1 ? 3 : 4;
      const dealerFlush = 4 * q;
      const bothFlush = 12 + (shared === 0 ? 4 : 0);
      const vYFlush = yFlushValue[j]!;
      raisedNet += (playerFlush - bothFlush) * outcome(vXFlush, winXFlush, vY);
      raisedNet += bothFlush * outcome(vXFlush, winXFlush, vYFlush);
      if (straight) {
        raisedNet += (cX * prod - playerFlush - dealerFlush + bothFlush) * outcome(vX, winX, vY);
        raisedNet += (dealerFlush - bothFlush) * outcome(vX, winX, vYFlush);
      }
    }
  }
  return { raisedNet, folded, aceKing };
}

/**
 * For an A-K-high rank set X (ranks − 2), an up-card rank and which of X's positions share the up
 * card's suit: the summed raise result over the C(46,4) hole-card draws.
 */
interface AceKingTable {
  /** key of the rank set → index */
  setIndex: Map<number, number>;
  sets: RankClass[];
  /** raiseSum[((set × 13) + upRank) × 32 + suitedPositions] */
  raiseSum: Float64Array;
}

function aceKingTable(classes: RankClass[]): AceKingTable {
  const sets = classes.filter((x) => x.distinct && isAceKingHigh(x.value));
  const setIndex = new Map(sets.map((x, i) => [x.mask, i]));
  const raiseSum = new Float64Array(sets.length * 13 * 32);
  const distinctSets = classes.filter((y) => y.distinct);
  const byClass = new Float64Array(4); // not qualified, player wins, tie, dealer wins
  const NET = [1, winNet(highCardFloorFive(14, 13)), 0, -3];
  const classify = (player: number, dealer: number) => (dealer < QUAL ? 0 : player > dealer ? 1 : player === dealer ? 2 : 3);
  sets.forEach((x, s) => {
    for (let up = 0; up < 13; up++) {
      byClass.fill(0);
      const avail = x.counts.map((m) => 4 - m);
      avail[up]! -= 1; // the up card itself
      for (const y of classes) {
        if (y.counts[up] === 0) continue;
        let prod = 1;
        for (let i = 0; i < y.ranks.length && prod > 0; i++) {
          const r = y.ranks[i]!;
          prod *= c4(avail[r]!, y.mults[i]! - (r === up ? 1 : 0));
        }
        if (prod > 0) byClass[classify(x.value, y.value)]! += prod;
      }
      const base = Array.from(byClass);
      // Dealer flushes in the up card's suit: counted above by their ranks alone; they beat any A-K high.
      const flushMoves = Array.from({ length: 32 }, () => [0, 0, 0, 0]);
      for (const y of distinctSets) {
        if (!(y.mask & (1 << up))) continue;
        let clash = 0; // positions of X whose rank the flush also needs
        x.ranks.forEach((r, i) => {
          if (y.mask & (1 << r)) clash |= 1 << i;
        });
        const from = classify(x.value, y.value);
        for (let suited = 0; suited < 32; suited++) {
          if (suited & clash) continue; // the player holds that card of the suit
          flushMoves[suited]![from]! -= 1;
          flushMoves[suited]![3]! += 1;
        }
      }
      for (let suited = 0; suited < 32; suited++) {
        let sum = 0;
        let count = 0;
        for (let k = 0; k < 4; k++) {
          const n = base[k]! + flushMoves[suited]![k]!;
          sum += n * NET[k]!;
          count += n;
        }
        if (count !== HOLE_DRAWS) throw new Error(`hole draws miscounted: ${count}`);
        raiseSum[(s * 13 + up) * 32 + suited] = sum;
      }
    }
  });
  return { setIndex, sets, raiseSum };
}

export interface CaribbeanStudAnalysis {
  /** Return per ante of the best decision on every (hand, up card). */
  optimal: number;
  /** Raise every pair or better, fold the rest. */
  pairOrBetter: number;
  /** Raise every A-K high or better. */
  aceKingOrBetter: number;
  /** Fraction of deals raised under optimal play. */
  optimalRaiseRate: number;
  table: AceKingTable;
}

let cached: CaribbeanStudAnalysis | null = null;

export function analyseCaribbeanStud(): CaribbeanStudAnalysis {
  if (cached) return cached;
  const classes = rankClasses();
  const { raisedNet, folded, aceKing } = alwaysDecided(classes);
  const table = aceKingTable(classes);
  // Every A-K-high hand and up card: the player's suits (not all equal) and the up card's suit matter only
  // through which of the player's positions share the up card's suit, and whether the position holding
  // the up card's rank (if any) would be the up card itself. ways[pos + 1][suited] counts them.
  const ways = Array.from({ length: 6 }, () => new Float64Array(32));
  for (let code = 0; code < 1024; code++) {
    const suits = [0, 1, 2, 3, 4].map((i) => (code >> (2 * i)) & 3);
    if (suits.every((v) => v === suits[0])) continue;
    for (let suit = 0; suit < 4; suit++) {
      const suited = suits.reduce((m, v, i) => (v === suit ? m | (1 << i) : m), 0);
      for (let pos = -1; pos < 5; pos++) if (pos < 0 || !(suited & (1 << pos))) ways[pos + 1]![suited]! += 1;
    }
  }
  let optimalSum = 0;
  let raiseAllSum = 0;
  let raisedDeals = 0;
  table.sets.forEach((x, s) => {
    for (let up = 0; up < 13; up++) {
      const w = ways[x.ranks.indexOf(up) + 1]!;
      for (let suited = 0; suited < 32; suited++) {
        const count = w[suited]!;
        if (count === 0) continue;
        const sum = table.raiseSum[(s * 13 + up) * 32 + suited]!;
        raiseAllSum += count * sum;
        if (sum > -HOLE_DRAWS) {
          optimalSum += count * sum;
          raisedDeals += count * HOLE_DRAWS;
        } else optimalSum -= count * HOLE_DRAWS;
      }
    }
  });
  // Each (player, dealer) pair stands for its 5 choices of up card.
  const alwaysRaised = 5 * raisedNet;
  const alwaysFolded = -folded * 47 * HOLE_DRAWS;
  const aceKingFolded = -aceKing * 47 * HOLE_DRAWS;
  const pairPlusDeals = (PLAYER_HANDS - folded - aceKing) * 47 * HOLE_DRAWS;
  cached = {
    optimal: 1 + (alwaysRaised + alwaysFolded + optimalSum) / DEALS,
    pairOrBetter: 1 + (alwaysRaised + alwaysFolded + aceKingFolded) / DEALS,
    aceKingOrBetter: 1 + (alwaysRaised + alwaysFolded + raiseAllSum) / DEALS,
    optimalRaiseRate: (pairPlusDeals + raisedDeals) / DEALS,
    table,
  };
  return cached;
}

/** Where an A-K-high hand and up card sit in the table. */
function aceKingSlot(player: readonly Card[], up: Card): number {
  const { table } = analyseCaribbeanStud();
  const mask = player.reduce((m, c) => m | (1 << (rankOf(c) - 2)), 0);
  const s = table.setIndex.get(mask);
  if (s === undefined) throw new Error("not an A-K-high hand");
  const x = table.sets[s]!;
  let suited = 0;
  for (const c of player) if (suitOf(c) === suitOf(up)) suited |= 1 << x.ranks.indexOf(rankOf(c) - 2);
  return (s * 13 + rankOf(up) - 2) * 32 + suited;
}

/** Summed raise result (in antes) of an A-K-high hand over the up card's C(46,4) hole-card draws. */
export const aceKingRaiseSum = (player: readonly Card[], up: Card): number =>
  analyseCaribbeanStud().table.raiseSum[aceKingSlot(player, up)]!;

/**
 * The optimal decision: raise every pair or better, fold below A-K high, and with A-K high raise exactly
 * when the exact expectation over the dealer's hidden cards beats folding.
 */
export function shouldRaise(player: readonly Card[], up: Card): boolean {
  const value = evaluateFive(player).value;
  if (fiveCardCategoryIndex(value) >= 1) return true;
  if (value < QUAL) return false;
  return aceKingRaiseSum(player, up) > -HOLE_DRAWS;
}

export function rtpRows(): RtpRow[] {
  const { optimal } = analyseCaribbeanStud();
  return [
    {
      game: "poker",
      bet: "Caribbean Stud: ante + raise",
      rtp: optimal,
      reference: 1 - 0.05224,
      method:
        "return per unit of ante (house edge per initial bet), optimal raise/fold on every (hand, up card); " +
        "all 19,933,230,517,200 deals counted exactly by rank multisets with flush corrections",
    },
  ];
}
