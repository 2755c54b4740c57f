import { z } from "zod";
import { tableJoinOptions } from "./table-join";
import { requestId } from "./request-id";
import type { SeatSeed } from "./games/shoe";
import type { Card } from "./games/cards";
import { HOLDEM_DEFAULTS, HOLDEM_TABLE_SEATS, type HoldemConfig } from "./games/holdem/config";
import { holdemAction, type HandStart, type HandView, type HoldemAction, type LegalActions } from "./games/holdem/hand-machine";
import type { TableSeatStatus } from "./games/holdem/table";

/**
 * The Hold'em table room's protocol (`holdem-table`, docs/architecture/holdem.md, "The room"): its
 * messages' schemas, its state and its answers, written once for the server and a client. Imported by
 * path (`@casino/common/holdem-table`), like the hand machine it names, so it stays out of the lobby's
 * bundle.
 */

/** Seats at a Hold'em table (games/holdem/config.ts, so the together room's presence reads it without the machine). */
export { HOLDEM_TABLE_SEATS };

/** The pause after a hand, while its result and revealed seed are on show, before the next is dealt. */
export const HOLDEM_HAND_PAUSE_MS = 4_000;

/** The table's settings: the hand machine's defaults (1/2 blinds, 40 to 200 big blinds, 15 s + 30 s bank, 60 s grace). */
export const HOLDEM_TABLE_CONFIG: HoldemConfig = HOLDEM_DEFAULTS;

/** A table's smallest and largest buy-in, in coins, from its settings (a snapshot's `config`). */
export const holdemBuyInRange = (config: HoldemConfig): { min: number; max: number } => ({
  min: config.minBuyInBigBlinds * config.bigBlind,
  max: config.maxBuyInBigBlinds * config.bigBlind,
});

/** The smallest and largest buy-in, in coins. */
export const HOLDEM_BUY_IN = holdemBuyInRange(HOLDEM_TABLE_CONFIG);

/** Client → server message types. Each carries a `requestId` and is answered `result` or `error` with it. */
export const HOLDEM_MESSAGES = {
  /** `{ requestId, seat, buyIn }`: sit down at a free seat with a buy-in moved from the balance to the table. */
  sit: "holdem:sit",
  /** `{ requestId, action }`: the seat to act folds, checks, calls, bets or raises to an amount, or goes all-in. */
  act: "holdem:act",
  /** `{ requestId }`: keep the seat but be dealt nothing from the next hand on. */
  sitOut: "holdem:sit-out",
  /** `{ requestId, postNow? }`: back from sitting out: wait for the big blind, or post one to play the next hand. */
  comeBack: "holdem:come-back",
  /** `{ requestId }`: leave the seat; the stack goes back to the balance (after the hand, when dealt in). */
  leave: "holdem:leave",
} as const;
export type HoldemMessageType = (typeof HOLDEM_MESSAGES)[keyof typeof HOLDEM_MESSAGES];

/** Server → one client: what only that seated player may see (`HoldemPrivateView`). */
export const HOLDEM_PUSH = { private: "holdem:private" } as const;

/** Join options: the shared tables' (`tableJoinOptions`, table-join.ts), the blackjack table's rule. */
export const holdemJoinOptions = tableJoinOptions;

const seat = z
  .number({ error: `seat must be a number from 1 to ${HOLDEM_TABLE_SEATS}` })
  .int(`seat must be a whole number from 1 to ${HOLDEM_TABLE_SEATS}`)
  .min(1, `seat must be from 1 to ${HOLDEM_TABLE_SEATS}`)
  .max(HOLDEM_TABLE_SEATS, `seat must be from 1 to ${HOLDEM_TABLE_SEATS}`);

const buyInRange = `the buy-in is from ${HOLDEM_BUY_IN.min} to ${HOLDEM_BUY_IN.max} coins`;
const buyIn = z
  .number({ error: `buyIn must be a number: ${buyInRange}` })
  .int(`buyIn must be whole coins: ${buyInRange}`)
  .min(HOLDEM_BUY_IN.min, buyInRange)
  .max(HOLDEM_BUY_IN.max, buyInRange);

export const holdemSitMessage = z.object({ requestId, seat, buyIn }).strict();
export const holdemActMessage = z.object({ requestId, action: holdemAction }).strict();
export const holdemSitOutMessage = z.object({ requestId }).strict();
export const holdemComeBackMessage = z.object({ requestId, postNow: z.boolean().optional() }).strict();
export const holdemLeaveMessage = z.object({ requestId }).strict();
export type HoldemActMessage = z.infer<typeof holdemActMessage>;

