import { cardCode, type Card } from "../cards";
import { basicStrategy, BLACKJACK_DECKS, MAX_HANDS } from "./engine";
import type { RtpRow } from "../../rtp/types";

/**
 * Expected return of basic strategy under the engine's rules, by recursive expectation over card
 * values (classes 1 = ace … 10 = any ten-value card; a J and a Q differ only in whether they pair,
 * and basic strategy never splits tens).
 *
 * The dealer peeks before the player acts. Because the player's draws never depend on the hole card,
 * dealing the hole card after the player's cards leaves every outcome's probability unchanged (swap the
 * hole card with the player's draws: a measure-preserving bijection of card orders). So each round's
 * value is E[X · 1{no dealer blackjack}] − P(dealer blackjack) × (the bet lost on it), with the hole
 * card taken as the dealer's first draw and barred from making a blackjack.
 */

const CLASSES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
/**
 * No class ever has 24 cards out in one evaluation (at most the up card, a pair and a hand of hard
 * total 21 or less), so base-24 digits identify a composition below 2⁴⁶, leaving room for 7 more bits.
 */
const KEY_BASE = 24;
const KEY_DIGIT = [0, ...CLASSES.map((v) => KEY_BASE ** (v - 1))];
/** A card of each class for the strategy chart (only points and identical ranks matter to it). */
const repCard = (v: number): Card => cardCode(v === 1 ? 14 : v, 0);

/** The shoe as seen by the expectation: finite (cards leave it) or infinite (every draw 1/13, tens 4/13). */
class Shoe {
  readonly left: number[];
  total: number;
  /** the cards out of the shoe as one number: digit v (base 24) counts class v */
  private removed = 0;
  constructor(readonly decks: number | "infinite") {
    const d = decks === "infinite" ? 1 : decks;
    this.left = [0, ...CLASSES.map((v) => (v === 10 ? 16 : 4) * d)];
    this.total = 52 * d;
  }
  get infinite(): boolean {
    return this.decks === "infinite";
  }
  prob(v: number): number {
    return this.left[v]! / this.total;
  }
  take(v: number): void {
    if (this.infinite) return;
    this.left[v]! -= 1;
    this.total -= 1;
    this.removed += KEY_DIGIT[v]!;
  }
  put(v: number): void {
    if (this.infinite) return;
    this.left[v]! += 1;
    this.total += 1;
    this.removed -= KEY_DIGIT[v]!;
  }
  /** Identifies the composition (stays 0 in an infinite deck, where all compositions are alike). */
  key(): number {
    return this.removed;
  }
}

/** Dealer final totals 17–21 and bust, as [p17, p18, p19, p20, p21, pBust]. */
export type DealerDist = [number, number, number, number, number, number];

const BUST = 5;
const makesBlackjack = (a: number, b: number) => (a === 1 && b === 10) || (a === 10 && b === 1);

/** The evaluation for one dealer up card. */
class UpCardEvaluator {
  private readonly dealerMemo = new Map<number, DealerDist>();
  private readonly playMemo = new Map<number, number>();
  private readonly upCard: Card;

  constructor(
    private readonly shoe: Shoe,
    readonly up: number,
  ) {
    this.upCard = repCard(up);
  }

  /** P(the hole card gives the dealer a blackjack) from the current shoe. */
  pBlackjack(): number {
    if (this.up === 1) return this.shoe.prob(10);
    if (this.up === 10) return this.shoe.prob(1);
    return 0;
  }

  /** Dealer outcome probabilities jointly with "no dealer blackjack", S17, from the current shoe. */
  dealer(): DealerDist {
    const key = this.shoe.key();
    const cached = this.dealerMemo.get(key);
    if (cached) return cached;
    const dist: DealerDist = [0, 0, 0, 0, 0, 0];
    const up = this.up;
    // the dealer's own draws on a scratch copy: this inner loop is where nearly all the time goes
    const left = this.shoe.left.slice();
    const deplete = this.shoe.infinite ? 0 : 1;
    let total = this.shoe.total;
    const walk = (hard: number, ace: boolean, cards: number, weight: number) => {
      for (let v = 1; v <= 10; v++) {
        const n = left[v]!;
        if (n === 0 || (cards === 1 && makesBlackjack(up, v))) continue;
        const w = (weight * n) / total;
        const h = hard + v;
        const a = ace || v === 1;
        const best = a && h + 10 <= 21 ? h + 10 : h;
        if (h > 21) dist[BUST] += w;
        else if (best >= 17) dist[best - 17] += w;
        else {
          left[v] = n - deplete;
          total -= deplete;
          walk(h, a, cards + 1, w);
          left[v] = n;
          total += deplete;
        }
      }
    };
    walk(up, up === 1, 1, 1);
    this.dealerMemo.set(key, dist);
    return dist;
  }

