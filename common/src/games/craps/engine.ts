import { z } from "zod";
import type { Rng } from "../../fairness/stream";
import { payDown, payUp, type Payer } from "../../fairness/rounding";
import { GameRuleError, type GameEngine, type Step, type StepContext } from "../engine";
import { rollDice } from "../dice-faces";
import { chipAmount, layoutChips, MAX_BETS_PER_ROUND, requireAmountMatches, totalPayout } from "../table-bets";
import { pays } from "../describe";

/**
 * Craps (game-rules A11). A round is a run of rolls of two dice (one float per die) that lasts while the
 * player has any bet on the table: `start` places the opening bets and rolls; then the player rolls,
 * adds bets, or takes down what may be taken down, and the round ends when the table is empty.
 *
 * House rules, chosen so every bet is one decision with an exact RTP:
 * - Every bet is settled once. A winning place bet or hardway is paid with its stake and comes down;
 *   place it again to keep it working.
 * - Every bet works on every roll, come-out included (place bets, hardways and come odds are "on").
 * - Free odds: behind pass/come up to 3× on 4/10, 4× on 5/9, 5× on 6/8, paying 2:1, 3:2, 6:5; lay odds
 *   behind don't pass/don't come up to 6× the flat bet on every number (so a lay win is at most 3-4-5×
 *   the flat bet), paying 1:2, 2:3, 5:6. Odds, place and field payouts that are not whole are made whole
 *   by the round's rule, each on its own (rule 2: one of the two whole coins around the exact value, the
 *   exact value on average; rule 1, rounded down, only for rounds played before it): odds of 3 on a 5,
 *   for instance, return 7.5 and pay 7 or 8, and a 6/8 place bet pays exactly in multiples of 6.
 * - Don't pass and don't come push on a come-out 12 ("bar 12").
 */
export const POINTS = [4, 5, 6, 8, 9, 10] as const;
export type PointNumber = (typeof POINTS)[number];
export const HARD_NUMBERS = [4, 6, 8, 10] as const;

/** What a win returns for 1, stake included, as [numerator, denominator]. */
type Ratio = readonly [number, number];
export const EVEN_MONEY: Ratio = [2, 1];
export const PASS_ODDS_RETURN: Readonly<Record<PointNumber, Ratio>> = {
  4: [3, 1],
  5: [5, 2],
  6: [11, 5],
  8: [11, 5],
  9: [5, 2],
  10: [3, 1],
};
export const LAY_ODDS_RETURN: Readonly<Record<PointNumber, Ratio>> = {
  4: [3, 2],
  5: [5, 3],
  6: [11, 6],
  8: [11, 6],
  9: [5, 3],
  10: [3, 2],
};
export const PLACE_RETURN: Readonly<Record<PointNumber, Ratio>> = {
  4: [14, 5],
  5: [12, 5],
  6: [13, 6],
  8: [13, 6],
  9: [12, 5],
  10: [14, 5],
};
export const HARD_RETURN: Readonly<Record<number, Ratio>> = { 4: [8, 1], 6: [10, 1], 8: [10, 1], 10: [8, 1] };
/** Field: 2 pays 2:1, 12 pays 3:1, 3/4/9/10/11 pay 1:1; 5, 6, 7, 8 lose. */
export const FIELD_RETURN: Readonly<Record<number, Ratio>> = {
  2: [3, 1],
  3: [2, 1],
  4: [2, 1],
  9: [2, 1],
  10: [2, 1],
  11: [2, 1],
  12: [4, 1],
};
export const ANY_SEVEN_RETURN: Ratio = [5, 1];
export const ANY_CRAPS_RETURN: Ratio = [8, 1];
/** Most odds behind a pass or come bet, as a multiple of its flat bet. */
export const ODDS_MULTIPLE: Readonly<Record<PointNumber, number>> = { 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3 };
/** Most lay odds behind a don't pass or don't come bet, as a multiple of its flat bet. */
export const LAY_MULTIPLE = 6;

