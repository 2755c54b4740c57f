import type { Card } from "../cards";
import { HOLDEM_MAX_SEATS, type HoldemConfig } from "./config";
import type { HandStart, HoldemHand } from "./hand-machine";

/**
 * The table around the hands: who sits where, who is dealt into the next hand and who posts what, the
 * button, sitting out and coming back, and a dropped player's grace. Pure functions over the seats, like
 * the hand machine; the room keeps the seats and calls them between hands.
 */

/**
 * `playing`: dealt into every hand. `waiting`: new at the table or back from sitting out, dealt in once
 * the big blind reaches the seat, or at once when `postNow` (posting a big blind). `sittingOut`: keeps the
 * seat and is dealt nothing.
 */
export type TableSeatStatus = "playing" | "waiting" | "sittingOut";

export interface TableSeat {
  seat: number;
  playerId: string;
  stack: number;
  timeBank: number;
  status: TableSeatStatus;
  /** A waiting player's choice: post a big blind to play the next hand rather than wait for it. */
  postNow: boolean;
  connected: boolean;
  /** A dropped player keeps the seat until then (checked or folded meanwhile); null when connected. */
  graceUntil: number | null;
}

/** Who plays the next hand and where the button and blinds are. */
export interface HandPlan {
  button: number;
  smallBlindSeat: number;
  bigBlindSeat: number;
  /** The seats dealt in, in seat order; a newcomer who pays to play at once posts a big blind. */
  dealt: { seat: number; postsBigBlind: boolean }[];
}

/** Seats a player with a buy-in in the table's range; the player waits for the big blind. */
export function sitDown(config: HoldemConfig, seat: number, playerId: string, buyIn: number): TableSeat {
  const min = config.minBuyInBigBlinds * config.bigBlind;
  const max = config.maxBuyInBigBlinds * config.bigBlind;
  if (!Number.isInteger(seat) || seat < 1 || seat > HOLDEM_MAX_SEATS) throw new Error(`the seats are 1 to ${HOLDEM_MAX_SEATS}`);
  if (!Number.isSafeInteger(buyIn) || buyIn < min || buyIn > max) throw new Error(`the buy-in is from ${min} to ${max} coins`);
  return {
    seat,
    playerId,
    stack: buyIn,
    timeBank: config.timeBankMs,
    status: "waiting",
    postNow: false,
    connected: true,
    graceUntil: null,
  };
}

/** The player sits out from the next hand on (a hand in progress is played, or folded, as usual). */
export const sitOut = (s: TableSeat): TableSeat => ({ ...s, status: "sittingOut", postNow: false });

/** Back from sitting out: waits for the big blind, or posts one to play the next hand (`postNow`). */
export const comeBack = (s: TableSeat, postNow = false): TableSeat =>
  s.status === "sittingOut" ? { ...s, status: "waiting", postNow } : s;

/** The connection dropped: the seat is kept for the grace period (the hand checks or folds for it). */
export const dropped = (s: TableSeat, now: number, config: HoldemConfig): TableSeat => ({
  ...s,
  connected: false,
  graceUntil: now + config.graceMs,
});

export const reconnected = (s: TableSeat): TableSeat => ({ ...s, connected: true, graceUntil: null });

/** Seats whose grace has run out are sat out (the room may free them); returns the seats and who lost theirs. */
export function expireGraces(seats: readonly TableSeat[], now: number): { seats: TableSeat[]; expired: number[] } {
  const expired = seats.filter((s) => s.graceUntil !== null && now >= s.graceUntil).map((s) => s.seat);
  return { seats: seats.map((s) => (expired.includes(s.seat) ? { ...sitOut(s), graceUntil: null } : s)), expired };
}

/** The earliest grace deadline, for the room's wake-up. */
export const nextGraceEnd = (seats: readonly TableSeat[]): number | null => {
  const times = seats.flatMap((s) => (s.graceUntil === null ? [] : [s.graceUntil]));
  return times.length ? Math.min(...times) : null;
};

/** The first of `seats` (seat numbers) clockwise after `after`; the lowest when none is after it. */
const firstAfter = (seats: readonly number[], after: number): number | undefined => seats.find((n) => n > after) ?? seats[0];

