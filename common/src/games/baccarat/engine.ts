import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { MAX_BET, MAX_PAYOUT } from "../../limits";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import { dealCards, dealFromShoe, rankOf, type Card } from "../cards";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { cards, pays } from "../describe";
import { BACCARAT_WIN_PROBABILITY } from "../../rtp-table";
import { chipSum, scaleChip } from "../table-bets";

/**
 * Baccarat (Punto Banco, game-rules A3): a fresh 8-deck shoe each round, dealt Player, Banker, Player,
 * Banker, then the third cards by the fixed drawing rules. Bets on Player (1:1), Banker (0.95:1) and Tie
 * (8:1); Player and Banker bets push on a tie.
 */
export const BACCARAT_DECKS = 8;

export type BaccaratSide = "player" | "banker" | "tie";
export const BACCARAT_SIDES: readonly BaccaratSide[] = ["player", "banker", "tie"];

/** Total paid back per coin staked on a winning bet, as a fraction (stake included). */
export const BACCARAT_PAYS: Record<BaccaratSide, { num: number; den: number }> = {
  player: { num: 2, den: 1 },
  banker: { num: 195, den: 100 },
  tie: { num: 9, den: 1 },
};

const betAmount = (side: BaccaratSide) =>
  z
    .number({ error: `${side} bet must be a number of coins` })
    .int(`${side} bet must be a whole number of coins`)
    .min(1, `${side} bet must be at least 1 coin`)
    .max(MAX_BET, `${side} bet may not exceed ${MAX_BET} coins`);

export const baccaratParams = z
  .object({
    bets: z
      .object({ player: betAmount("player").optional(), banker: betAmount("banker").optional(), tie: betAmount("tie").optional() })
      .strict()
      .refine(
        (b) => b.player !== undefined || b.banker !== undefined || b.tie !== undefined,
        "place at least one bet: player, banker or tie",
      ),
  })
  .strict();
export type BaccaratParams = z.infer<typeof baccaratParams>;
export type BaccaratBets = BaccaratParams["bets"];

export interface BaccaratState {
  bets: BaccaratBets;
  player: Card[];
  banker: Card[];
  playerTotal: number;
  bankerTotal: number;
  winner: BaccaratSide;
  /** each bet's payout (stake included) */
  payouts: Partial<Record<BaccaratSide, number>>;
}

/** Baccarat points of a card: A = 1, 2–9 face value, 10/J/Q/K = 0. */
export function baccaratPoints(card: Card): number {
  const rank = rankOf(card);
  if (rank === 14) return 1;
  return rank >= 10 ? 0 : rank;
}

export const baccaratTotal = (cards: readonly Card[]): number => cards.reduce((sum, c) => sum + baccaratPoints(c), 0) % 10;

export const isNatural = (total: number): boolean => total >= 8;

/** The Player draws a third card on 0–5 and stands on 6–7 (naturals are settled before). */
export const playerDraws = (playerTotal: number): boolean => playerTotal <= 5;

/**
 * The Banker's rule. If the Player stood (`playerThird` null) the Banker draws on 0–5 like the Player;
 * otherwise it depends on the points of the Player's third card.
 */
export function bankerDraws(bankerTotal: number, playerThird: number | null): boolean {
  if (playerThird === null) return bankerTotal <= 5;
  switch (bankerTotal) {
    case 0:
    case 1:
    case 2:
      return true;
    case 3:
      return playerThird !== 8;
    case 4:
      return playerThird >= 2 && playerThird <= 7;
    case 5:
      return playerThird >= 4 && playerThird <= 7;
    case 6:
      return playerThird === 6 || playerThird === 7;
    default:
      return false;
  }
}

export function winnerOf(playerTotal: number, bankerTotal: number): BaccaratSide {
  if (playerTotal === bankerTotal) return "tie";
  return playerTotal > bankerTotal ? "player" : "banker";
}

/** What one bet pays back (stake included) when `winner` wins: a win by the pay table, a push on a tie, else 0. */
export function betPayout(side: BaccaratSide, stake: number, winner: BaccaratSide, pay: Payer = payDown): number {
  if (side === winner) return pay(stake, BACCARAT_PAYS[side].num, BACCARAT_PAYS[side].den);
  return winner === "tie" ? stake : 0;
}

