import { z } from "zod";
import type { Card } from "../cards";
import type { HoldemConfig } from "./config";
import { bestHand, type BestHand } from "./evaluator";
import { awardPots, buildPots, type Pot } from "./pots";

/**
 * One hand of no-limit Texas Hold'em, from the blinds to the showdown, as a pure machine:
 * `startHand(start, now)` then `step(hand, event, now)`, each returning the next hand and its effects.
 * It reads no clock and draws no random number: the time is the `now` it is given, the decision timer is
 * a wake-up time it asks for (`wakeAt`, and a `wake` effect whenever that changes), and the cards come
 * from the deck order it is started with (deck.ts derives it from the committed seeds). A room adapts it
 * the way the blackjack table's room adapts its round machine. The rules, in words:
 * docs/architecture/holdem.md.
 *
 * Every amount is whole coins. Chips are conserved: at every step the seats' stacks plus what they have
 * put in the pot equal the stacks they started with.
 */

export type Street = "preflop" | "flop" | "turn" | "river";
export type HandPhase = Street | "complete";

/**
 * A player's decision. `bet` and `raise` name the total the seat's bet reaches on this street ("raise
 * to"), not the amount added. `allIn` puts in every chip the seat has: a call, a bet or a raise,
 * whichever that makes.
 */
export const holdemAction = z.discriminatedUnion("type", [
  z.object({ type: z.literal("fold") }).strict(),
  z.object({ type: z.literal("check") }).strict(),
  z.object({ type: z.literal("call") }).strict(),
  z.object({ type: z.literal("bet"), amount: z.number().int().positive() }).strict(),
  z.object({ type: z.literal("raise"), amount: z.number().int().positive() }).strict(),
  z.object({ type: z.literal("allIn") }).strict(),
]);
export type HoldemAction = z.infer<typeof holdemAction>;

/** Why an action was taken for the player: the decision timer ran out, or the player was away. */
export type AutoReason = "timeout" | "away";

/** An action as applied, `allIn` resolved to what it was (the record a hand is replayed from). */
export interface RecordedHoldemAction {
  seat: number;
  street: Street;
  action: Exclude<HoldemAction, { type: "allIn" }>;
  auto: AutoReason | null;
}

export interface HandSeat {
  seat: number;
  playerId: string;
  /** Chips behind (not yet put in). */
  stack: number;
  /** Put in on this street. */
  committed: number;
  /** Put in over the whole hand, this street included. */
  contributed: number;
  hole: Card[];
  folded: boolean;
  allIn: boolean;
  /** The street's bet level when the seat last acted (null: it has not acted on this street). */
  actedAt: number | null;
  timeBank: number;
  connected: boolean;
}

/** A seat dealt into the hand, as the table gives it. */
export interface HandStartSeat {
  seat: number;
  playerId: string;
  stack: number;
  timeBank: number;
  connected: boolean;
  /** A newcomer (or a player back from sitting out) who posts a big blind to play at once. */
  postsBigBlind?: boolean;
}

export interface HandStart {
  handNumber: number;
  config: HoldemConfig;
  button: number;
  /** Heads-up the button is the small blind. */
  smallBlindSeat: number;
  bigBlindSeat: number;
  seats: readonly HandStartSeat[];
  /** The hand's 52 cards in dealing order (deck.ts). */
  deck: readonly Card[];
}

export interface ShownHand {
  seat: number;
  hole: Card[];
  best: BestHand;
}

export interface HandResult {
  board: Card[];
  /** The hand went to a showdown (else every other seat folded). */
  showdown: boolean;
  /** The part of the last bet nobody called, given back before the pots are built. */
  uncalled: { seat: number; amount: number } | null;
  /** Main pot first, then each side pot. */
  pots: Pot[];
  /** The hands turned up, in showdown order, with the five cards each plays. */
  shown: ShownHand[];
  /** Seats that reached the showdown and threw their hand away unseen (it could win nothing). */
  mucked: number[];
  /** What each seat won over all pots (uncalled chips not included). */
  won: { seat: number; amount: number }[];
  /** Each seat's stack after the hand. */
  stacks: { seat: number; stack: number }[];
}

