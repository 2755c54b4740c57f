import { z } from "zod";
import { pickIndex, type Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import type { GameEngine, Step, StepContext } from "../engine";
import { chipAmount, layoutChips, MAX_BETS_PER_ROUND, requireAmountMatches, totalPayout } from "../table-bets";
import { f, pays } from "../describe";

/**
 * European roulette: one zero, 37 pockets, pocket = floor(f × 37) (game-rules A14, B3). Every bet
 * covering c numbers returns 36 / c for 1 (straight 35:1 … even money 1:1), so every bet, inside or
 * outside, returns exactly 36/37. Zero loses every outside bet (no la partage).
 */
export const POCKETS = 37;
const RETURN_UNITS = 36;

export const RED_NUMBERS: readonly number[] = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];
export type PocketColor = "green" | "red" | "black";
/** The pockets around a European wheel, clockwise from zero (for drawing the wheel; the draw is by number). */
export const WHEEL_ORDER: readonly number[] = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
];
export const pocketColor = (n: number): PocketColor => (n === 0 ? "green" : RED_NUMBERS.includes(n) ? "red" : "black");

export const INSIDE_TYPES = ["straight", "split", "street", "corner", "sixLine", "trio", "firstFour"] as const;
export type InsideType = (typeof INSIDE_TYPES)[number];
export const EVEN_MONEY_TYPES = ["red", "black", "odd", "even", "low", "high"] as const;
export type EvenMoneyType = (typeof EVEN_MONEY_TYPES)[number];
export const GROUP_TYPES = ["dozen", "column"] as const;
export type GroupType = (typeof GROUP_TYPES)[number];

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** The layout's rows are 1-2-3, 4-5-6, … 34-35-36; a number's column is 1, 2 or 3. */
const columnOf = (n: number): number => ((n - 1) % 3) + 1;

/** Every legal number set of each inside bet, from the geometry of the layout. */
function buildLayoutSets(): Record<InsideType, number[][]> {
  const splits: number[][] = [
    [0, 1],
    [0, 2],
    [0, 3],
  ];
  for (let n = 1; n <= 36; n++) {
    if (columnOf(n) < 3) splits.push([n, n + 1]);
    if (n <= 33) splits.push([n, n + 3]);
  }
  const corners: number[][] = [];
  for (let n = 1; n <= 32; n++) if (columnOf(n) < 3) corners.push([n, n + 1, n + 3, n + 4]);
  return {
    straight: range(0, 36).map((n) => [n]),
    split: splits,
    street: range(0, 11).map((row) => range(3 * row + 1, 3 * row + 3)),
    corner: corners,
    sixLine: range(0, 10).map((row) => range(3 * row + 1, 3 * row + 6)),
    trio: [
      [0, 1, 2],
      [0, 2, 3],
    ],
    firstFour: [[0, 1, 2, 3]],
  };
}
export const LAYOUT_SETS: Readonly<Record<InsideType, readonly (readonly number[])[]>> = buildLayoutSets();

export const INSIDE_SIZE: Readonly<Record<InsideType, number>> = {
  straight: 1,
  split: 2,
  street: 3,
  corner: 4,
  sixLine: 6,
  trio: 3,
  firstFour: 4,
};

const LAYOUT_KEYS: Record<InsideType, Set<string>> = Object.fromEntries(
  INSIDE_TYPES.map((t) => [t, new Set(LAYOUT_SETS[t].map((s) => s.join("-")))]),
) as Record<InsideType, Set<string>>;

const sortedNumbers = (numbers: readonly number[]): number[] => [...numbers].sort((a, b) => a - b);

/** Each bet type's name in words, as the rules, the refusals and the RTP table say it ("six line", not "sixLine"). */
export const BET_NAMES: Record<InsideType | EvenMoneyType | GroupType, string> = {
  straight: "straight",
  split: "split",
  street: "street",
  corner: "corner",
  sixLine: "six line",
  trio: "trio",
  firstFour: "first four",
  red: "red",
  black: "black",
  odd: "odd",
  even: "even",
  low: "low (1–18)",
  high: "high (19–36)",
  dozen: "dozen",
  column: "column",
};

const LABEL: Record<InsideType, string> = BET_NAMES;

const SHAPE_HINT: Record<InsideType, string> = {
  straight: "a straight bet covers one number from 0 to 36",
  split: "a split covers two numbers side by side or one above the other on the layout (e.g. 1-2, 1-4, 0-3)",
  street: "a street is one row of the layout: 1-2-3, 4-5-6, … 34-35-36",
  corner: "a corner is four numbers meeting at one corner of the layout (e.g. 1-2-4-5)",
  sixLine: "a six line is two neighbouring rows of the layout (e.g. 1-6, 4-9, … 31-36)",
  trio: "a trio is 0-1-2 or 0-2-3",
  firstFour: "the first four is 0-1-2-3",
};

/** Why a number set is not a legal inside bet of that type, or undefined when it is. */
export function insideBetProblem(type: InsideType, numbers: readonly number[]): string | undefined {
  const size = INSIDE_SIZE[type];
  if (new Set(numbers).size !== numbers.length) return `the numbers of a ${LABEL[type]} bet must be different`;
  if (numbers.length !== size) {
    return `a ${LABEL[type]} bet covers exactly ${size} number${size === 1 ? "" : "s"}, not ${numbers.length}`;
  }
  const sorted = sortedNumbers(numbers);
  if (LAYOUT_KEYS[type].has(sorted.join("-"))) return undefined;
  if (type === "split") return `${sorted[0]} and ${sorted[1]} are not neighbours: ${SHAPE_HINT.split}`;
  return `${sorted.join("-")} is not a ${LABEL[type]}: ${SHAPE_HINT[type]}`;
}

