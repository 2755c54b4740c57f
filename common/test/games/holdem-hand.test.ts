import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FULL_DECK, type Card } from "../../src/games/cards";
import { HOLDEM_DEFAULTS, type HoldemConfig } from "../../src/games/holdem/config";
import {
  chipsInPlay,
  handView,
  legalActions,
  startHand,
  step,
  wakeAt,
  type HandEvent,
  type HandStep,
  type HoldemAction,
  type HoldemHand,
  type Street,
} from "../../src/games/holdem/hand-machine";
import { hand as cards } from "../helpers";

const CONFIG: HoldemConfig = { ...HOLDEM_DEFAULTS, smallBlind: 1, bigBlind: 2, decisionMs: 10_000, timeBankMs: 5_000 };

/**
 * A deck that deals the given hole cards (listed by seat, in seat order) and board: hole cards go out
 * one at a time starting left of the button, with a burn card before the flop, the turn and the river.
 * The cards not named fill the rest in code order.
 */
function deckFor(button: number, hole: Record<number, string>, board: string): Card[] {
  const seats = Object.keys(hole)
    .map(Number)
    .sort((a, b) => a - b);
  const start = seats.findIndex((s) => s > button);
  const order = start < 0 ? seats : [...seats.slice(start), ...seats.slice(0, start)];
  const named = new Set([...Object.values(hole).flatMap(cards), ...cards(board)]);
  const spare = FULL_DECK.filter((c) => !named.has(c));
  const b = cards(board);
  const deck: Card[] = [];
  for (let round = 0; round < 2; round++) for (const s of order) deck.push(cards(hole[s]!)[round]!);
  deck.push(spare.shift()!, b[0]!, b[1]!, b[2]!, spare.shift()!, b[3]!, spare.shift()!, b[4]!);
  return [...deck, ...spare];
}

interface Table {
  button: number;
  smallBlind?: number;
  bigBlind?: number;
  stacks: Record<number, number>;
  hole?: Record<number, string>;
  board?: string;
  config?: HoldemConfig;
  disconnected?: number[];
}

function deal(t: Table, now = 0): HandStep {
  const seats = Object.keys(t.stacks)
    .map(Number)
    .sort((a, b) => a - b);
  const after = (n: number) => seats.find((s) => s > n) ?? seats[0]!;
  const headsUp = seats.length === 2;
  const smallBlind = t.smallBlind ?? (headsUp ? t.button : after(t.button));
  const bigBlind = t.bigBlind ?? after(smallBlind);
  const hole = t.hole ?? Object.fromEntries(seats.map((s, i) => [s, ["2d 7h", "3d 8h", "4d 9h", "5d Th", "6d Jh", "2s 7c"][i]!]));
  return startHand(
    {
      handNumber: 1,
      config: t.config ?? CONFIG,
      button: t.button,
      smallBlindSeat: smallBlind,
      bigBlindSeat: bigBlind,
      seats: seats.map((seat) => ({
        seat,
        playerId: `p${seat}`,
        stack: t.stacks[seat]!,
        timeBank: (t.config ?? CONFIG).timeBankMs,
        connected: !t.disconnected?.includes(seat),
      })),
      deck: deckFor(t.button, hole, t.board ?? "Kc Qc 9s 5s 3c"),
    },
    now,
  );
}

/** Applies actions in order (each must be accepted) at time `now`. */
function play(h: HoldemHand, actions: [number, HoldemAction][], now = 0): HoldemHand {
  for (const [seat, action] of actions) {
    const next = step(h, { type: "act", seat, action }, now);
    expect(next.refusal, `seat ${seat} ${JSON.stringify(action)}`).toBeUndefined();
    h = next.hand;
  }
  return h;
}

const stackOf = (h: HoldemHand, seat: number) => h.seats.find((s) => s.seat === seat)!.stack;
const call = { type: "call" } as const;
const check = { type: "check" } as const;
const fold = { type: "fold" } as const;
const raise = (amount: number) => ({ type: "raise", amount }) as const;
const bet = (amount: number) => ({ type: "bet", amount }) as const;

