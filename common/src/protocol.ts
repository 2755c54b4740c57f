import { z } from "zod";
import { GAME_IDS } from "./catalogue";

/**
 * The casino room's protocol (one room per player: bets, actions of an open round, seeds, the daily
 * spin) and the rules every room's messages share (a request id, plain data). The other rooms' protocols
 * have a module each: crash-room.ts, leaderboard-room.ts, table.ts (the blackjack table), holdem-table.ts
 * and together.ts; rooms.ts names them all.
 */
export { CASINO_PUSH, ROOMS, type CasinoRoomState, type OpenRoundMessage, type OpenRoundView, type RoomName } from "./rooms";

/**
 * The one request-id rule, for room messages and REST alike. '#' is deliberately not allowed: the ledger
 * derives the ids of its own entries with it, so a client id can never collide with a derived one.
 */
import { requestId } from "./request-id";
import { clientSeed } from "./fairness/client-seed";

export { requestId };

/** A plain object (a msgpack map or a JSON object), not binary, an array or anything else. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** What a room message that is not an object of fields is answered with. */
export const NOT_AN_OBJECT = "A message must be an object of fields";

/** How deep a message's free-form values (bet params, actions) may nest: deeper than any game needs. */
export const MAX_VALUE_DEPTH = 8;
/** How many values (every array item and object field, at any depth) one free-form value may hold. */
export const MAX_VALUE_NODES = 1000;

/**
 * A free-form value of a message (a game's bet params, a round's action) as plain data before its
 * game's own schema reads it: null, booleans, strings, finite numbers, arrays and plain objects only,
 * at most MAX_VALUE_DEPTH deep and MAX_VALUE_NODES values in all. A room message is msgpack, which can
 * carry what JSON cannot: NaN, ±Infinity, -0, integers past 2^53, binary, dates, undefined. Each of
 * those is refused here, with the path of the first one, so nothing after this (fingerprinting,
 * storing as JSON, the game's rules) ever sees them.
 */
export const plainData = z.unknown().superRefine((value, ctx) => {
  let nodes = 0;
  const refuse = (path: (string | number)[], message: string) => {
    ctx.addIssue({ code: "custom", path, message });
    return false;
  };
  const check = (v: unknown, path: (string | number)[], depth: number): boolean => {
    if (++nodes > MAX_VALUE_NODES) return refuse([], `must hold at most ${MAX_VALUE_NODES} values`);
    if (v === undefined && path.length === 0) return refuse(path, "is required");
    if (v === null || typeof v === "boolean" || typeof v === "string") return true;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return refuse(path, "must be a finite number");
      if (Object.is(v, -0)) return refuse(path, "must not be negative zero");
      if (Math.abs(v) > Number.MAX_SAFE_INTEGER) return refuse(path, `must be at most ${Number.MAX_SAFE_INTEGER} in size`);
      return true;
    }
    if (typeof v !== "object") return refuse(path, `must be plain data, not ${typeof v === "bigint" ? "a 64-bit integer" : typeof v}`);
    if (depth >= MAX_VALUE_DEPTH) return refuse(path, `must nest at most ${MAX_VALUE_DEPTH} levels deep`);
    if (Array.isArray(v)) return v.every((item, i) => check(item, [...path, i], depth + 1));
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      return refuse(path, ArrayBuffer.isView(v) || v instanceof ArrayBuffer ? "must not be binary" : "must be plain data");
    }
    return Object.entries(v).every(([key, item]) => check(item, [...path, key], depth + 1));
  };
  check(value, [], 0);
});

export const betMessage = z
  .object({
    requestId,
    game: z.enum(GAME_IDS, { message: "unknown game" }),
    amount: z
      .number({ message: "amount must be a number" })
      .int("amount must be a whole number of coins")
      .positive("amount must be positive"),
    params: plainData.optional(),
  })
  .strict();
export type BetMessage = z.infer<typeof betMessage>;

export const actMessage = z.object({ requestId, action: plainData }).strict();
export type ActMessage = z.infer<typeof actMessage>;

export const setClientSeedMessage = z.object({ requestId, clientSeed }).strict();
export const rotateSeedMessage = z.object({ requestId, clientSeed: clientSeed.optional() }).strict();
export const dailySpinMessage = z.object({ requestId }).strict();

/**
 * Options of a casino room join. `clientSeed` (made in the browser) becomes the first client seed of a
 * player whose seed pair has never been used; otherwise the server keeps the pair it has.
 */
export const casinoJoinOptions = z.object({ clientSeed: clientSeed.optional() });
export type CasinoJoinOptions = z.infer<typeof casinoJoinOptions>;

/** Client → server message types. */
export const CLIENT_MESSAGES = {
  bet: "bet",
  act: "act",
  setClientSeed: "seed:client",
  rotateSeed: "seed:rotate",
  dailySpin: "daily-spin",
} as const;

/** Server → client message types. */
export const SERVER_MESSAGES = {
  result: "result",
  error: "error",
  notice: "notice",
  spin: "spin",
} as const;

export interface RoomErrorMessage {
  requestId?: string;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The fairness inputs of one round, as the player sees them before the server seed is revealed. */
export interface RoundFairness {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

/** The server's answer (`result` message) to a `bet` or an `act`; stored whole so a repeated request gets it again. */
export interface BetAnswer {
  requestId: string;
  game: string;
  /** The open round's id while a multi-step round runs (and on its last step); null for single-step games. */
  roundId: string | null;
  done: boolean;
  /** Coins staked and paid back by this step. */
  stake: number;
  payout: number;
  /** Coins staked and paid back by the whole round so far. */
  totalStake: number;
  totalPayout: number;
  result: "win" | "lose" | "push" | null;
  balance: number;
  /** The engine's public view of the round (secrets hidden while it is open). */
  view: unknown;
  /**
   * Set when a payout of this step was not a whole number of coins and was rounded (rule 2): what the
   * step paid before rounding, e.g. 1.98 for a 1-coin coin flip win that was paid 1 or 2. Result texts
   * use it to say what happened rather than "push" for a win that rounded to the stake.
   */
  unroundedPayout?: number;
  fairness: RoundFairness;
  /**
   * Set when the round was voided because its server seed was no longer the active one: the stake it
   * still held came back as a refund (`payout`), and the round is over.
   */
  voided?: true;
  /** Set on the repeat of a request already answered: this is the first answer, and its balance is from then. */
  replayed?: true;
}

/** The server's answer (`spin` message) to a `daily-spin`, and the body of `POST /api/daily-spin`. */
export interface SpinAnswer {
  requestId: string;
  prize: number;
  segment: number;
  balance: number;
  lastDailySpin: string;
  fairness: RoundFairness;
  /** Set on the repeat of a request already answered: this is the first answer, and its balance is from then. */
  replayed?: true;
}

/**
 * The player's seeds as shown before any change: the active pair (server seed as its SHA-256 only) and
 * the SHA-256 of the next server seed, committed before the player picks the client seed it will be
 * paired with. In the room state, the `seeds` message and `GET /api/player/:id/seeds`.
 */
export interface ActiveSeedView {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  nextServerSeedHash: string;
}

/** A server seed after rotation: now public, so every round played with it can be re-derived. */
export interface RevealedSeed {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  /** How many nonces (bets and spins) the pair served. */
  nonces: number;
  revealedAt: string;
}

/** The answer (`result` message) to `seed:rotate` and `seed:client`. */
export interface RotateAnswer {
  requestId: string;
  revealed: RevealedSeed;
  active: ActiveSeedView;
  replayed?: true;
}