const pocketNumber = z.number().int("numbers are whole").min(0, "numbers run from 0 to 36").max(36, "numbers run from 0 to 36");

const insideBet = z
  .object({ type: z.enum(INSIDE_TYPES), numbers: z.array(pocketNumber).min(1).max(6), amount: chipAmount })
  .strict()
  .superRefine((bet, ctx) => {
    const problem = insideBetProblem(bet.type, bet.numbers);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["numbers"] });
  });
const evenMoneyBet = z.object({ type: z.enum(EVEN_MONEY_TYPES), amount: chipAmount }).strict();
const groupBet = z
  .object({
    type: z.enum(GROUP_TYPES),
    value: z.literal([1, 2, 3], "value is 1, 2 or 3 (first, second or third dozen or column)"),
    amount: chipAmount,
  })
  .strict();

export const rouletteBet = z.discriminatedUnion("type", [insideBet, evenMoneyBet, groupBet]);
export type RouletteBet = z.infer<typeof rouletteBet>;

export const rouletteParams = z
  .object({
    bets: z.array(rouletteBet).min(1, "place at least one bet").max(MAX_BETS_PER_ROUND, `at most ${MAX_BETS_PER_ROUND} bets per spin`),
  })
  .strict();
export type RouletteParams = z.infer<typeof rouletteParams>;

/** The numbers a bet covers: it wins when the ball lands in one of them. */
export function coveredNumbers(bet: RouletteBet): number[] {
  switch (bet.type) {
    case "red":
      return [...RED_NUMBERS];
    case "black":
      return range(1, 36).filter((n) => !RED_NUMBERS.includes(n));
    case "odd":
      return range(1, 36).filter((n) => n % 2 === 1);
    case "even":
      return range(1, 36).filter((n) => n % 2 === 0);
    case "low":
      return range(1, 18);
    case "high":
      return range(19, 36);
    case "dozen":
      return range(12 * (bet.value - 1) + 1, 12 * bet.value);
    case "column":
      return range(1, 36).filter((n) => columnOf(n) === bet.value);
    default:
      return sortedNumbers(bet.numbers);
  }
}

/** What a winning bet returns for 1 (stake included), as a fraction: 36 / numbers covered. */
export const payFor1 = (bet: RouletteBet): { numerator: number; denominator: number } => ({
  numerator: RETURN_UNITS,
  denominator: coveredNumbers(bet).length,
});

export interface SettledRouletteBet {
  bet: RouletteBet;
  win: boolean;
  payout: number;
}

export interface RouletteState {
  pocket: number;
  color: PocketColor;
  bets: SettledRouletteBet[];
}

export function settleBet(bet: RouletteBet, pocket: number, pay: Payer = payDown): SettledRouletteBet {
  const win = coveredNumbers(bet).includes(pocket);
  const { numerator, denominator } = payFor1(bet);
  return { bet, win, payout: win ? pay(bet.amount, numerator, denominator) : 0 };
}

const normalise = (bet: RouletteBet): RouletteBet => ("numbers" in bet ? { ...bet, numbers: sortedNumbers(bet.numbers) } : bet);

export const rouletteEngine: GameEngine<RouletteParams, RouletteState> = {
  id: "roulette",
  params: rouletteParams,
  start(amount: number, params: RouletteParams, rng: Rng, pay: Payer = payDown): Step<RouletteState> {
    requireAmountMatches(amount, params.bets);
    const pocket = pickIndex(rng, POCKETS);
    const bets = params.bets.map((bet) => settleBet(normalise(bet), pocket, pay));
    return {
      state: { pocket, color: pocketColor(pocket), bets },
      stake: amount,
      payout: totalPayout(bets.map((b) => b.payout)),
      done: true,
    };
  },
  view: (state) => state,
  maxPayout: (_amount, params) =>
    Math.max(...range(0, POCKETS - 1).map((pocket) => totalPayout(params.bets.map((bet) => settleBet(bet, pocket, payUp).payout)))),
  winChance: ({ bets }) => {
    const stake = bets.reduce((s, b) => s + b.amount, 0);
    let wins = 0;
    for (let pocket = 0; pocket < POCKETS; pocket++) {
      if (totalPayout(bets.map((bet) => settleBet(bet, pocket).payout)) > stake) wins += 1;
    }
    return wins / POCKETS;
  },
  chips: layoutChips(),
  describe: describeRoulette,
};

function describeRoulette({ state: s, step, floats }: StepContext<RouletteState>): string[] {
  return [
    `pocket = floor(${f(floats, 0)} × 37) = ${s.pocket} (${s.color})`,
    ...s.bets.map(
      (b) =>
        `${b.bet.type}${"numbers" in b.bet ? ` ${b.bet.numbers.join("-")}` : "value" in b.bet ? ` ${b.bet.value}` : ""} ${b.bet.amount}: ${b.win ? "win" : "lose"}, ${pays(b.payout)}`,
    ),
    `round ${pays(step.payout)}`,
  ];
}

export default rouletteEngine;