export interface HoldemHand {
  handNumber: number;
  config: HoldemConfig;
  button: number;
  smallBlindSeat: number;
  bigBlindSeat: number;
  /** In seat order (clockwise). */
  seats: HandSeat[];
  deck: readonly Card[];
  /** The next card of the deck to deal. */
  next: number;
  board: Card[];
  phase: HandPhase;
  /** The seat whose decision it is (null once the betting is over). */
  toAct: number | null;
  /** When the seat to act got the turn. */
  turnStartedAt: number | null;
  /** The street's highest bet. */
  currentBet: number;
  /** The size of the last full bet or raise on this street: the least a raise must add. */
  minRaise: number;
  /** The last seat to bet or raise on this street. */
  lastAggressor: number | null;
  actions: RecordedHoldemAction[];
  result: HandResult | null;
}

export type HandEvent =
  | { type: "act"; seat: number; action: HoldemAction }
  /** The room's timer fired (the machine checks the time itself). */
  | { type: "tick" }
  | { type: "drop"; seat: number }
  | { type: "reconnect"; seat: number };

export type HandEffect =
  | { type: "wake"; at: number | null }
  | { type: "acted"; action: RecordedHoldemAction }
  | { type: "dealt"; street: Exclude<Street, "preflop">; cards: Card[] }
  | { type: "complete"; result: HandResult };

export interface HandRefusal {
  code: "not_your_turn" | "illegal_action" | "hand_over" | "unknown_seat";
  message: string;
}

export interface HandStep {
  hand: HoldemHand;
  effects: HandEffect[];
  /** The action is refused; the hand is unchanged. */
  refusal?: HandRefusal;
}

/** What the seat to act may do; amounts of `bet` and `raise` are "to" totals for the street. */
export interface LegalActions {
  seat: number;
  fold: boolean;
  check: boolean;
  /** Chips a call adds (at most the stack: a short call is all-in), or null when there is nothing to call. */
  call: number | null;
  bet: { min: number; max: number } | null;
  raise: { min: number; max: number } | null;
}

// ---------------------------------------------------------------------------------------------------

const clone = (h: HoldemHand): HoldemHand => ({
  ...h,
  seats: h.seats.map((s) => ({ ...s, hole: [...s.hole] })),
  board: [...h.board],
  actions: [...h.actions],
});

const seatOf = (h: HoldemHand, seat: number): HandSeat | undefined => h.seats.find((s) => s.seat === seat);
const live = (h: HoldemHand) => h.seats.filter((s) => !s.folded);
const canAct = (h: HoldemHand) => h.seats.filter((s) => !s.folded && !s.allIn);
const needsAction = (h: HoldemHand, s: HandSeat) => s.actedAt === null || s.committed < h.currentBet;

/** The seats clockwise starting after `seat` (which comes last). */
function clockwiseAfter(h: HoldemHand, seat: number): HandSeat[] {
  const i = h.seats.findIndex((s) => s.seat > seat);
  const start = i < 0 ? 0 : i;
  return [...h.seats.slice(start), ...h.seats.slice(0, start)];
}

function put(s: HandSeat, chips: number): void {
  const amount = Math.min(chips, s.stack);
  s.stack -= amount;
  s.committed += amount;
  s.contributed += amount;
  if (s.stack === 0) s.allIn = true;
}

/** Starts a hand: checks the start, posts the blinds, deals the hole cards and gives the first turn. */
export function startHand(start: HandStart, now: number): HandStep {
  checkStart(start);
  const { config } = start;
  const seats: HandSeat[] = [...start.seats]
    .sort((a, b) => a.seat - b.seat)
    .map((s) => ({
      seat: s.seat,
      playerId: s.playerId,
      stack: s.stack,
      committed: 0,
      contributed: 0,
      hole: [],
      folded: false,
      allIn: false,
      actedAt: null,
      timeBank: s.timeBank,
      connected: s.connected,
    }));
  const h: HoldemHand = {
    handNumber: start.handNumber,
    config,
    button: start.button,
    smallBlindSeat: start.smallBlindSeat,
    bigBlindSeat: start.bigBlindSeat,
    seats,
    deck: [...start.deck],
    next: 0,
    board: [],
    phase: "preflop",
    toAct: null,
    turnStartedAt: null,
    currentBet: config.bigBlind,
    minRaise: config.bigBlind,
    lastAggressor: null,
    actions: [],
    result: null,
  };
  put(seatOf(h, start.smallBlindSeat)!, config.smallBlind);
  put(seatOf(h, start.bigBlindSeat)!, config.bigBlind);
  for (const s of start.seats)
    if (s.postsBigBlind && s.seat !== start.smallBlindSeat && s.seat !== start.bigBlindSeat) put(seatOf(h, s.seat)!, config.bigBlind);
  // Two rounds of one card each, starting with the seat left of the button (heads-up: the big blind).
  const order = clockwiseAfter(h, h.button);
  for (let round = 0; round < 2; round++) for (const s of order) s.hole.push(h.deck[h.next++]!);
  const effects: HandEffect[] = [];
  advance(h, h.bigBlindSeat, now, effects);
  playForAway(h, now, effects);
  effects.push({ type: "wake", at: wakeAt(h) });
  return { hand: h, effects };
}

