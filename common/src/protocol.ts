import { z } from "zod";
import { GAME_IDS } from "./catalogue";
import { crashParams } from "./games/crash/engine";
import { stakeAmount } from "./stake";
import {
  LEADERBOARD_BOARDS,
  LEADERBOARD_MAX_LIMIT,
  LEADERBOARD_MAX_PAGE,
  LEADERBOARD_SCOPES,
  LEADERBOARD_WINDOWS,
  instanceId,
  snowflake,
  type BoardEntry,
  type LeaderboardBoard,
  type LeaderboardScope,
  type LeaderboardWindow,
} from "./api";
import { LEADERBOARD_PAGE_SIZE } from "./constants";

/** Room names (rooms.ts) and the messages clients send to them; every message is validated with these schemas. */
import { ROOMS } from "./rooms";

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

/*
 * The shared crash room: one room per Discord activity instance, one public room for everyone else.
 * Join with `{ instanceId }` (the SDK's instanceId inside Discord, null outside it).
 */
export const crashJoinOptions = z
  .object({
    instanceId: z
      .string()
      .min(1, "instanceId must not be empty")
      .max(128, "instanceId must be at most 128 characters")
      .regex(/^[A-Za-z0-9_-]+$/, "instanceId may hold letters, digits, '_' and '-' only")
      .nullable(),
  })
  .strict();
export type CrashJoinOptions = z.infer<typeof crashJoinOptions>;

/** A bet for the round in its betting phase, with an optional automatic cash-out (a multiplier, two decimals). */
export const crashBetMessage = z
  .object({
    requestId,
    amount: stakeAmount,
    autoCashOut: crashParams.shape.cashOutAt.nullable().optional(),
  })
  .strict();
export type CrashBetMessage = z.infer<typeof crashBetMessage>;

/** Cash out the player's bet of the running round at the current multiplier. */
export const crashCashOutMessage = z.object({ requestId }).strict();

export const CRASH_MESSAGES = { bet: "crash:bet", cashOut: "crash:cashout" } as const;

/** The room's phases: waiting (before the first round), betting, running, busted. */
export const CRASH_PHASES = ["waiting", "betting", "running", "busted"] as const;
export type CrashPhase = (typeof CRASH_PHASES)[number];

/** The answer (`result`) to a `crash:bet`. */
export interface CrashBetAnswer {
  requestId: string;
  roundId: string;
  gameNumber: number;
  amount: number;
  /** Hundredths (2.5× = 250), or null. */
  autoCashOut: number | null;
  balance: number;
}

/** The answer (`result`) to a `crash:cashout`, and what an automatic cash-out settles. */
export interface CrashCashOutAnswer {
  requestId: string;
  roundId: string;
  /** The multiplier paid, in hundredths. */
  cashedOutAt: number;
  amount: number;
  payout: number;
  balance: number;
}

/** A bet of the current round as everyone in the shared crash room sees it (multipliers in hundredths). */
export interface CrashRoomBet {
  playerId: string;
  username: string;
  /** The player's Discord picture, "" for none (anonymous players among them). */
  avatarUrl: string;
  amount: number;
  /** 0 when the bet has no automatic cash-out. */
  autoCashOut: number;
  status: "active" | "cashed_out" | "lost" | "refunded";
  cashedOutAt: number;
  payout: number;
  /** The seed of the generated face (a short hash of the player, the same on every surface), "" when anonymous. */
  face: string;
}

/** A finished game of the room with its revealed hash. */
export interface CrashRoomGame {
  roundId: string;
  gameNumber: number;
  crashPoint: number;
  gameHash: string;
  terminatingHash: string;
  /** busted, or void when a restart cut the round short in its betting phase. */
  phase: string;
  /** The payout rounding rule of the game's cash-outs: 1 rounded down, 2 unbiased (docs/crash-chain.md). */
  rounding: number;
}

/**
 * The shared crash room's synchronised state as plain data (the server's `CrashState` schema, see
 * server/src/rooms/crash-state.ts). Times are the server's epoch milliseconds; multipliers hundredths.
 */
export interface CrashRoomSnapshot {
  phase: CrashPhase;
  roundId: string;
  gameNumber: number;
  bettingEndsAt: number;
  runStartedAt: number;
  elapsedMs: number;
  multiplier: number;
  /** 0 until the bust. */
  crashPoint: number;
  /** "" until the bust. */
  gameHash: string;
  curveRate: number;
  terminatingHash: string;
  salt: string;
  chainLength: number;
  bets: Record<string, CrashRoomBet>;
  /** Newest first. */
  history: CrashRoomGame[];
}

/**
 * The shared crash room's state as the room holds it and a client's SDK mirrors it (the server's
 * `CrashState` schema implements it): the snapshot, with the bets as a map by player id and the history
 * as a list. `toJSON()` of the mirrored state gives the `CrashRoomSnapshot`.
 */
export interface CrashRoomState extends Omit<CrashRoomSnapshot, "bets" | "history"> {
  bets: ReadonlyMap<string, CrashRoomBet>;
  history: ArrayLike<CrashRoomGame> & Iterable<CrashRoomGame>;
}

/* ---------------------------------------------------------------- leaderboard room */

/**
 * A client viewing a board joins the `leaderboard` room with the board's scope; rooms are shared per
 * (board, scope, guildId, instanceId, window) and each client keeps its own page. The server pushes a
 * snapshot on join and on `view`, then deltas: the rows of the visible page that changed and the
 * client's own position, at most 4 times a second.
 */