describe("Hold'em hand: blinds and order of play", () => {
  it("heads-up, the button posts the small blind, acts first before the flop and last after it", () => {
    let h = deal({ button: 4, stacks: { 2: 100, 4: 100 } }).hand;
    expect(h.seats.map((s) => [s.seat, s.committed])).toEqual([
      [2, 2],
      [4, 1],
    ]);
    expect(h.toAct).toBe(4);
    h = play(h, [
      [4, call],
      [2, check],
    ]);
    expect(h.phase).toBe("flop");
    expect(h.toAct).toBe(2);
    h = play(h, [[2, check]]);
    expect(h.toAct).toBe(4);
  });

  it("with three or more, the blinds sit left of the button, the next seat opens and the big blind has the option", () => {
    let h = deal({ button: 1, stacks: { 1: 100, 3: 100, 5: 100, 7: 100 } }).hand;
    expect(h.seats.map((s) => s.committed)).toEqual([0, 1, 2, 0]);
    expect(h.toAct).toBe(7);
    h = play(h, [
      [7, call],
      [1, call],
      [3, call],
    ]);
    expect(h.toAct).toBe(5);
    expect(legalActions(h, 5)).toMatchObject({ check: true, call: null, raise: { min: 4, max: 100 } });
    h = play(h, [[5, check]]);
    expect(h.phase).toBe("flop");
    // After the flop the first seat still in left of the button opens.
    expect(h.toAct).toBe(3);
  });

  it("refuses a seat acting out of turn and an action that is not legal, leaving the hand as it was", () => {
    const h = deal({ button: 1, stacks: { 1: 100, 2: 100, 3: 100 } }).hand;
    expect(step(h, { type: "act", seat: 2, action: call }, 0).refusal?.code).toBe("not_your_turn");
    const illegal = step(h, { type: "act", seat: 1, action: check }, 0);
    expect(illegal.refusal?.code).toBe("illegal_action");
    expect(illegal.hand).toBe(h);
    expect(step(h, { type: "act", seat: 1, action: { type: "dance" } as unknown as HoldemAction }, 0).refusal?.code).toBe("illegal_action");
  });
});

describe("Hold'em hand: minimum bets and raises", () => {
  it("a bet is at least the big blind and a raise adds at least the last full raise", () => {
    let h = deal({ button: 1, stacks: { 1: 200, 2: 200, 3: 200 } }).hand;
    expect(legalActions(h, 1)!.raise).toEqual({ min: 4, max: 200 });
    h = play(h, [[1, raise(7)]]);
    // The raise added 5: the next must reach 12.
    expect(legalActions(h, 2)!.raise).toEqual({ min: 12, max: 200 });
    expect(step(h, { type: "act", seat: 2, action: raise(11) }, 0).refusal?.code).toBe("illegal_action");
    h = play(h, [
      [2, raise(20)],
      [3, fold],
    ]);
    expect(legalActions(h, 1)!.raise!.min).toBe(33);
    h = play(h, [[1, call]]);
    expect(h.phase).toBe("flop");
    expect(legalActions(h, 2)).toMatchObject({ check: true, bet: { min: 2, max: 180 }, raise: null });
    expect(step(h, { type: "act", seat: 2, action: bet(1) }, 0).refusal?.code).toBe("illegal_action");
  });

  it("an all-in short of a full raise does not reopen the betting to seats that already acted", () => {
    let h = deal({ button: 1, stacks: { 1: 200, 2: 200, 3: 200, 4: 15 } }).hand;
    // Seat 4 opens; it is the seat after the big blind.
    h = play(h, [[4, call]]);
    h = play(h, [
      [1, call],
      [2, call],
      [3, check],
    ]);
    expect(h.phase).toBe("flop");
    // Flop: seat 2 bets 10, seat 3 calls, seat 4 is all-in for 13 (3 more: short of a full raise of 10).
    h = play(h, [
      [2, bet(10)],
      [3, call],
      [4, { type: "allIn" }],
    ]);
    expect(h.currentBet).toBe(13);
    // Seat 1 has not acted on the flop: it may raise, at least to 13 + 10.
    expect(legalActions(h, 1)).toMatchObject({ call: 13, raise: { min: 23, max: 198 } });
    h = play(h, [[1, call]]);
    // Seats 2 and 3 acted before the short all-in: call or fold only.
    expect(legalActions(h, 2)).toMatchObject({ fold: true, check: false, call: 3, bet: null, raise: null });
    expect(step(h, { type: "act", seat: 2, action: raise(30) }, 0).refusal?.code).toBe("illegal_action");
    h = play(h, [
      [2, call],
      [3, call],
    ]);
    expect(h.phase).toBe("turn");
  });

  it("a full raise after a short all-in reopens the betting for everyone", () => {
    let h = deal({ button: 1, stacks: { 1: 200, 2: 200, 3: 200, 4: 15 } }).hand;
    h = play(h, [
      [4, call],
      [1, call],
      [2, call],
      [3, check],
      [2, bet(10)],
      [3, call],
      [4, { type: "allIn" }],
      [1, raise(23)],
    ]);
    expect(legalActions(h, 2)!.raise).toEqual({ min: 33, max: 198 });
  });
});