function checkStart(start: HandStart): void {
  const numbers = start.seats.map((s) => s.seat);
  if (start.seats.length < 2) throw new Error("a hand needs at least two seats");
  if (new Set(numbers).size !== numbers.length) throw new Error("each seat may be dealt in only once");
  for (const n of [start.button, start.smallBlindSeat, start.bigBlindSeat])
    if (!numbers.includes(n)) throw new Error(`seat ${n} is not dealt in`);
  if (start.smallBlindSeat === start.bigBlindSeat) throw new Error("the small and big blinds are different seats");
  const sorted = [...numbers].sort((a, b) => a - b);
  const after = (n: number) => sorted.find((x) => x > n) ?? sorted[0]!;
  if (start.seats.length === 2 && start.smallBlindSeat !== start.button) throw new Error("heads-up, the button posts the small blind");
  if (start.seats.length > 2 && start.smallBlindSeat !== after(start.button))
    throw new Error("the small blind is the first seat dealt in left of the button");
  if (start.bigBlindSeat !== after(start.smallBlindSeat))
    throw new Error("the big blind is the first seat dealt in left of the small blind");
  if (start.seats.some((s) => !Number.isSafeInteger(s.stack) || s.stack < 1))
    throw new Error("every stack is a whole number of coins, at least 1");
  if (start.deck.length !== 52 || new Set(start.deck).size !== 52 || start.deck.some((c) => !Number.isInteger(c) || c < 0 || c > 51))
    throw new Error("the deck must be the 52 cards, each once");
}

/** The next time the hand needs a `tick`: the deadline of the decision in progress, time bank included. */
export function wakeAt(h: HoldemHand): number | null {
  if (h.phase === "complete" || h.toAct === null || h.turnStartedAt === null) return null;
  return h.turnStartedAt + h.config.decisionMs + seatOf(h, h.toAct)!.timeBank;
}

/** When the seat to act starts spending its time bank (the end of its ordinary decision time). */
export const bankStartsAt = (h: HoldemHand): number | null =>
  h.toAct === null || h.turnStartedAt === null ? null : h.turnStartedAt + h.config.decisionMs;

/** What `seat` may do now, or null when it is not its turn. */
export function legalActions(h: HoldemHand, seat: number): LegalActions | null {
  if (h.phase === "complete" || h.toAct !== seat) return null;
  const s = seatOf(h, seat)!;
  const owed = h.currentBet - s.committed;
  const call = owed > 0 ? Math.min(owed, s.stack) : null;
  const max = s.committed + s.stack;
  // A seat may bet or raise when it has chips beyond the call, somebody is left to answer, and the
  // betting is open to it: it has not acted on this street, or it has since faced at least a full raise
  // (an all-in for less than a full raise does not reopen the betting to a seat that already acted).
  const others = canAct(h).some((o) => o.seat !== seat);
  const reopened = s.actedAt === null || h.currentBet - s.actedAt >= h.minRaise;
  const aggressive = s.stack > Math.max(owed, 0) && others && reopened;
  const bet = aggressive && h.currentBet === 0 ? { min: Math.min(h.config.bigBlind, max), max } : null;
  const raise = aggressive && h.currentBet > 0 ? { min: Math.min(h.currentBet + h.minRaise, max), max } : null;
  return { seat, fold: true, check: owed <= 0, call, bet, raise };
}