/** A seated player as everyone at the table sees them. */
export interface HoldemSeatPlayer {
  seat: number;
  playerId: string;
  /** "Anonymous" for a player in anonymous mode. */
  username: string;
  avatarUrl: string | null;
  /** The seed of the generated face (a short hash of the player, the same on every surface), null when anonymous. */
  face: string | null;
  /** Chips at the table (between hands; during a hand the hand's view has what is behind and put in). */
  stack: number;
  status: TableSeatStatus;
  /** Connected now; a dropped player keeps the seat until `graceUntil`, checked or folded meanwhile. */
  connected: boolean;
  graceUntil: number | null;
  /** Asked to leave during a hand: the stack goes back when the hand is over. */
  leaving: boolean;
}

/**
 * A finished hand with its server seed revealed: `holdemHandFile` (games/holdem/deck.ts) reads it, so
 * `dealHoldemHand` and `npm run verify -- --holdem-hand` deal it again and compare the outcome.
 */
export interface HoldemRevealedHand {
  handId: string;
  serverSeed: string;
  serverSeedHash: string;
  seeds: SeatSeed[];
  start: Omit<HandStart, "deck">;
  actions: { seat: number; action: HoldemAction }[];
  outcome: { board: Card[]; hole: { seat: number; cards: Card[] }[]; stacks: { seat: number; stack: number }[] };
}

/**
 * `GET /api/holdem-hands/:id`: a finished hand's record as the database keeps it, its seed revealed. The
 * outcome is what the table recorded (the board and every stack after the hand); the hole cards are the
 * verifier's to deal again from the seeds.
 */
export type HoldemHandRecordAnswer = Omit<HoldemRevealedHand, "outcome"> & { outcome: Omit<HoldemRevealedHand["outcome"], "hole"> };

/** `GET /api/holdem-hands/:id`: a hand's id (a history row's `params.handId`). */
export const holdemHandIdParam = z.object({ id: z.uuid("A hand id is a UUID, as the history row's verify link has it") }).strict();

/**
 * `waiting`: fewer than two players can play. `playing`: a hand is dealt. `settling`: its result is being
 * written. `pause`: the result is on show until `nextHandAt`.
 */
export type HoldemTablePhase = "waiting" | "playing" | "settling" | "pause";

/**
 * The `holdem-table` room's state as plain data (JSON in the state's `snapshot`, the same for every
 * client): the public view of the hand, never a hole card before it is turned up at the showdown.
 */
export interface HoldemTableSnapshot {
  tableId: string;
  instanceId: string | null;
  phase: HoldemTablePhase;
  config: HoldemConfig;
  seats: HoldemSeatPlayer[];
  watchers: number;
  /** The hand on the table as a spectator sees it (`handView(hand, null)`), with its seed's commitment. */
  hand: (HandView & { serverSeedHash: string }) | null;
  /** SHA-256 of the next hand's server seed, shown before that hand is dealt. */
  nextServerSeedHash: string;
  /** The last finished hand, its seed revealed. */
  previousHand: HoldemRevealedHand | null;
  /** When the next hand is dealt (the pause after a hand), else null. */
  nextHandAt: number | null;
  /** The server's clock when it sent this snapshot (count down to a deadline by it). */
  serverTime: number;
}

/** The room's synchronised state: one `HoldemTableSnapshot` as JSON, "" until the room has published its first. */
export interface HoldemRoomState {
  snapshot: string;
}

/** The snapshot a Hold'em room's state holds, or null before the first: the one reader of that JSON. */
export function holdemSnapshotOf(state: Partial<HoldemRoomState> | undefined): HoldemTableSnapshot | null {
  const text = state?.snapshot;
  return text ? (JSON.parse(text) as HoldemTableSnapshot) : null;
}

/** `holdem:private`, to a seated player only, after every change: the player's own cards and choices. */
export interface HoldemPrivateView {
  seat: number;
  handNumber: number | null;
  /** The player's hole cards in the hand being played; null when not dealt in. */
  hole: Card[] | null;
  /** The player's choices when it is their turn. */
  legal: LegalActions | null;
}

/** The answer (`result`) to a Hold'em table message. */
export interface HoldemAnswer {
  requestId: string;
  type: HoldemMessageType;
  seat: number | null;
  /** The seat's stack after the message (the buy-in when sitting down; what went back when leaving). */
  stack: number | null;
  /** The player's balance after a buy-in or a cash-out, else null. */
  balance: number | null;
}