describe("Hold'em hand: pots and showdown", () => {
  it("builds a main pot and side pots from three all-ins of different sizes and pays each to its best hand", () => {
    const stacks = { 1: 20, 2: 50, 3: 100, 4: 200 };
    let h = deal({
      button: 4,
      stacks,
      // Seat 1 the best hand, then seat 2, then seat 3, then seat 4.
      hole: { 1: "Ah Ad", 2: "Kh Kd", 3: "Qh Qd", 4: "2c 7s" },
      board: "As Ks Qs 8d 3c",
    }).hand;
    // Seat 1 is the small blind, seat 2 the big blind, seat 3 opens.
    h = play(h, [
      [3, { type: "allIn" }],
      [4, { type: "allIn" }],
      [1, { type: "allIn" }],
      [2, { type: "allIn" }],
    ]);
    const r = h.result!;
    expect(h.phase).toBe("complete");
    expect(r.board).toEqual(cards("As Ks Qs 8d 3c"));
    expect(r.uncalled).toEqual({ seat: 4, amount: 100 });
    expect(r.pots.map((p) => [p.amount, p.eligible, p.winners])).toEqual([
      [80, [1, 2, 3, 4], [{ seat: 1, amount: 80 }]],
      [90, [2, 3, 4], [{ seat: 2, amount: 90 }]],
      [100, [3, 4], [{ seat: 3, amount: 100 }]],
    ]);
    expect(r.stacks).toEqual([
      { seat: 1, stack: 80 },
      { seat: 2, stack: 90 },
      { seat: 3, stack: 100 },
      { seat: 4, stack: 100 },
    ]);
    // Everyone was all-in, so every hand is turned up.
    expect(r.shown.map((s) => s.seat).sort()).toEqual([1, 2, 3, 4]);
    expect(r.shown.find((s) => s.seat === 1)!.best).toMatchObject({ category: "three-of-a-kind", cards: cards("Ad Ah As Ks Qs") });
  });

  it("keeps a side pot per all-in when players go all-in on different streets and two play on", () => {
    let h = deal({
      button: 4,
      stacks: { 1: 30, 2: 80, 3: 200, 4: 200 },
      hole: { 1: "Ah Ad", 2: "Kh Kd", 3: "2c 7d", 4: "Qh Qd" },
      board: "As Ks Qs 8d 3c",
    }).hand;
    h = play(h, [
      [3, raise(30)],
      [4, call],
      [1, { type: "allIn" }],
      [2, call],
    ]);
    expect(h.phase).toBe("flop");
    // Seat 1 is all-in: seat 2 opens the flop, all-in for its last 50; seat 3 raises, seat 4 calls.
    expect(h.toAct).toBe(2);
    h = play(h, [
      [2, { type: "allIn" }],
      [3, raise(150)],
      [4, call],
    ]);
    expect(h.phase).toBe("turn");
    h = play(h, [
      [3, check],
      [4, { type: "allIn" }],
      [3, call],
    ]);
    const r = h.result!;
    expect(r.uncalled).toBeNull();
    expect(r.pots.map((p) => [p.amount, p.eligible, p.winners.map((w) => w.seat)])).toEqual([
      [120, [1, 2, 3, 4], [1]],
      [150, [2, 3, 4], [2]],
      [240, [3, 4], [4]],
    ]);
    expect(r.stacks.map((s) => s.stack)).toEqual([120, 150, 0, 240]);
  });

  it("splits a pot and gives the odd chip to the first winner left of the button", () => {
    let h = deal({
      button: 1,
      stacks: { 1: 50, 2: 50, 3: 50 },
      hole: { 1: "2c 3d", 2: "4c 5d", 3: "2h 3s" },
      board: "Ts Js Qd Kc Ah",
    }).hand;
    h = play(h, [
      [1, call],
      [2, fold],
      [3, check],
      [3, check],
      [1, check],
      [3, check],
      [1, check],
      [3, check],
      [1, check],
    ]);
    const r = h.result!;
    expect(r.pots).toEqual([
      {
        amount: 5,
        eligible: [1, 3],
        winners: [
          { seat: 3, amount: 3 },
          { seat: 1, amount: 2 },
        ],
      },
    ]);
    expect(r.shown.every((s) => s.best.category === "straight")).toBe(true);
    expect(stackOf(h, 3) + stackOf(h, 1) + stackOf(h, 2)).toBe(150);
  });

  it("shows the river's last aggressor first; a caller who cannot win mucks", () => {
    let h = deal({
      button: 1,
      stacks: { 1: 100, 2: 100, 3: 100 },
      hole: { 1: "Ah Ad", 2: "7c 2d", 3: "Kh Kd" },
      board: "As 9s 5c 4d 3h",
    }).hand;
    h = play(h, [
      [1, call],
      [2, fold],
      [3, check],
      [3, check],
      [1, check],
      [3, check],
      [1, check],
      [3, bet(10)],
      [1, call],
    ]);
    const r = h.result!;
    // Seat 3 bet the river: it shows first, seat 1 beats it and shows; nothing is mucked.
    expect(r.shown.map((s) => s.seat)).toEqual([3, 1]);
    expect(r.won).toEqual([{ seat: 1, amount: 25 }]);

    // Now seat 1 bets the river and seat 3 calls with the worse hand: seat 3 mucks.
    let g = deal({
      button: 1,
      stacks: { 1: 100, 2: 100, 3: 100 },
      hole: { 1: "Ah Ad", 2: "7c 2d", 3: "Kh Kd" },
      board: "As 9s 5c 4d 3h",
    }).hand;
    g = play(g, [
      [1, call],
      [2, fold],
      [3, check],
      [3, check],
      [1, check],
      [3, check],
      [1, check],
      [3, check],
      [1, bet(10)],
      [3, call],
    ]);
    expect(g.result!.shown.map((s) => s.seat)).toEqual([1]);
    expect(g.result!.mucked).toEqual([3]);
    expect(g.result!.shown[0]!.best).toMatchObject({ category: "three-of-a-kind", cards: cards("Ad Ah As 9s 5c") });
  });

  it("with no bet on the river the first seat left of the button shows first", () => {
    let h = deal({
      button: 3,
      stacks: { 1: 100, 2: 100, 3: 100 },
      hole: { 1: "Ah Ad", 2: "Kh Kd", 3: "Qh Qd" },
      board: "2s 7s 9c Td 3h",
    }).hand;
    // Seat 1 is the small blind, seat 2 the big blind, seat 3 (the button) opens.
    h = play(h, [
      [3, call],
      [1, call],
      [2, check],
      ...[1, 2, 3].flatMap(() => [
        [1, check] as [number, HoldemAction],
        [2, check] as [number, HoldemAction],
        [3, check] as [number, HoldemAction],
      ]),
    ]);
    // Seat 1 shows first and wins; the others cannot beat it and muck.
    expect(h.result!.shown.map((s) => s.seat)).toEqual([1]);
    expect(h.result!.mucked).toEqual([2, 3]);
  });

  it("a hand won by folds shows nothing and gives back the bet nobody called", () => {
    let h = deal({ button: 1, stacks: { 1: 100, 2: 100, 3: 100 } }).hand;
    h = play(h, [
      [1, raise(10)],
      [2, fold],
      [3, fold],
    ]);
    expect(h.result).toMatchObject({ showdown: false, shown: [], uncalled: { seat: 1, amount: 8 }, won: [{ seat: 1, amount: 5 }] });
    expect(h.result!.stacks).toEqual([
      { seat: 1, stack: 103 },
      { seat: 2, stack: 99 },
      { seat: 3, stack: 98 },
    ]);
  });

  it("a big blind all-in for less than the blind is called at the full blind, and the rest is given back", () => {
    let h = deal({ button: 1, stacks: { 1: 100, 2: 1 } }).hand;
    expect(legalActions(h, 1)).toMatchObject({ call: 1, raise: null });
    h = play(h, [[1, call]]);
    expect(h.phase).toBe("complete");
    expect(h.result!.board).toHaveLength(5);
    expect(h.result!.uncalled).toEqual({ seat: 1, amount: 1 });
    expect(h.result!.pots.map((p) => p.amount)).toEqual([2]);
  });
});