/** The action taken for a player who is out of time or away: check when it is free, else fold. */
export const defaultAction = (legal: LegalActions): { type: "check" } | { type: "fold" } =>
  legal.check ? { type: "check" } : { type: "fold" };

/** Turns an action into the recorded one (allIn resolved), or a refusal when it is not legal. */
function resolve(legal: LegalActions, s: HandSeat, action: HoldemAction): RecordedHoldemAction["action"] | string {
  const all = s.committed + s.stack;
  switch (action.type) {
    case "fold":
      return action;
    case "check":
      return legal.check ? action : "There is a bet to call";
    case "call":
      return legal.call !== null ? action : "There is nothing to call";
    case "allIn":
      if (legal.bet) return { type: "bet", amount: all };
      if (legal.raise) return { type: "raise", amount: all };
      if (legal.call !== null && legal.call === s.stack) return { type: "call" };
      return "All-in is not open to you now";
    case "bet":
    case "raise": {
      const range = legal[action.type];
      if (!range) return `You cannot ${action.type} now`;
      if (action.amount < range.min || action.amount > range.max)
        return `A ${action.type} must bring your bet to between ${range.min} and ${range.max}`;
      return action;
    }
  }
}

function apply(h: HoldemHand, s: HandSeat, action: RecordedHoldemAction["action"]): void {
  switch (action.type) {
    case "fold":
      s.folded = true;
      break;
    case "check":
      break;
    case "call":
      put(s, h.currentBet - s.committed);
      break;
    case "bet":
    case "raise": {
      put(s, action.amount - s.committed);
      const raisedBy = s.committed - h.currentBet;
      // A full raise sets the size the next one must match; an all-in for less raises the bet level only.
      if (raisedBy >= h.minRaise) h.minRaise = raisedBy;
      if (s.committed > h.currentBet) h.currentBet = s.committed;
      h.lastAggressor = s.seat;
      break;
    }
  }
  s.actedAt = h.currentBet;
}

/** One event at time `now`: the hand's next state and what the room must do. */
export function step(hand: HoldemHand, event: HandEvent, now: number): HandStep {
  if (hand.phase === "complete") return event.type === "act" ? refuse(hand, "hand_over", "The hand is over") : { hand, effects: [] };
  if (event.type !== "tick" && !seatOf(hand, event.seat)) return refuse(hand, "unknown_seat", `Seat ${event.seat} is not in this hand`);
  const before = wakeAt(hand);
  const h = clone(hand);
  const effects: HandEffect[] = [];
  switch (event.type) {
    case "act": {
      if (h.toAct !== event.seat) return refuse(hand, "not_your_turn", "It is not your turn");
      const parsed = holdemAction.safeParse(event.action);
      if (!parsed.success) return refuse(hand, "illegal_action", "That is not a poker action");
      const s = seatOf(h, event.seat)!;
      const action = resolve(legalActions(h, event.seat)!, s, parsed.data);
      if (typeof action === "string") return refuse(hand, "illegal_action", action);
      s.timeBank = Math.max(0, s.timeBank - Math.max(0, now - h.turnStartedAt! - h.config.decisionMs));
      act(h, s, action, null, now, effects);
      break;
    }
    case "tick": {
      const deadline = wakeAt(h);
      if (deadline !== null && now >= deadline) {
        const s = seatOf(h, h.toAct!)!;
        s.timeBank = 0;
        act(h, s, defaultAction(legalActions(h, s.seat)!), "timeout", now, effects);
      }
      break;
    }
    case "drop":
      seatOf(h, event.seat)!.connected = false;
      break;
    case "reconnect":
      seatOf(h, event.seat)!.connected = true;
      break;
  }
  playForAway(h, now, effects);
  const after = wakeAt(h);
  if (after !== before || event.type === "tick") effects.push({ type: "wake", at: after });
  return { hand: h, effects };
}

const refuse = (hand: HoldemHand, code: HandRefusal["code"], message: string): HandStep => ({
  hand,
  effects: [],
  refusal: { code, message },
});

function act(
  h: HoldemHand,
  s: HandSeat,
  action: RecordedHoldemAction["action"],
  auto: AutoReason | null,
  now: number,
  effects: HandEffect[],
) {
  const recorded: RecordedHoldemAction = { seat: s.seat, street: h.phase as Street, action, auto };
  apply(h, s, action);
  h.actions.push(recorded);
  effects.push({ type: "acted", action: recorded });
  advance(h, s.seat, now, effects);
}