  /** E[net · 1{no dealer blackjack}] of standing on `total` (a bust loses the stake). */
  stand(total: number): number {
    if (total > 21) return -(1 - this.pBlackjack());
    const d = this.dealer();
    const noBlackjack = d.reduce((a, b) => a + b, 0);
    if (total < 17) return d[BUST] - (noBlackjack - d[BUST]);
    let value = d[BUST];
    for (let t = 17; t <= 21; t++) value += t < total ? d[t - 17] : t > total ? -d[t - 17] : 0;
    return value;
  }

  /**
   * E[net · 1{no dealer blackjack}] of a hand of one unit played by basic strategy without splitting,
   * the hand's cards already out of the shoe. A hand on 21 stands (the engine stands it).
   */
  play(cards: number[], doubleAllowed: boolean): number {
    let hard = 0;
    let ace = false;
    for (const v of cards) {
      hard += v;
      if (v === 1) ace = true;
    }
    const total = ace && hard + 10 <= 21 ? hard + 10 : hard;
    if (total >= 21) return this.stand(total);
    const canDouble = doubleAllowed && cards.length === 2;
    const key = ((this.shoe.key() * 32 + hard) * 2 + (ace ? 1 : 0)) * 2 + (canDouble ? 1 : 0);
    const cached = this.playMemo.get(key);
    if (cached !== undefined) return cached;
    const move = basicStrategy(cards.map(repCard), this.upCard, canDouble, false);
    let value: number;
    if (move === "stand") value = this.stand(total);
    else {
      value = 0;
      for (const v of CLASSES) {
        const p = this.shoe.prob(v);
        if (p === 0) continue;
        this.shoe.take(v);
        const next = [...cards, v];
        value += p * (move === "double" ? 2 * this.stand(this.handTotal(next)) : this.play(next, false));
        this.shoe.put(v);
      }
    }
    this.playMemo.set(key, value);
    return value;
  }

  private handTotal(cards: number[]): number {
    const hard = cards.reduce((a, b) => a + b, 0);
    return cards.includes(1) && hard + 10 <= 21 ? hard + 10 : hard;
  }

  /**
   * E[net · 1{no dealer blackjack}] of splitting a pair of class v (both cards already out), resplitting
   * to MAX_HANDS. Each split hand is valued with its own cards, the pair and the up card out of the shoe;
   * in an infinite deck that is exact, in a finite shoe it leaves out the other split hands' cards.
   */
  split(v: number): number {
    const shoe = this.shoe;
    // chance that a split hand's next card has the pair's exact rank (a ten-value class holds four ranks)
    const sameRank = v === 10 ? shoe.prob(10) / 4 : shoe.prob(v);
    if (v === 1) {
      let hand = 0;
      for (const c of CLASSES) {
        const p = shoe.prob(c);
        if (p === 0) continue;
        shoe.take(c);
        hand += p * this.stand(this.handTotal([1, c]));
        shoe.put(c);
      }
      return 2 * hand;
    }
    let anySecond = 0;
    for (const c of CLASSES) {
      const p = shoe.prob(c);
      if (p === 0) continue;
      shoe.take(c);
      anySecond += p * this.play([v, c], true);
      shoe.put(c);
    }
    let pairAgain = 0;
    if (sameRank > 0) {
      shoe.take(v);
      pairAgain = this.play([v, v], true);
      shoe.put(v);
    }
    const resplits = basicStrategy([repCard(v), repCard(v)], this.upCard, true, true) === "split";
    // f(n, k): value still to come with n hands on the table and k of them waiting for their second card
    const memo = new Map<string, number>();
    const f = (n: number, k: number): number => {
      if (k === 0) return 0;
      const key = `${n},${k}`;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      const value =
        n < MAX_HANDS && resplits
          ? sameRank * f(n + 1, k + 1) + (anySecond - sameRank * pairAgain) + (1 - sameRank) * f(n, k - 1)
          : anySecond + f(n, k - 1);
      memo.set(key, value);
      return value;
    };
    return f(2, 2);
  }

  /** E[net] of a round dealt p1, p2 against this up card (all three out of the shoe). */
  round(p1: number, p2: number): number {
    const pBlackjack = this.pBlackjack();
    if (makesBlackjack(p1, p2)) return 1.5 * (1 - pBlackjack);
    const move = basicStrategy([repCard(p1), repCard(p2)], this.upCard, true, true);
    return -pBlackjack + (move === "split" ? this.split(p1) : this.play([p1, p2], true));
  }
}