describe("Hold'em hand: the decision timer", () => {
  it("asks to be woken at the deadline, time bank included, and checks for an idle player when checking is free", () => {
    const start = deal({ button: 1, stacks: { 1: 100, 2: 100 } }, 1_000);
    expect(start.effects).toContainEqual({ type: "wake", at: 1_000 + 10_000 + 5_000 });
    let h = play(start.hand, [[1, call]], 2_000);
    expect(h.toAct).toBe(2);
    expect(wakeAt(h)).toBe(2_000 + 15_000);
    // A tick before the deadline changes nothing.
    const early = step(h, { type: "tick" }, 16_999);
    expect(early.hand.toAct).toBe(2);
    expect(early.hand.actions).toHaveLength(1);
    const late = step(h, { type: "tick" }, 17_000);
    expect(late.hand.actions.at(-1)).toEqual({ seat: 2, street: "preflop", action: check, auto: "timeout" });
    expect(late.hand.seats.find((s) => s.seat === 2)!.timeBank).toBe(0);
    h = late.hand;
    expect(h.phase).toBe("flop");
    expect(late.effects).toContainEqual({ type: "wake", at: 17_000 + 10_000 + 0 });
  });

  it("folds for an idle player facing a bet", () => {
    let h = deal({ button: 1, stacks: { 1: 100, 2: 100, 3: 100 } }).hand;
    h = play(h, [[1, raise(6)]]);
    const late = step(h, { type: "tick" }, wakeAt(h)!);
    expect(late.hand.actions.at(-1)).toMatchObject({ seat: 2, action: fold, auto: "timeout" });
  });

  it("spends the time bank only on the time a decision takes beyond the ordinary decision time", () => {
    let h = deal({ button: 1, stacks: { 1: 100, 2: 100 } }, 0).hand;
    h = play(h, [[1, call]], 12_000);
    expect(h.seats.find((s) => s.seat === 1)!.timeBank).toBe(3_000);
    h = play(h, [[2, check]], 13_000);
    expect(h.seats.find((s) => s.seat === 2)!.timeBank).toBe(5_000);
  });

  it("checks or folds at once for a dropped player whose turn comes, and not once they are back", () => {
    let h = deal({ button: 1, stacks: { 1: 100, 2: 100, 3: 100 }, disconnected: [2] }).hand;
    h = play(h, [[1, raise(6)]]);
    expect(h.actions.at(-1)).toMatchObject({ seat: 2, action: fold, auto: "away" });
    expect(h.toAct).toBe(3);

    let g = deal({ button: 1, stacks: { 1: 100, 2: 100, 3: 100 } }).hand;
    g = step(g, { type: "drop", seat: 2 }, 0).hand;
    g = step(g, { type: "reconnect", seat: 2 }, 0).hand;
    g = play(g, [[1, call]]);
    expect(g.toAct).toBe(2);
  });
});

