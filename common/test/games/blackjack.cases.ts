import { expect } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import type { SeatSeed } from "../../src/games/shoe";
import type { Card } from "../../src/games/cards";
import { actRound, requireEngine, startRound } from "../../src/games/runner";
import {
  basicStrategy,
  handValue,
  seatCanDouble,
  seatCanSplit,
  type BlackjackAction,
  type BlackjackState,
} from "../../src/games/blackjack/engine";
import { act, deal, dealerTurn, defaultAction, seatToAct, type TableBet, type TableState } from "../../src/games/blackjack-table";
import { shoeFloats } from "../helpers";
import type { Play, RoundingCases, Abandoned } from "./case-support";

/** Hits below `stop`, and takes insurance or not. */
const hitBelow = (stop: number, insure: boolean) => (v: any) =>
  v.phase === "insurance" ? [{ type: "insurance", take: insure }] : [{ type: v.hands[v.active].total < stop ? "hit" : "stand" }];

export const plays: Play[] = [
  {
    amount: 100,
    params: {},
    act: hitBelow(17, false),
    verifierSays: /^dealt from a fresh 6-deck shoe: player (10|[2-9JQKA])[♦♥♠♣], dealer up /,
  },
  { amount: 10, params: {}, act: hitBelow(15, true) },
  { amount: 100, params: {}, act: (v) => (v?.phase === "insurance" ? [{ type: "insurance", take: false }] : [{ type: "stand" }]) },
];

export const oneCoin: Play = { amount: 1, params: {}, act: hitBelow(15, true) };

export const rounding: RoundingCases = {
  ratios: [["3:2", 5, 2]],
  sampled: [
    {
      bet: "main bet and insurance",
      params: () => ({}),
      next: (s: BlackjackState) => {
        if (s.phase === "insurance") return { type: "insurance", take: s.bet % 4 === 2 };
        return { type: handValue(s.hands[s.active]!.cards).total < 17 ? "hit" : "stand" };
      },
    },
  ],
};

export const abandoned: Abandoned[] = [
  {
    params: {},
    voided: false,
    defaults: (a) => expect(a.every((x) => x.type === "stand" || (x.type === "insurance" && !x.take))).toBe(true),
  },
];

// The shared table (blackjack-table.test.ts, blackjack-table.stats.test.ts): seats playing whole rounds, and
// each seat replayed alone through the solo engine on the same cards.
const solo = requireEngine("blackjack");

export const SEEDS: SeatSeed[] = [
  { seat: 1, clientSeed: "alice-1" },
  { seat: 3, clientSeed: "bob-42" },
  { seat: 5, clientSeed: "carol-9" },
];

export const bets = (...pairs: [number, number][]): TableBet[] => pairs.map(([seat, amount]) => ({ seat, amount }));

/** The cards a seat was dealt after its first two, in order, and the actions it took. */
export interface SeatLog {
  actions: BlackjackAction[];
  draws: Card[];
}

/** Plays `action` for the seat to act and logs which cards it drew. */
export function logAct(state: TableState, logs: Map<number, SeatLog>, seat: number, action: BlackjackAction): TableState {
  const before = state.shoe.next;
  const after = act(state, seat, action).state;
  const log = logs.get(seat) ?? { actions: [], draws: [] };
  log.actions.push(action);
  log.draws.push(...after.shoe.cards.slice(before, after.shoe.next));
  logs.set(seat, log);
  return after;
}

/**
 * The same seat played alone through the solo engine on the same cards: its two cards, the dealer's up and
 * hole cards, its own draws and the dealer's draws, dealt in the solo engine's order.
 */
export function soloReplay(state: TableState, seatNo: number, log: SeatLog | undefined) {
  const seat = state.seats.find((s) => s.seat === seatNo)!;
  const first = seat.hands.flatMap((h) => h.cards);
  // a seat's first two cards are the first of its first hand and, after splits, the first card of its second hand
  const p1 = state.shoe.cards[state.firstCard + state.seats.indexOf(seat)]!;
  const p2 = state.shoe.cards[state.firstCard + state.seats.length + 1 + state.seats.indexOf(seat)]!;
  expect(first).toContain(p1);
  const order = [p1, state.dealer[0]!, p2, state.dealer[1]!, ...(log?.draws ?? []), ...state.dealer.slice(2)];
  const rng = fixedRng(shoeFloats(order, 6));
  const steps = [startRound(solo, seat.bet, {}, rng)];
  for (const action of log?.actions ?? []) steps.push(actRound(solo, steps[steps.length - 1]!.state, action, rng));
  return {
    done: steps[steps.length - 1]!.done,
    stake: steps.reduce((s, x) => s + x.stake, 0),
    payout: steps.reduce((s, x) => s + x.payout, 0),
  };
}

export type Policy = (state: TableState, seat: number) => BlackjackAction | "timeout";

export const basic: Policy = (state) => {
  if (state.phase === "insurance") return { type: "insurance", take: false };
  const seat = state.seats[state.turn]!;
  return { type: basicStrategy(seat.hands[seat.active]!.cards, state.dealer[0]!, seatCanDouble(seat), seatCanSplit(seat)) };
};

/** Plays a whole round by `policy`, then the dealer; returns the settled state and each seat's log. */
export function playRound(state: TableState, roundBets: TableBet[], policy: Policy) {
  const logs = new Map<number, SeatLog>();
  let s = deal(state, roundBets);
  for (let seat = seatToAct(s); seat !== null; seat = seatToAct(s)) {
    const choice = policy(s, seat);
    s = logAct(s, logs, seat, choice === "timeout" ? defaultAction(s)!.action : choice);
  }
  if (s.phase === "dealer") s = dealerTurn(s);
  expect(s.phase).toBe("settled");
  return { state: s, logs };
}