const NATURALS = [7, 11];
const CRAPS = [2, 3, 12];
const isPoint = (total: number): total is PointNumber => (POINTS as readonly number[]).includes(total);

const pointNumber = z.literal(POINTS, "the number is 4, 5, 6, 8, 9 or 10");
const hardNumber = z.literal(HARD_NUMBERS, "a hardway is 4, 6, 8 or 10");

const plainBet = z
  .object({
    type: z.enum(["pass", "dontPass", "come", "dontCome", "field", "anySeven", "anyCraps", "passOdds", "dontPassOdds"]),
    amount: chipAmount,
  })
  .strict();
const numberedBet = z.object({ type: z.enum(["place", "comeOdds", "dontComeOdds"]), number: pointNumber, amount: chipAmount }).strict();
const hardBet = z.object({ type: z.literal("hard"), number: hardNumber, amount: chipAmount }).strict();

export const crapsBet = z.discriminatedUnion("type", [plainBet, numberedBet, hardBet]);
export type CrapsBetRequest = z.infer<typeof crapsBet>;

const betList = z.array(crapsBet).min(1, "place at least one bet").max(MAX_BETS_PER_ROUND, `at most ${MAX_BETS_PER_ROUND} bets at once`);

export const crapsParams = z.object({ bets: betList }).strict();
export type CrapsParams = z.infer<typeof crapsParams>;

export const TAKE_DOWN_KINDS = [
  "pass",
  "dontPass",
  "come",
  "dontCome",
  "passOdds",
  "dontPassOdds",
  "comeOdds",
  "dontComeOdds",
  "field",
  "place",
  "hard",
  "anySeven",
  "anyCraps",
] as const;
export type TakeDownKind = (typeof TAKE_DOWN_KINDS)[number];

export const crapsActions = z.discriminatedUnion("type", [
  z.object({ type: z.literal("roll") }).strict(),
  z.object({ type: z.literal("bet"), bets: betList }).strict(),
  z
    .object({
      type: z.literal("takeDown"),
      bet: z.enum(TAKE_DOWN_KINDS),
      /** the place/hard number, or the point of a come/don't come bet (absent: the one not yet rolled) */
      number: pointNumber.optional(),
    })
    .strict(),
]);
export type CrapsAction = z.infer<typeof crapsActions>;

export type TableBetType = "pass" | "dontPass" | "come" | "dontCome" | "field" | "place" | "hard" | "anySeven" | "anyCraps";

/** A bet lying on the table. */
export interface TableBet {
  type: TableBetType;
  /** place/hard: its number; come/don't come: its own point once it has travelled there */
  number?: number;
  /** the flat stake */
  amount: number;
  /** free odds (or lay odds) behind a pass, don't pass, come or don't come bet */
  odds: number;
}

export interface SettledBet extends TableBet {
  result: "win" | "lose" | "push" | "down";
  payout: number;
}

export interface CrapsState {
  /** the table's point, set by a come-out roll of 4, 5, 6, 8, 9 or 10; null on the come-out */
  point: number | null;
  bets: TableBet[];
  /** every roll of the round, in order */
  rolls: [number, number][];
  /** the bets the last step settled or returned */
  settled: SettledBet[];
}

const ratio = (pay: Payer, amount: number, [num, den]: Ratio): number => pay(amount, num, den);
const sameSpot = (a: TableBet, type: TableBetType, number: number | undefined) => a.type === type && a.number === number;
const withNumber = (type: TableBetType, number: number | undefined, amount: number): TableBet =>
  number === undefined ? { type, amount, odds: 0 } : { type, number, amount, odds: 0 };

/** Which number a line bet's odds ride on: the table point for pass/don't pass, its own point for come. */
const lineNumber = (bet: TableBet, point: number | null): number | undefined =>
  bet.type === "pass" || bet.type === "dontPass" ? (point ?? undefined) : bet.number;

