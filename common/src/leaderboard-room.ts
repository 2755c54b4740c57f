import { z } from "zod";
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
import { ROOMS } from "./rooms";

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