/** A dropped player whose turn comes is checked or folded at once (within the grace the table gives). */
function playForAway(h: HoldemHand, now: number, effects: HandEffect[]): void {
  while (h.phase !== "complete" && h.toAct !== null) {
    const s = seatOf(h, h.toAct)!;
    if (s.connected) return;
    act(h, s, defaultAction(legalActions(h, s.seat)!), "away", now, effects);
  }
}

/** After an action by `from` (or the blinds): the next turn, the next street, or the end of the hand. */
function advance(h: HoldemHand, from: number, now: number, effects: HandEffect[]): void {
  if (live(h).length === 1) return finish(h, effects);
  const acting = canAct(h);
  const done =
    acting.length === 0 || (acting.length === 1 && acting[0]!.committed >= h.currentBet) || acting.every((s) => !needsAction(h, s));
  if (!done) {
    h.toAct = clockwiseAfter(h, from).find((s) => !s.folded && !s.allIn && needsAction(h, s))!.seat;
    h.turnStartedAt = now;
    return;
  }
  // The street is over. With at most one seat able to bet, the rest of the board is dealt at once.
  const runout = acting.length <= 1;
  while (h.phase !== "river") {
    dealStreet(h, effects);
    if (!runout) {
      h.toAct = clockwiseAfter(h, h.button).find((s) => !s.folded && !s.allIn)!.seat;
      h.turnStartedAt = now;
      return;
    }
  }
  finish(h, effects);
}

function dealStreet(h: HoldemHand, effects: HandEffect[]): void {
  const street = h.phase === "preflop" ? "flop" : h.phase === "flop" ? "turn" : "river";
  h.next += 1; // the burn card
  const cards = h.deck.slice(h.next, h.next + (street === "flop" ? 3 : 1));
  h.next += cards.length;
  h.board.push(...cards);
  h.phase = street;
  h.currentBet = 0;
  h.minRaise = h.config.bigBlind;
  h.lastAggressor = null;
  for (const s of h.seats) {
    s.committed = 0;
    s.actedAt = null;
  }
  effects.push({ type: "dealt", street, cards });
}

/** The seats still in, in showdown order: the river's last aggressor first, else the first left of the button. */
export function showdownOrder(h: HoldemHand): number[] {
  const inHand = clockwiseAfter(h, h.button).filter((s) => !s.folded);
  const first = h.phase === "river" && h.lastAggressor !== null ? inHand.findIndex((s) => s.seat === h.lastAggressor) : 0;
  const start = Math.max(first, 0);
  return [...inHand.slice(start), ...inHand.slice(0, start)].map((s) => s.seat);
}

function finish(h: HoldemHand, effects: HandEffect[]): void {
  const inHand = live(h);
  // Uncalled chips go back: the top contribution above the next highest was matched by nobody.
  const sorted = [...h.seats].sort((a, b) => b.contributed - a.contributed);
  const excess = sorted[0]!.contributed - sorted[1]!.contributed;
  const uncalled = excess > 0 ? { seat: sorted[0]!.seat, amount: excess } : null;
  if (uncalled) {
    const s = seatOf(h, uncalled.seat)!;
    s.contributed -= excess;
    s.committed = Math.max(0, s.committed - excess);
    s.stack += excess;
  }
  const showdown = inHand.length > 1;
  const order = showdown ? showdownOrder(h) : [inHand[0]!.seat];
  const values = new Map<number, number>();
  const bests = new Map<number, BestHand>();
  if (showdown)
    for (const s of inHand) {
      const best = bestHand([...s.hole, ...h.board]);
      bests.set(s.seat, best);
      values.set(s.seat, best.value);
    }
  const pots = awardPots(
    buildPots(h.seats.map((s) => ({ seat: s.seat, contributed: s.contributed, folded: s.folded }))),
    (seat) => values.get(seat) ?? 0,
    clockwiseAfter(h, h.button).map((s) => s.seat),
  );
  // Showing: with a player all-in every hand is turned up; otherwise the first in order shows and each
  // next seat shows only a hand at least as good as the best shown so far (a losing hand is mucked).
  const shown: ShownHand[] = [];
  const mucked: number[] = [];
  if (showdown) {
    const tabled = inHand.some((s) => s.allIn);
    let bestShown = -1;
    for (const seat of order) {
      const value = values.get(seat)!;
      if (tabled || value >= bestShown) {
        shown.push({ seat, hole: [...seatOf(h, seat)!.hole], best: bests.get(seat)! });
        bestShown = Math.max(bestShown, value);
      } else mucked.push(seat);
    }
  }
  const won = new Map<number, number>();
  for (const pot of pots) for (const w of pot.winners) won.set(w.seat, (won.get(w.seat) ?? 0) + w.amount);
  for (const s of h.seats) {
    s.stack += won.get(s.seat) ?? 0;
    s.committed = 0;
  }
  h.toAct = null;
  h.turnStartedAt = null;
  h.phase = "complete";
  h.result = {
    board: [...h.board],
    showdown,
    uncalled,
    pots,
    shown,
    mucked,
    won: [...won].map(([seat, amount]) => ({ seat, amount })),
    stacks: h.seats.map((s) => ({ seat: s.seat, stack: s.stack })),
  };
  effects.push({ type: "complete", result: h.result });
}