function addBet(state: CrapsState, request: CrapsBetRequest): void {
  const bets = state.bets;
  const point = state.point;
  const spot = (type: TableBetType, number?: number) => bets.find((b) => sameSpot(b, type, number));
  const stack = (type: TableBetType, number?: number) => {
    const existing = spot(type, number);
    if (existing) existing.amount += request.amount;
    else bets.push(withNumber(type, number, request.amount));
  };
  const addOdds = (base: TableBet | undefined, lay: boolean, label: string) => {
    const on = base ? lineNumber(base, point) : undefined;
    if (!base || on === undefined || !isPoint(on)) {
      throw new GameRuleError("no_bet_for_odds", `Odds need a ${label} bet with a point established`);
    }
    const limit = base.amount * (lay ? LAY_MULTIPLE : ODDS_MULTIPLE[on]);
    if (base.odds + request.amount > limit) {
      throw new GameRuleError(
        "odds_limit",
        `Odds behind a ${label} bet on ${on} may total at most ${limit} coins (${lay ? LAY_MULTIPLE : ODDS_MULTIPLE[on]}× its ${base.amount})`,
      );
    }
    base.odds += request.amount;
  };
  switch (request.type) {
    case "pass":
    case "dontPass":
      if (point !== null) {
        throw new GameRuleError(
          "point_established",
          "Pass and don't pass bets are made on the come-out roll: bet come or don't come while a point is on",
        );
      }
      return stack(request.type);
    case "come":
    case "dontCome":
      if (point === null) {
        throw new GameRuleError("no_point", "Come and don't come bets need a point: bet pass or don't pass on the come-out roll");
      }
      return stack(request.type);
    case "field":
    case "anySeven":
    case "anyCraps":
      return stack(request.type);
    case "place":
    case "hard":
      return stack(request.type, request.number);
    case "passOdds":
      return addOdds(spot("pass"), false, "pass line");
    case "dontPassOdds":
      return addOdds(spot("dontPass"), true, "don't pass");
    case "comeOdds":
      return addOdds(spot("come", request.number), false, `come`);
    case "dontComeOdds":
      return addOdds(spot("dontCome", request.number), true, `don't come`);
  }
}

/** Places bets on a copy of the state, checking each against the table as it then stands. */
export function placeBets(state: CrapsState, requests: readonly CrapsBetRequest[]): CrapsState {
  const next: CrapsState = { ...state, bets: state.bets.map((b) => ({ ...b })), settled: [] };
  for (const request of requests) addBet(next, request);
  return next;
}

/** The fate of one bet on a roll: settled with a payout, or still on the table (maybe travelled). */
type Fate = { result: SettledBet["result"]; payout: number } | { stays: TableBet };

function fateOf(bet: TableBet, point: number | null, total: number, hard: boolean, pay: Payer): Fate {
  const win = (payout: number): Fate => ({ result: "win", payout });
  const lose: Fate = { result: "lose", payout: 0 };
  const stays: Fate = { stays: bet };
  // a line bet only carries odds once it has a point, so a come-out decision pays the flat bet alone
  const flatWin = win(ratio(pay, bet.amount, EVEN_MONEY));
  const lineWin = (odds: Readonly<Record<PointNumber, Ratio>>, on: PointNumber) =>
    win(ratio(pay, bet.amount, EVEN_MONEY) + ratio(pay, bet.odds, odds[on]));
  switch (bet.type) {
    case "pass":
    case "come": {
      const on = lineNumber(bet, point);
      if (on === undefined) {
        if (NATURALS.includes(total)) return flatWin;
        if (CRAPS.includes(total)) return lose;
        return bet.type === "come" ? { stays: { ...bet, number: total } } : stays;
      }
      if (total === on) return lineWin(PASS_ODDS_RETURN, on as PointNumber);
      return total === 7 ? lose : stays;
    }
    case "dontPass":
    case "dontCome": {
      const on = lineNumber(bet, point);
      if (on === undefined) {
        if (total === 2 || total === 3) return flatWin;
        if (total === 12) return { result: "push", payout: bet.amount };
        if (NATURALS.includes(total)) return lose;
        return bet.type === "dontCome" ? { stays: { ...bet, number: total } } : stays;
      }
      if (total === 7) return lineWin(LAY_ODDS_RETURN, on as PointNumber);
      return total === on ? lose : stays;
    }
    case "field": {
      const pays = FIELD_RETURN[total];
      return pays ? win(ratio(pay, bet.amount, pays)) : lose;
    }
    case "anySeven":
      return total === 7 ? win(ratio(pay, bet.amount, ANY_SEVEN_RETURN)) : lose;
    case "anyCraps":
      return CRAPS.includes(total) ? win(ratio(pay, bet.amount, ANY_CRAPS_RETURN)) : lose;
    case "place":
      if (total === bet.number) return win(ratio(pay, bet.amount, PLACE_RETURN[total as PointNumber]));
      return total === 7 ? lose : stays;
    case "hard":
      if (total === bet.number) return hard ? win(ratio(pay, bet.amount, HARD_RETURN[total]!)) : lose;
      return total === 7 ? lose : stays;
  }
}