export const LEADERBOARD_ROOM = ROOMS.leaderboard;
/** Deltas to one client are coalesced to at most this many a second. */
export const LEADERBOARD_MAX_UPDATES_PER_SECOND = 4;

const page = z
  .number({ message: "page must be a number" })
  .int("page must be a whole number")
  .min(1, "page must be at least 1")
  .max(LEADERBOARD_MAX_PAGE, `page must be at most ${LEADERBOARD_MAX_PAGE}`);
const limit = z
  .number({ message: "limit must be a number" })
  .int("limit must be a whole number")
  .min(1, "limit must be at least 1")
  .max(LEADERBOARD_MAX_LIMIT, `limit must be at most ${LEADERBOARD_MAX_LIMIT}`);

/** Join options of the `leaderboard` room. Windows other than `all` exist for the balance board only. */
export const leaderboardRoomOptions = z
  .object({
    board: z.enum(LEADERBOARD_BOARDS, { message: "board must be balance, speed or kills" }).default("balance"),
    scope: z.enum(LEADERBOARD_SCOPES, { message: "scope must be global, guild or instance" }).default("global"),
    guildId: snowflake.optional(),
    instanceId: instanceId.optional(),
    window: z.enum(LEADERBOARD_WINDOWS, { message: "window must be all, day or week" }).default("all"),
    page: page.default(1),
    limit: limit.default(LEADERBOARD_PAGE_SIZE),
  })
  .superRefine((o, ctx) => {
    if (o.scope === "guild" && !o.guildId)
      ctx.addIssue({ code: "custom", path: ["guildId"], message: "guildId is required for the guild scope" });
    if (o.scope === "instance" && !o.instanceId)
      ctx.addIssue({ code: "custom", path: ["instanceId"], message: "instanceId is required for the instance scope" });
    if (o.board !== "balance" && o.window !== "all")
      ctx.addIssue({ code: "custom", path: ["window"], message: "only the balance board has day and week windows" });
  });
export type LeaderboardRoomOptions = z.infer<typeof leaderboardRoomOptions>;

/** Client → server: show another page (and page size) of the same board. */
export const leaderboardViewMessage = z.object({ page, limit: limit.optional() }).strict();
export type LeaderboardViewMessage = z.infer<typeof leaderboardViewMessage>;

export const LEADERBOARD_MESSAGES = {
  /** client → server */
  view: "view",
  /** server → client: the whole visible page */
  snapshot: "snapshot",
  /** server → client: what changed on the visible page and in the client's own position */
  delta: "delta",
  /** server → client: a refused `view` */
  error: "error",
} as const;

/** The client's own place on the board (null rank: not ranked, e.g. a guest). */
export interface LeaderboardPosition {
  rank: number | null;
  /** Balance, net, time or kills: the value the board orders by. */
  value: number | null;
}

export interface LeaderboardSnapshotMessage {
  board: LeaderboardBoard;
  scope: LeaderboardScope;
  window: LeaderboardWindow;
  page: number;
  limit: number;
  total: number;
  entries: BoardEntry[];
  me: LeaderboardPosition;
  /** Increases with every message to this client; a delta applies to the snapshot or delta before it. */
  seq: number;
}

/**
 * Apply to the page you hold: keep the first `size` rows, then put each entry of `changed` at row
 * `rank - (page - 1) × limit - 1`.
 */
export interface LeaderboardDeltaMessage {
  page: number;
  total: number;
  size: number;
  changed: BoardEntry[];
  me: LeaderboardPosition;
  seq: number;
}

const entryBase = {
  rank: z.number().int().positive(),
  playerId: z.string(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  anonymousMode: z.boolean(),
  discordId: z.string().optional(),
  face: z.string().nullable(),
  badge: z.string().nullable(),
};
const activeTagSchema = z.object({ name: z.string() }).strict().nullable();
const boardEntrySchema = z.union([
  z.object({ ...entryBase, balance: z.number(), net: z.number().optional(), activeTag: activeTagSchema }).strict(),
  z.object({ ...entryBase, completionTimeMs: z.number(), activeTag: activeTagSchema }).strict(),
  z.object({ ...entryBase, kills: z.number() }).strict(),
]);
const positionSchema = z.object({ rank: z.number().int().positive().nullable(), value: z.number().nullable() }).strict();

/** Schemas of what the server sends, so a client can check what it receives. */
export const leaderboardSnapshotMessage = z
  .object({
    board: z.enum(LEADERBOARD_BOARDS),
    scope: z.enum(LEADERBOARD_SCOPES),
    window: z.enum(LEADERBOARD_WINDOWS),
    page,
    limit,
    total: z.number().int().nonnegative(),
    entries: z.array(boardEntrySchema),
    me: positionSchema,
    seq: z.number().int().nonnegative(),
  })
  .strict();
export const leaderboardDeltaMessage = z
  .object({
    page,
    total: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
    changed: z.array(boardEntrySchema),
    me: positionSchema,
    seq: z.number().int().nonnegative(),
  })
  .strict();

/** Applies a delta to the rows of a page; pure, so the client and the tests share it. */
export function applyLeaderboardDelta<E extends { rank: number }>(
  rows: readonly E[],
  delta: { page: number; size: number; changed: readonly E[] },
  limit: number,
): E[] {
  const next = rows.slice(0, delta.size);
  const offset = (delta.page - 1) * limit;
  for (const entry of delta.changed) next[entry.rank - offset - 1] = entry;
  return next;
}