/** The chips in play: every stack plus everything put in (constant from the first step to the last). */
export const chipsInPlay = (h: HoldemHand): number =>
  h.seats.reduce((sum, s) => sum + s.stack + (h.phase === "complete" ? 0 : s.contributed), 0);

/** Replays a recorded hand's actions from its start (how a verifier deals a hand again). */
export function replayHand(start: HandStart, actions: readonly { seat: number; action: HoldemAction }[]): HoldemHand {
  // Seats are all connected in a replay: an action taken for an away player is in the record like any other.
  let h = startHand({ ...start, seats: start.seats.map((s) => ({ ...s, connected: true })) }, 0).hand;
  actions.forEach((a, i) => {
    const next = step(h, { type: "act", seat: a.seat, action: a.action }, 0);
    if (next.refusal) throw new Error(`action ${i + 1} (seat ${a.seat}) is refused: ${next.refusal.message}`);
    h = next.hand;
  });
  return h;
}

/** What one player (or a spectator, `viewer` null) may see of a hand: no deck, no other player's hole cards. */
export interface HandView {
  handNumber: number;
  phase: HandPhase;
  button: number;
  smallBlindSeat: number;
  bigBlindSeat: number;
  board: Card[];
  /** Everything put in so far, this street's bets included. */
  pot: number;
  currentBet: number;
  toAct: number | null;
  /** The decision's deadline, time bank included, and when the time bank starts to run. */
  deadline: number | null;
  bankStartsAt: number | null;
  seats: {
    seat: number;
    playerId: string;
    stack: number;
    committed: number;
    folded: boolean;
    allIn: boolean;
    connected: boolean;
    timeBank: number;
    /** The viewer's own cards, or a hand turned up at the showdown; else null. */
    hole: Card[] | null;
  }[];
  /** The viewer's choices when it is the viewer's turn. */
  legal: LegalActions | null;
  result: HandResult | null;
}

export function handView(h: HoldemHand, viewer: number | null): HandView {
  const shown = new Map(h.result?.shown.map((s) => [s.seat, s.hole]) ?? []);
  return {
    handNumber: h.handNumber,
    phase: h.phase,
    button: h.button,
    smallBlindSeat: h.smallBlindSeat,
    bigBlindSeat: h.bigBlindSeat,
    board: [...h.board],
    pot: h.phase === "complete" ? 0 : h.seats.reduce((sum, s) => sum + s.contributed, 0),
    currentBet: h.currentBet,
    toAct: h.toAct,
    deadline: wakeAt(h),
    bankStartsAt: bankStartsAt(h),
    seats: h.seats.map((s) => ({
      seat: s.seat,
      playerId: s.playerId,
      stack: s.stack,
      committed: s.committed,
      folded: s.folded,
      allIn: s.allIn,
      connected: s.connected,
      timeBank: s.timeBank,
      hole: s.seat === viewer ? [...s.hole] : (shown.get(s.seat) ?? null),
    })),
    legal: viewer === null ? null : legalActions(h, viewer),
    result: h.result,
  };
}