function settle(bets: BaccaratBets, winner: BaccaratSide, pay: Payer): Partial<Record<BaccaratSide, number>> {
  const payouts: Partial<Record<BaccaratSide, number>> = {};
  for (const side of BACCARAT_SIDES) {
    const stake = bets[side];
    if (stake !== undefined) payouts[side] = betPayout(side, stake, winner, pay);
  }
  return payouts;
}

const totalOf = (amounts: Partial<Record<BaccaratSide, number>>): number =>
  Object.values(amounts).reduce<number>((sum, v) => sum + (v ?? 0), 0);

/** Deals one coup from a fresh shoe: the two hands after the drawing rules. */
export function dealCoup(rng: Rng): { player: Card[]; banker: Card[] } {
  const [p1, b1, p2, b2] = dealCards(rng, BACCARAT_DECKS, [], 4) as [Card, Card, Card, Card];
  const player = [p1, p2];
  const banker = [b1, b2];
  const dealt = [p1, b1, p2, b2];
  const draw = () => {
    const card = dealFromShoe(rng, BACCARAT_DECKS, dealt);
    dealt.push(card);
    return card;
  };
  const p = baccaratTotal(player);
  const b = baccaratTotal(banker);
  if (isNatural(p) || isNatural(b)) return { player, banker };
  let playerThird: number | null = null;
  if (playerDraws(p)) {
    const card = draw();
    player.push(card);
    playerThird = baccaratPoints(card);
  }
  if (bankerDraws(b, playerThird)) banker.push(draw());
  return { player, banker };
}

export const baccaratEngine: GameEngine<BaccaratParams, BaccaratState> = {
  id: "baccarat",
  params: baccaratParams,
  start(amount: number, params: BaccaratParams, rng: Rng, pay: Payer = payDown): Step<BaccaratState> {
    const onTable = totalOf(params.bets);
    if (amount !== onTable) {
      throw new GameRuleError("invalid_amount", `The amount (${amount}) must equal the sum of the bets (${onTable})`);
    }
    const { player, banker } = dealCoup(rng);
    const playerTotal = baccaratTotal(player);
    const bankerTotal = baccaratTotal(banker);
    const winner = winnerOf(playerTotal, bankerTotal);
    const payouts = settle(params.bets, winner, pay);
    return {
      state: { bets: params.bets, player, banker, playerTotal, bankerTotal, winner, payouts },
      stake: amount,
      payout: Math.min(totalOf(payouts), MAX_PAYOUT),
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (_amount, params, pay = payUp) =>
    Math.min(MAX_PAYOUT, Math.max(...BACCARAT_SIDES.map((winner) => totalOf(settle(params.bets, winner, pay))))),
  winChance: ({ bets }) => {
    const stake = BACCARAT_SIDES.reduce((s, side) => s + (bets[side] ?? 0), 0);
    return BACCARAT_SIDES.reduce((chance, winner) => {
      const paid = BACCARAT_SIDES.reduce((s, side) => s + (bets[side] === undefined ? 0 : betPayout(side, bets[side]!, winner)), 0);
      return paid > stake ? chance + BACCARAT_WIN_PROBABILITY[winner] : chance;
    }, 0);
  },
  chips: {
    stake: (p) => (p.bets && typeof p.bets === "object" ? chipSum(Object.values(p.bets)) : undefined),
    scale: (p, factor) => ({ ...p, bets: Object.fromEntries(Object.entries(p.bets).map(([k, v]) => [k, scaleChip(v, factor)])) }),
  },
  describe: describeBaccarat,
};

function describeBaccarat({ state: s, step }: StepContext<BaccaratState>): string[] {
  return [
    `player: ${cards(s.player)} = ${baccaratTotal(s.player)}`,
    `banker: ${cards(s.banker)} = ${baccaratTotal(s.banker)}`,
    `${s.winner === "tie" ? "tie" : `${s.winner} wins`}; ${Object.entries(s.payouts)
      .map(([side, p]) => `${side} ${s.bets[side as "player"]} ${pays(p!)}`)
      .join(", ")}`,
    `round ${pays(step.payout)}`,
  ];
}

export default baccaratEngine;