/** The next button: the first playing seat clockwise after the last button (the first playing seat at a new table). */
export function nextButton(playing: readonly number[], previous: number | null): number | undefined {
  const sorted = [...playing].sort((a, b) => a - b);
  return previous === null ? sorted[0] : firstAfter(sorted, previous);
}

/**
 * Plans the next hand, or null when fewer than two can play. The button moves to the next playing
 * seat; the small blind is the first playing seat after it and the big blind the first seat after that
 * with chips and not sitting out, a waiting player included (that is the player's big blind: they are
 * dealt in). A waiting player who chose to post is dealt in posting a big blind, unless the seat lies
 * between the button and the small blind (they wait one more hand). Heads-up the button posts the small
 * blind. When no game is running (fewer than two playing seats), every waiting player is dealt in
 * without posting.
 */
export function planHand(seats: readonly TableSeat[], previousButton: number | null): HandPlan | null {
  const eligible = seats.filter((s) => s.stack > 0 && s.status !== "sittingOut").sort((a, b) => a.seat - b.seat);
  if (eligible.length < 2) return null;
  const running = eligible.filter((s) => s.status === "playing").length >= 2;
  const playing = eligible.filter((s) => s.status === "playing" || !running).map((s) => s.seat);
  const button = nextButton(playing, running ? previousButton : null)!;
  const numbers = eligible.map((s) => s.seat);
  const smallBlind = firstAfter(playing, button)!;
  const bigBlind = firstAfter(numbers, smallBlind)!;
  // Clockwise distance from the button (seat numbers are at most HOLDEM_MAX_SEATS).
  const distance = (n: number) => (n > button ? n - button : n - button + HOLDEM_MAX_SEATS + 1);
  const posters = eligible
    .filter((s) => s.status === "waiting" && s.postNow && running && distance(s.seat) > distance(smallBlind))
    .map((s) => s.seat);
  const dealt = [...new Set([...playing, bigBlind, ...posters])].sort((a, b) => a - b);
  if (dealt.length === 2) {
    const other = dealt.find((n) => n !== button)!;
    return { button, smallBlindSeat: button, bigBlindSeat: other, dealt: dealt.map((seat) => ({ seat, postsBigBlind: false })) };
  }
  return {
    button,
    smallBlindSeat: smallBlind,
    bigBlindSeat: bigBlind,
    dealt: dealt.map((seat) => ({ seat, postsBigBlind: posters.includes(seat) && seat !== bigBlind })),
  };
}

/** The hand machine's start for a plan. */
export function handStart(
  plan: HandPlan,
  seats: readonly TableSeat[],
  config: HoldemConfig,
  handNumber: number,
  deck: readonly Card[],
): HandStart {
  return {
    handNumber,
    config,
    button: plan.button,
    smallBlindSeat: plan.smallBlindSeat,
    bigBlindSeat: plan.bigBlindSeat,
    deck,
    seats: plan.dealt.map(({ seat, postsBigBlind }) => {
      const s = seats.find((x) => x.seat === seat)!;
      return { seat, playerId: s.playerId, stack: s.stack, timeBank: s.timeBank, connected: s.connected, postsBigBlind };
    }),
  };
}

/**
 * The seats after a finished hand: the stacks it left, time banks refilled a little, every player dealt
 * in now `playing`, and a player left without chips sat out (until they add chips and come back).
 */
export function afterHand(seats: readonly TableSeat[], hand: HoldemHand): TableSeat[] {
  if (!hand.result) throw new Error("the hand is not over");
  return seats.map((s) => {
    const played = hand.seats.find((h) => h.seat === s.seat);
    if (!played) return s;
    const stack = hand.result!.stacks.find((x) => x.seat === s.seat)!.stack;
    const timeBank = Math.min(hand.config.timeBankMs, played.timeBank + hand.config.timeBankRefillMs);
    const status = stack === 0 ? "sittingOut" : s.status === "sittingOut" ? "sittingOut" : "playing";
    return { ...s, stack, timeBank, status, postNow: false };
  });
}