/** Settles one roll of the dice against every bet on the table and moves the point. */
export function settleRoll(state: CrapsState, dice: [number, number], pay: Payer = payDown): { state: CrapsState; payout: number } {
  const total = dice[0] + dice[1];
  const hard = dice[0] === dice[1];
  const bets: TableBet[] = [];
  const settled: SettledBet[] = [];
  for (const bet of state.bets) {
    const fate = fateOf(bet, state.point, total, hard, pay);
    if ("stays" in fate) bets.push(fate.stays);
    else settled.push({ ...bet, ...fate });
  }
  let point = state.point;
  if (point === null) point = isPoint(total) ? total : null;
  else if (total === point || total === 7) point = null;
  return {
    state: { point, bets, rolls: [...state.rolls, dice], settled },
    payout: totalPayout(settled.map((s) => s.payout)),
  };
}

function takeDown(state: CrapsState, kind: TakeDownKind, number: number | undefined): { state: CrapsState; payout: number } {
  const bets = state.bets.map((b) => ({ ...b }));
  const isOdds = kind === "passOdds" || kind === "dontPassOdds" || kind === "comeOdds" || kind === "dontComeOdds";
  const type: TableBetType = isOdds ? (kind.slice(0, -4) as TableBetType) : (kind as TableBetType);
  const index = bets.findIndex((b) => sameSpot(b, type, type === "pass" || type === "dontPass" ? undefined : number));
  const bet = bets[index];
  if (number === undefined && (type === "place" || type === "hard" || kind === "comeOdds" || kind === "dontComeOdds")) {
    throw new GameRuleError("invalid_action", `Say which number's ${kind} bet to take down`);
  }
  const where = number === undefined ? "" : ` on ${number}`;
  if (!bet) throw new GameRuleError("no_such_bet", `There is no ${kind} bet${where} to take down`);
  const flatHasPoint = lineNumber(bet, state.point) !== undefined;
  if (isOdds) {
    if (bet.odds === 0) throw new GameRuleError("no_such_bet", `There are no odds behind the ${type} bet${where}`);
    const returned: SettledBet = { ...bet, amount: 0, result: "down", payout: bet.odds };
    bet.odds = 0;
    return { state: { ...state, bets, settled: [returned] }, payout: returned.payout };
  }
  if ((type === "pass" || type === "come") && flatHasPoint) {
    throw new GameRuleError(
      "contract_bet",
      `A ${type === "pass" ? "pass line" : "come"} bet with a point is a contract bet: it stays until it wins or loses (its odds may be taken down)`,
    );
  }
  bets.splice(index, 1);
  const returned: SettledBet = { ...bet, result: "down", payout: bet.amount + bet.odds };
  return { state: { ...state, bets, settled: [returned] }, payout: returned.payout };
}