export interface BlackjackReturn {
  /** expected total paid back per unit of the initial bet, insurance declined */
  rtp: number;
  /** return of insurance per unit staked on it, if taken whenever offered */
  insuranceRtp: number;
  /** share of rounds in which basic strategy splits */
  splitShare: number;
}

const returnMemo = new Map<string, BlackjackReturn>();

/** Basic strategy's expected return: a finite shoe of `decks` decks dealt fresh, or an infinite deck. */
export function blackjackReturn(decks: number | "infinite" = BLACKJACK_DECKS): BlackjackReturn {
  const cached = returnMemo.get(String(decks));
  if (cached) return cached;
  const shoe = new Shoe(decks);
  let net = 0;
  let insurance = 0;
  let aceUp = 0;
  let splitShare = 0;
  // dealt in the engine's order: player, up card, player (the hole card is accounted for in the evaluator)
  for (const up of CLASSES) {
    const evaluator = new UpCardEvaluator(shoe, up);
    for (const p1 of CLASSES) {
      const w1 = shoe.prob(p1);
      shoe.take(p1);
      const w2 = w1 * shoe.prob(up);
      shoe.take(up);
      for (const p2 of CLASSES) {
        const w = w2 * shoe.prob(p2);
        if (w === 0) continue;
        shoe.take(p2);
        net += w * evaluator.round(p1, p2);
        if (up === 1) {
          insurance += w * 3 * evaluator.pBlackjack();
          aceUp += w;
        }
        if (p1 === p2 && basicStrategy([repCard(p1), repCard(p2)], repCard(up), true, true) === "split" && !makesBlackjack(p1, p2)) {
          splitShare += w * (1 - evaluator.pBlackjack());
        }
        shoe.put(p2);
      }
      shoe.put(up);
      shoe.put(p1);
    }
  }
  const result = { rtp: 1 + net, insuranceRtp: insurance / aceUp, splitShare };
  returnMemo.set(String(decks), result);
  return result;
}

/** Dealer final-total probabilities for an up card (ace = 1) from a full shoe, no blackjack, S17. */
export function dealerOutcomes(up: number, decks: number | "infinite" = "infinite"): DealerDist {
  const shoe = new Shoe(decks);
  shoe.take(up);
  return new UpCardEvaluator(shoe, up).dealer();
}

export function rtpRows(): RtpRow[] {
  const shoe = blackjackReturn(BLACKJACK_DECKS);
  const infinite = blackjackReturn("infinite");
  return [
    {
      game: "blackjack",
      bet: "main bet, basic strategy",
      rtp: shoe.rtp,
      // Farmer's exact engine, 6 decks S17 DAS split to 4 NRSA 3:2, composition-dependent play: 0.403 %
      reference: 1 - 0.00403,
      method:
        "recursive expectation over every card sequence of a fresh 6-deck shoe (dealer probabilities recomputed for every set of cards out; after the peek the hole card cannot make a blackjack) " +
        "for the 6-deck S17 DAS basic-strategy chart, insurance declined, per unit of the initial bet, before rounding payouts down to whole coins (exact for even bets). " +
        "Exact for every round without a split (2.5 % of rounds split); in a split round each hand is valued with its own cards, the pair and the up card out of the shoe but not the other split hands' cards, " +
        "a second-order effect (those cards are a random draw from the same shoe; taking out one specific card, the other half of the pair, moves the result by only 0.007 %). " +
        "The reference is for composition-dependent optimal play, which a fixed chart cannot quite reach",
    },
    {
      game: "blackjack",
      bet: "main bet, basic strategy (infinite-deck model)",
      rtp: infinite.rtp,
      // the same engine with 1,000 decks: 0.511 %
      reference: 1 - 0.00511,
      method:
        "exact: recursive expectation with exact dealer probabilities in an infinite deck (every card 1/13, ten-values 4/13), S17, peek, basic strategy with resplits to 4 hands computed exactly; " +
        "shows how much the finite 6-deck shoe of the engine is worth to the player",
    },
    {
      game: "blackjack",
      bet: "insurance",
      rtp: shoe.insuranceRtp,
      // 6 decks: house edge 23/311 = 7.40 %
      reference: 288 / 311,
      method:
        "exact: 3 × P(hole card is a ten | ace up), averaged over the player's two cards in a fresh 6-deck shoe (= 3 × 96/311); per coin staked on insurance",
    },
  ];
}