describe("Hold'em hand: chips are conserved", () => {
  /** A random legal action of the seat to act, from fast-check's choices. */
  function pick(h: HoldemHand, choice: number, size: number): HandEvent {
    const legal = legalActions(h, h.toAct!)!;
    const options: HoldemAction[] = [fold];
    if (legal.check) options.push(check);
    if (legal.call !== null) options.push(call);
    for (const kind of ["bet", "raise"] as const) {
      const range = legal[kind];
      if (range) options.push({ type: kind, amount: range.min + Math.floor(size * (range.max - range.min + 1)) }, { type: "allIn" });
    }
    return { type: "act", seat: h.toAct!, action: options[choice % options.length]! };
  }

  it("keeps stacks plus pots constant and no stack negative in every state a random hand reaches", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 2, maxLength: 9 }),
        fc.integer({ min: 0, max: 8 }),
        fc.shuffledSubarray(FULL_DECK as Card[], { minLength: 52, maxLength: 52 }),
        fc.array(fc.tuple(fc.nat(), fc.double({ min: 0, max: 0.999, noNaN: true }), fc.boolean()), { minLength: 200, maxLength: 200 }),
        (stackList, buttonIndex, deck, choices) => {
          const seats = stackList.map((stack, i) => ({ seat: i + 1, playerId: `p${i + 1}`, stack, timeBank: 5_000, connected: true }));
          const n = seats.length;
          const button = (buttonIndex % n) + 1;
          const smallBlind = n === 2 ? button : (button % n) + 1;
          const bigBlind = (smallBlind % n) + 1;
          const total = stackList.reduce((a, b) => a + b, 0);
          let h = startHand(
            { handNumber: 1, config: CONFIG, button, smallBlindSeat: smallBlind, bigBlindSeat: bigBlind, seats, deck },
            0,
          ).hand;
          let now = 0;
          for (const [choice, size, timeout] of choices) {
            if (h.phase === "complete") break;
            expect(chipsInPlay(h)).toBe(total);
            expect(h.seats.every((s) => s.stack >= 0 && Number.isInteger(s.stack))).toBe(true);
            const toAct = h.seats.find((s) => s.seat === h.toAct)!;
            expect(toAct.folded || toAct.allIn).toBe(false);
            expect(h.board).toHaveLength({ preflop: 0, flop: 3, turn: 4, river: 5 }[h.phase as Street]);
            const legal = legalActions(h, toAct.seat)!;
            for (const range of [legal.bet, legal.raise]) if (range) expect(range.min).toBeLessThanOrEqual(range.max);
            now += 1_000;
            const event: HandEvent = timeout ? { type: "tick" } : pick(h, choice, size);
            if (timeout) now = wakeAt(h)!;
            const next = step(h, event, now);
            expect(next.refusal).toBeUndefined();
            h = next.hand;
          }
          expect(h.phase).toBe("complete");
          const r = h.result!;
          expect(r.stacks.reduce((a, s) => a + s.stack, 0)).toBe(total);
          expect(r.pots.reduce((a, p) => a + p.amount, 0) + (r.uncalled?.amount ?? 0)).toBe(
            h.seats.reduce((a, s) => a + s.contributed, 0) + (r.uncalled?.amount ?? 0),
          );
          expect(r.stacks.every((s) => s.stack >= 0)).toBe(true);
          for (const pot of r.pots) expect(pot.winners.reduce((a, w) => a + w.amount, 0)).toBe(pot.amount);
          // A pot's winner is never a mucked hand: every winner at a showdown is shown with its five cards.
          if (r.showdown) for (const pot of r.pots) for (const w of pot.winners) expect(r.shown.map((x) => x.seat)).toContain(w.seat);
        },
      ),
      { numRuns: 250 },
    );
  });
});

