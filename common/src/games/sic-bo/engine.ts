import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { payoutRatio } from "../../limits";
import type { GameEngine, Step, StepContext } from "../engine";
import { allOrderedRolls, rollDice } from "../dice-faces";
import { chipAmount, layoutChips, MAX_BETS_PER_ROUND, requireAmountMatches, totalPayout } from "../table-bets";
import { pays } from "../describe";

/**
 * Sic Bo: three dice, one float each. Pays the lower-edge "alternative" table of game-rules A12
 * (totals 6/15 at 18:1, 9/12 at 7:1, specific double 11:1). Big and small lose on any triple.
 */
export const DICE_COUNT = 3;

/** Net odds ("x to 1") of a specific total. */
export const TOTAL_ODDS: Readonly<Record<number, number>> = {
  4: 60,
  5: 30,
  6: 18,
  7: 12,
  8: 8,
  9: 7,
  10: 6,
  11: 6,
  12: 7,
  13: 8,
  14: 12,
  15: 18,
  16: 30,
  17: 60,
};
export const ODDS = {
  smallBig: 1,
  specificTriple: 180,
  anyTriple: 30,
  specificDouble: 11,
  combination: 5,
  /** single number: by how many dice show it */
  single: [0, 1, 2, 3] as readonly number[],
} as const;

const face = z.number().int("a face is a whole number").min(1, "faces run from 1 to 6").max(6, "faces run from 1 to 6");

const plainBet = z.object({ type: z.enum(["small", "big", "anyTriple"]), amount: chipAmount }).strict();
const totalBet = z
  .object({
    type: z.literal("total"),
    value: z.number().int("a total is a whole number").min(4, "totals run from 4 to 17").max(17, "totals run from 4 to 17"),
    amount: chipAmount,
  })
  .strict();
const faceBet = z.object({ type: z.enum(["triple", "double", "single"]), value: face, amount: chipAmount }).strict();
const combinationBet = z
  .object({
    type: z.literal("combination"),
    numbers: z.tuple([face, face]).refine(([a, b]) => a !== b, "a combination is two different faces"),
    amount: chipAmount,
  })
  .strict();

export const sicBoBet = z.discriminatedUnion("type", [plainBet, totalBet, faceBet, combinationBet]);
export type SicBoBet = z.infer<typeof sicBoBet>;
export type SicBoBetType = SicBoBet["type"];

export const sicBoParams = z
  .object({
    bets: z.array(sicBoBet).min(1, "place at least one bet").max(MAX_BETS_PER_ROUND, `at most ${MAX_BETS_PER_ROUND} bets per roll`),
  })
  .strict();
export type SicBoParams = z.infer<typeof sicBoParams>;

export interface SettledSicBoBet {
  bet: SicBoBet;
  win: boolean;
  payout: number;
}

export interface SicBoState {
  dice: number[];
  total: number;
  bets: SettledSicBoBet[];
}

const countOf = (dice: readonly number[], value: number): number => dice.filter((d) => d === value).length;
const isTriple = (dice: readonly number[]): boolean => dice[0] === dice[1] && dice[1] === dice[2];

/** Net odds the bet wins at on these dice, or undefined when it loses. */
export function winningOdds(bet: SicBoBet, dice: readonly number[]): number | undefined {
  const total = dice[0]! + dice[1]! + dice[2]!;
  switch (bet.type) {
    case "small":
      return total <= 10 && !isTriple(dice) ? ODDS.smallBig : undefined;
    case "big":
      return total >= 11 && !isTriple(dice) ? ODDS.smallBig : undefined;
    case "total":
      return total === bet.value ? TOTAL_ODDS[bet.value] : undefined;
    case "triple":
      return countOf(dice, bet.value) === 3 ? ODDS.specificTriple : undefined;
    case "anyTriple":
      return isTriple(dice) ? ODDS.anyTriple : undefined;
    case "double":
      return countOf(dice, bet.value) >= 2 ? ODDS.specificDouble : undefined;
    case "combination":
      return dice.includes(bet.numbers[0]) && dice.includes(bet.numbers[1]) ? ODDS.combination : undefined;
    case "single": {
      const matches = countOf(dice, bet.value);
      return matches > 0 ? ODDS.single[matches] : undefined;
    }
  }
}

export function settleSicBoBet(bet: SicBoBet, dice: readonly number[]): SettledSicBoBet {
  const odds = winningOdds(bet, dice);
  return { bet, win: odds !== undefined, payout: odds === undefined ? 0 : payoutRatio(bet.amount, odds + 1, 1) };
}

const ALL_ROLLS = allOrderedRolls(DICE_COUNT);

export const sicBoEngine: GameEngine<SicBoParams, SicBoState> = {
  id: "sic-bo",
  params: sicBoParams,
  start(amount: number, params: SicBoParams, rng: Rng): Step<SicBoState> {
    requireAmountMatches(amount, params.bets);
    const dice = rollDice(rng, DICE_COUNT);
    const bets = params.bets.map((bet) => settleSicBoBet(bet, dice));
    return {
      state: { dice, total: dice[0]! + dice[1]! + dice[2]!, bets },
      stake: amount,
      payout: totalPayout(bets.map((b) => b.payout)),
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (_amount, params) =>
    Math.max(...ALL_ROLLS.map((dice) => totalPayout(params.bets.map((bet) => settleSicBoBet(bet, dice).payout)))),
  winChance: ({ bets }) => {
    const stake = bets.reduce((s, b) => s + b.amount, 0);
    const wins = ALL_ROLLS.filter((dice) => totalPayout(bets.map((bet) => settleSicBoBet(bet, dice).payout)) > stake).length;
    return wins / ALL_ROLLS.length;
  },
  chips: layoutChips(),
  describe: describeSicBo,
};

function describeSicBo({ state: s, step }: StepContext<SicBoState>): string[] {
  return [
    `dice: ${s.dice.join(", ")} (total ${s.total})`,
    ...s.bets.map((b) => {
      const bet = b.bet;
      const label =
        bet.type === "combination" ? `combination ${bet.numbers.join("-")}` : "value" in bet ? `${bet.type} ${bet.value}` : bet.type;
      return `${label} ${bet.amount}: ${b.win ? "win" : "lose"}, ${pays(b.payout)}`;
    }),
    `round ${pays(step.payout)}`,
  ];
}

export default sicBoEngine;