function rollStep(state: CrapsState, stake: number, rng: Rng, pay: Payer): Step<CrapsState> {
  const [a, b] = rollDice(rng, 2) as [number, number];
  const { state: next, payout } = settleRoll(state, [a, b], pay);
  return { state: next, stake, payout, done: next.bets.length === 0 };
}

/**
 * The most the opening bets left after the first roll can still win: every place bet and hardway wins,
 * then the better of the line bets. (The roll that set the point has already settled every place bet
 * and hardway on it, so a don't pass winning on a 7 takes nothing away from them.)
 */
function bestFuture(bets: readonly TableBet[], pay: Payer): number {
  let sum = 0;
  let line = 0;
  for (const bet of bets) {
    if (bet.type === "place") sum += ratio(pay, bet.amount, PLACE_RETURN[bet.number as PointNumber]);
    else if (bet.type === "hard") sum += ratio(pay, bet.amount, HARD_RETURN[bet.number!]!);
    else if (bet.type === "pass" || bet.type === "dontPass") line = Math.max(line, ratio(pay, bet.amount, EVEN_MONEY));
  }
  return sum + line;
}

const EMPTY_TABLE: CrapsState = { point: null, bets: [], rolls: [], settled: [] };

export const crapsEngine: GameEngine<CrapsParams, CrapsState, CrapsAction> = {
  id: "craps",
  params: crapsParams,
  actions: crapsActions,
  start(amount: number, params: CrapsParams, rng: Rng, pay: Payer = payDown): Step<CrapsState> {
    requireAmountMatches(amount, params.bets);
    return rollStep(placeBets(EMPTY_TABLE, params.bets), amount, rng, pay);
  },
  act(state: CrapsState, action: CrapsAction, rng: Rng, pay: Payer = payDown): Step<CrapsState> {
    if (state.bets.length === 0) throw new GameRuleError("round_over", "The round is over: no bet is left on the table");
    switch (action.type) {
      case "roll":
        return rollStep(state, 0, rng, pay);
      case "bet": {
        const next = placeBets(state, action.bets);
        return { state: next, stake: action.bets.reduce((s, b) => s + b.amount, 0), payout: 0, done: false };
      }
      case "takeDown": {
        const { state: next, payout } = takeDown(state, action.bet, action.number);
        return { state: next, stake: 0, payout, done: next.bets.length === 0 };
      }
    }
  },
  /** Abandoned: the dice keep rolling, with no bet added or taken down, until every bet on the table is settled. */
  defaultAction: () => ({ type: "roll" }),
  view: (state) => state,
  /** Exact for the opening bets: the best first roll (all 21 distinct throws) plus the best that can follow it. */
  maxPayout(_amount, params, pay = payUp) {
    const table = placeBets(EMPTY_TABLE, params.bets);
    let best = 0;
    for (let a = 1; a <= 6; a++) {
      for (let b = a; b <= 6; b++) {
        const { state, payout } = settleRoll(table, [a, b], pay);
        best = Math.max(best, totalPayout([payout, bestFuture(state.bets, pay)]));
      }
    }
    return best;
  },
  chips: layoutChips(),
  describe: describeCraps,
};

function rolledSettled(settled: readonly SettledBet[]): string[] {
  return settled.map(
    (b) =>
      `${b.type}${b.number === undefined ? "" : ` ${b.number}`} (${b.amount}${b.odds ? ` + odds ${b.odds}` : ""}): ${b.result}, ${pays(b.payout)}`,
  );
}

function describeCraps({ previous, state: s, step }: StepContext<CrapsState>): string[] {
  const before = previous;
  const lines: string[] = [];
  const rolled = s.rolls.length > (before?.rolls.length ?? 0);
  if (rolled) {
    const [a, b] = s.rolls[s.rolls.length - 1]!;
    lines.push(`dice: ${a} + ${b} = ${a + b}`);
  }
  lines.push(...rolledSettled(s.settled));
  lines.push(s.point === null ? "no point (come-out)" : `point is ${s.point}`);
  if (step.done) lines.push("no bet left on the table: round over");
  return lines;
}

export default crapsEngine;