describe("Hold'em hand: what a player sees", () => {
  it("shows a player their own hole cards only, never the deck, and the hands turned up once it is over", () => {
    let h = deal({
      button: 1,
      stacks: { 1: 100, 2: 100, 3: 100 },
      hole: { 1: "Ah Ad", 2: "7c 2d", 3: "Kh Kd" },
      board: "As 9s 5c 4d 3h",
    }).hand;
    const view = handView(h, 2);
    expect(view.seats.map((s) => s.hole)).toEqual([null, cards("7c 2d"), null]);
    expect(JSON.stringify(view)).not.toContain('"deck"');
    expect(view.legal).toBeNull();
    expect(handView(h, 1).legal).toMatchObject({ seat: 1, call: 2 });
    expect(handView(h, null).seats.every((s) => s.hole === null)).toBe(true);
    expect(view.pot).toBe(3);
    h = play(h, [
      [1, call],
      [2, fold],
      [3, check],
      ...[1, 2, 3].flatMap(() => [[3, check] as [number, HoldemAction], [1, check] as [number, HoldemAction]]),
    ]);
    // Seat 3 shows first (left of the button, seat 2 folded), seat 1 beats it and shows.
    expect(handView(h, null).seats.map((s) => s.hole)).toEqual([cards("Ah Ad"), null, cards("Kh Kd")]);
  });
});

describe("Hold'em hand: a start that cannot be dealt", () => {
  it("refuses blinds out of place, a seat twice, an empty stack or a deck that is not the 52 cards", () => {
    const ok = { button: 1, stacks: { 1: 100, 2: 100, 3: 100 } };
    expect(() => deal(ok)).not.toThrow();
    expect(() => deal({ ...ok, smallBlind: 3, bigBlind: 1 })).toThrow(/small blind/);
    expect(() => deal({ ...ok, smallBlind: 2, bigBlind: 1 })).toThrow(/big blind/);
    expect(() => deal({ button: 1, smallBlind: 2, bigBlind: 1, stacks: { 1: 100, 2: 100 } })).toThrow(/heads-up/);
    expect(() => deal({ ...ok, stacks: { 1: 100, 2: 0, 3: 100 } })).toThrow(/stack/);
    const start = deal(ok).hand;
    const base = { handNumber: 1, config: CONFIG, button: 1, smallBlindSeat: 2, bigBlindSeat: 3 };
    const seats = start.seats.map((s) => ({ seat: s.seat, playerId: s.playerId, stack: 100, timeBank: 0, connected: true }));
    expect(() => startHand({ ...base, seats, deck: [...FULL_DECK.slice(1), 1] }, 0)).toThrow(/52 cards/);
    expect(() => startHand({ ...base, seats: [...seats, seats[0]!], deck: FULL_DECK }, 0)).toThrow(/once/);
  });
});
