import { z } from "zod";
import { DAILY_SPIN, LEADERBOARD_PAGE_SIZE, SUGGESTION_MAX_LENGTH, TERMS_VERSION } from "./constants";
import { requestId } from "./request-id";
import type { RoundingRule } from "./fairness/rounding";
import type { OpenRoundView } from "./rooms";
import { GAME_IDS, HOLDEM_GAME } from "./catalogue";

/** REST request schemas (spec section 7) and the shapes the server answers with. */

/** A player reference in a path or body: the player's id or their Discord/guest id. */
export const playerRef = z.string().trim().min(1, "playerId is required").max(64, "playerId is too long");

/** Discord's activity instance id (opaque: `i-<launch>-gc-<guild>-<channel>` today, but not a contract). */
export const instanceId = z
  .string()
  .min(1, "instanceId is required")
  .max(128, "instanceId is too long")
  .regex(/^[A-Za-z0-9_-]+$/, "instanceId may hold letters, digits, '_' and '-' only");

export const tokenRequest = z.object({
  code: z.string().min(1, "code is required").max(512),
  redirect_uri: z.string().max(2048).optional(),
  /** The activity instance the client was launched in (the SDK's `instanceId`); joined on sign-in. */
  instanceId: instanceId.optional(),
});

/** Names: 1–32 printable characters, no control characters. */
export const username = z
  .string()
  .trim()
  .min(1, "username is required")
  .max(32, "username must be at most 32 characters")
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, "username has invalid characters");

export const guestRequest = z.object({ username: username.optional() }).strict();

export const registerPlayerRequest = z.object({
  discordId: playerRef,
  username: username.optional(),
  avatarUrl: z.string().max(2048).nullish(),
});

export const acceptTosRequest = z.object({
  playerId: playerRef,
  version: z.literal(TERMS_VERSION, { message: `version must be the current terms version ${TERMS_VERSION}` }),
});

const THEME_COLOR = /^(\d{1,3}(?:\.\d+)?) (\d{1,3}(?:\.\d+)?)% (\d{1,3}(?:\.\d+)?)%$/;

/** "H S% L%": hue 0–360, saturation and lightness 0–100 %. */
export const themeColor = z.string().superRefine((color, ctx) => {
  const match = THEME_COLOR.exec(color);
  if (!match) {
    ctx.addIssue({ code: "custom", message: 'color must look like "200 60% 55%"' });
    return;
  }
  const [hue, saturation, lightness] = match.slice(1).map(Number);
  if (hue! > 360 || saturation! > 100 || lightness! > 100) {
    ctx.addIssue({ code: "custom", message: "color must have hue 0–360 and saturation/lightness 0–100%" });
  }
});

/**
 * `PATCH /api/player/theme`. `mode` is the player's choice of light or dark; a client leaves it out while
 * the player has not chosen one (the page then follows the device's light/dark preference).
 */
export const themeRequest = z.object({ playerId: playerRef, mode: z.enum(["light", "dark"]).optional(), color: themeColor });
export const toggleRequest = z.object({ playerId: playerRef, enabled: z.boolean() });
export const activeTagRequest = z.object({ playerId: playerRef, tagId: z.number().int().positive().nullable() });
export const suggestionRequest = z.object({
  playerId: playerRef,
  suggestion: z
    .string()
    .trim()
    .min(1, "Please enter a suggestion")
    .max(SUGGESTION_MAX_LENGTH, `suggestion must be at most ${SUGGESTION_MAX_LENGTH} characters`),
});
export const dailySpinRequest = z.object({ playerId: playerRef, requestId: requestId.optional() });

/**
 * A history page's `nextBefore`: the last row's time to the microsecond (as the database keeps it) and
 * its id, so a page ends exactly between two rows even when many share a millisecond or a time.
 */
const HISTORY_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)~([A-Za-z0-9-]{1,64})$/;

export interface HistoryCursor {
  /** ISO 8601 with six decimals */
  at: string;
  id: string;
}

export const historyCursor = (at: string, id: string): string => `${at}~${id}`;

/**
 * What kind of movement a history row is: a round of a game, a daily spin of the wheel, or a hand the
 * player was dealt into at the Hold'em table (game `holdem`: its stake what the seat put in, its payout
 * what it won; no coin moved with it, the table's stack did).
 */
export const HISTORY_KINDS = ["round", "daily_spin", "holdem_hand"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** What a history row's result can be, and so the `result` filter. */
export const HISTORY_RESULTS = ["win", "lose", "push"] as const;

/** A `from`/`to` bound of the history: an ISO 8601 time with its offset ("Z" or "+02:00"). */
const historyTime = (name: string) =>
  z.iso.datetime({ offset: true, message: `${name} must be an ISO 8601 time with its offset, as 2026-01-31T00:00:00Z` }).optional();

/** The filters a player narrows their record by: the history's rows and the summary's totals read the same ones. */
const historyFilterFields = z.object({
  /** only rows of this game (a game's id, "daily-spin" for the wheel's spins, "holdem" for the Hold'em table's hands) */
  game: z.enum([...GAME_IDS, DAILY_SPIN, HOLDEM_GAME], { message: `game must be a game's id, ${DAILY_SPIN} or ${HOLDEM_GAME}` }).optional(),
  /** only rows with this result */
  result: z.enum(HISTORY_RESULTS, { message: "result must be win, lose or push" }).optional(),
  /** only rows at or after this time */
  from: historyTime("from"),
  /** only rows strictly before this time */
  to: historyTime("to"),
});
const spanInOrder = (q: { from?: string; to?: string }) =>
  q.from === undefined || q.to === undefined || Date.parse(q.from) < Date.parse(q.to);
const SPAN_OUT_OF_ORDER = { message: "from must be earlier than to", path: ["to"] };

/** `GET /api/player/:id/summary`'s query: the history's filters, no paging (the totals of every matching round). */
export const historyFilter = historyFilterFields.refine(spanInOrder, SPAN_OUT_OF_ORDER);
export type HistoryFilter = z.infer<typeof historyFilter>;

/** `GET /api/player/:id/history`'s query: the filters (`historyFilter`), a kind, and a page. */
export const historyQuery = historyFilterFields
  .extend({
    /** only rows of this kind (both when left out) */
    kind: z.enum(HISTORY_KINDS, { message: "kind must be round, daily_spin or holdem_hand" }).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
    /** `nextBefore` of the page before; a plain ISO time (rows strictly older) is read too. */
    before: z
      .string()
      .optional()
      .transform((value, ctx): HistoryCursor | { at: string; id: null } | undefined => {
        if (value === undefined) return undefined;
        const cursor = HISTORY_CURSOR.exec(value);
        if (cursor) return { at: cursor[1]!, id: cursor[2]! };
        if (z.iso.datetime({ offset: true }).safeParse(value).success) return { at: value, id: null };
        ctx.addIssue({ code: "custom", message: "before must be the nextBefore of a history page" });
        return z.NEVER;
      }),
  })
  .refine(spanInOrder, SPAN_OUT_OF_ORDER);
export type HistoryQuery = z.infer<typeof historyQuery>;

/** One row of `GET /api/player/:id/history`, newest first. */
export interface HistoryItem {
  id: string;
  kind: HistoryKind;
  /** the game's id, "daily-spin", or "holdem" for a hand at the Hold'em table */
  gameType: string;
  /** the opening bet (before any double, split, raise or chip added later); null for older multi-step rounds */
  amount: number | null;
  /** everything the round staked (a double, a split, a raise included); 0 for a daily spin */
  betAmount: number;
  result: "win" | "lose" | "push";
  payout: number;
  requestId: string | null;
  params: unknown;
  actions: unknown[];
  /** the payout rounding rule the round was played under (1 rounded down, 2 unbiased); null for a daily spin or a hand */
  rounding: RoundingRule | null;
  /** the engine's final view of the round; a daily spin's segment and prize; a hand's board and whether it was shown down */
  outcome: unknown;
  createdAt: string;
  /**
   * The seed pair and nonce the outcome was drawn from (fields null when it was not drawn from the
   * player's seeds, as in the shared crash room); `serverSeed` is null until the pair is rotated. A
   * Hold'em hand's: the hand's own server seed (revealed when the hand is over), the player's client
   * seed in it, and the hand's number at its table; `params` has `{ handId, tableId, seat, handNumber }`.
   */
  fairness: { serverSeedHash: string | null; clientSeed: string | null; nonce: number | null; serverSeed: string | null };
}

export interface HistoryPage {
  items: HistoryItem[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: string | null;
  /**
   * On the last page only, when the player's history reaches back into months that were archived (moved
   * out of the database: docs/operations.md, "Archiving old months") and the asked span includes them:
   * the end (ISO time) of the newest such month. Rows before it are not listed; the history does not end
   * there. Absent otherwise.
   */
  archivedBefore?: string;
}

/**
 * `GET /api/player/:id/summary`: the player's totals over the finished rounds of a game that match its
 * filters (`historyFilter`, the history's own; every round without them). Daily spins are not rounds:
 * they stake nothing and are listed in the history only.
 */
export interface PlayerSummary {
  rounds: number;
  /** everything staked, doubles, splits and raises included */
  wagered: number;
  /** what the rounds paid minus what they staked */
  net: number;
  /** the round that won the most (largest payout minus stake), as its history row (for its verify link); null before a win */
  biggestWin: HistoryItem | null;
  /** the game with the most rounds (the most recently played on a tie); null before a round */
  favouriteGame: { gameType: string; rounds: number } | null;
}

/** What a player sees of their own record. */
export interface PlayerRecord {
  id: string;
  discordId: string;
  username: string;
  avatarUrl: string | null;
  /** The seed of the player's generated face (a short hash of the player: `face` of the boards, the strip, the tables) */
  face: string;
  balance: number;
  activeTagId: number | null;
  anonymousMode: boolean;
  themeMode: string;
  /** false until the player picks light or dark: the page follows the device's preference meanwhile */
  themeModeChosen: boolean;
  themeColor: string;
  /** play settings (common/src/settings.ts): the record's copy decides for a signed-in player */
  soundOn: boolean;
  soundVolume: number;
  animationsOn: boolean;
  resultToastsOn: boolean;
  reactionsOn: boolean;
  lastDailySpin: string | null;
  dailySpinReminder: boolean;
  reminderEnabled: boolean;
  lastReminderSent: string | null;
  tosAcceptedVersion: string | null;
  dotsGamesPlayedToday: number;
  dotsLastPlayedDate: string | null;
  createdAt: string;
  isGuest: boolean;
  badge: string | null;
}

/** What others see of a player. */
export interface PublicPlayer {
  id: string;
  username: string;
  avatarUrl: string | null;
  balance: number;
  anonymousMode: boolean;
  activeTagId: number | null;
  badge: string | null;
}

export interface PlayerTagItem {
  tagId: number;
  unlocked: boolean;
  progress: number;
  tag: { name: string; description: string; objectiveType: string; objectiveCriteria: number };
}

/**
 * A signed-in page's start: the player's record and their open round (a blackjack hand, a mines board…,
 * as the casino room tells of it after), so the lobby offers the round from its first paint.
 * `GET /api/session` answers it for the caller's session.
 */
export interface SignedInPlayer {
  player: PlayerRecord;
  openRound: OpenRoundView | null;
}

/** A sign-in's answer (`POST /api/token`, `POST /api/guest`): the session token and the signed-in player. */
export interface SessionAnswer extends SignedInPlayer {
  session_token: string;
}

export interface TokenAnswer extends SessionAnswer {
  access_token: string;
  /** The activity instance joined with the sign-in (when `instanceId` was sent), or null when it was refused. */
  instance?: InstanceJoinAnswer | null;
}

export interface ApiError {
  error: string;
  code?: string;
}

/** `GET /api/client-config`: what the browser needs before it can sign in (the Discord application id). */
export interface ClientConfig {
  discordClientId: string | null;
}

/* ---------------------------------------------------------------- leaderboards, stats, scopes */

export const LEADERBOARD_MAX_LIMIT = 100;
/** Deep pages are legal but bounded, so `page × limit` stays a sane number. */
export const LEADERBOARD_MAX_PAGE = 1_000_000;

export const LEADERBOARD_SCOPES = ["global", "guild", "instance"] as const;
export type LeaderboardScope = (typeof LEADERBOARD_SCOPES)[number];
/** all: balances; day/week: net winnings from games since 00:00 UTC today / since Monday 00:00 UTC. */
export const LEADERBOARD_WINDOWS = ["all", "day", "week"] as const;
export type LeaderboardWindow = (typeof LEADERBOARD_WINDOWS)[number];
export const LEADERBOARD_BOARDS = ["balance", "speed", "kills"] as const;
export type LeaderboardBoard = (typeof LEADERBOARD_BOARDS)[number];

/** A Discord snowflake (guild ids). */
export const snowflake = z.string().regex(/^\d{1,25}$/, "must be a Discord id");

const queryInt = (name: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** Which players a board ranks: everyone, one Discord guild, or one activity instance (voice-channel session). */
const scopeFields = {
  scope: z.enum(LEADERBOARD_SCOPES, { message: "scope must be global, guild or instance" }).default("global"),
  guildId: snowflake.optional(),
  instanceId: instanceId.optional(),
};

type ScopeFields = { scope: LeaderboardScope; guildId?: string; instanceId?: string };
function scopeIsComplete(q: ScopeFields, ctx: z.RefinementCtx): void {
  if (q.scope === "guild" && !q.guildId)
    ctx.addIssue({ code: "custom", path: ["guildId"], message: "guildId is required for the guild scope" });
  if (q.scope === "instance" && !q.instanceId) {
    ctx.addIssue({ code: "custom", path: ["instanceId"], message: "instanceId is required for the instance scope" });
  }
}

/** `GET /api/leaderboard?page&limit&scope&guildId&instanceId&window` */
export const leaderboardQuery = z
  .object({
    page: queryInt("page", 1, LEADERBOARD_MAX_PAGE, 1),
    limit: queryInt("limit", 1, LEADERBOARD_MAX_LIMIT, LEADERBOARD_PAGE_SIZE),
    window: z.enum(LEADERBOARD_WINDOWS, { message: "window must be all, day or week" }).default("all"),
    ...scopeFields,
  })
  .superRefine(scopeIsComplete);
export type LeaderboardQuery = z.infer<typeof leaderboardQuery>;

/** `GET /api/player/:playerId/rank?scope&guildId&instanceId&window&board` */
export const rankQuery = z
  .object({
    board: z.enum(LEADERBOARD_BOARDS, { message: "board must be balance, speed or kills" }).default("balance"),
    window: z.enum(LEADERBOARD_WINDOWS, { message: "window must be all, day or week" }).default("all"),
    ...scopeFields,
  })
  .superRefine(scopeIsComplete);
export type RankQuery = z.infer<typeof rankQuery>;

/** `GET /api/game/dots/leaderboard?limit=25` and `GET /api/game/dot-battle/leaderboard?limit=25` */
export const gameBoardQuery = z
  .object({
    page: queryInt("page", 1, LEADERBOARD_MAX_PAGE, 1),
    limit: queryInt("limit", 1, LEADERBOARD_MAX_LIMIT, LEADERBOARD_PAGE_SIZE),
    ...scopeFields,
  })
  .superRefine(scopeIsComplete);
export type GameBoardQuery = z.infer<typeof gameBoardQuery>;

/** `GET /api/game-stats` (everyone's plays) or `GET /api/game-stats?mine=1` (the caller's, for Most Played). */
export const gameStatsQuery = z.object({
  mine: z
    .enum(["0", "1", "true", "false"], { message: "mine must be 1 or 0" })
    .optional()
    .transform((v) => v === "1" || v === "true"),
});

/** `POST /api/instances/join`: the caller joins the activity instance it was launched in. */
export const instanceJoinRequest = z.object({ instanceId }).strict();

/** The active tag as entries show it. */
export interface ActiveTagView {
  name: string;
}

/**
 * Fields every board entry has. An anonymous player is shown to everyone but themselves as
 * "Anonymous", with no avatar, badge, tag, and no `discordId` key at all.
 */
export interface BoardEntryBase {
  rank: number;
  /**
   * The player's id; in an entry masked as anonymous (anyone else's view of an anonymous player) an
   * opaque stand-in instead (`ANONYMOUS_ID_PREFIX` and 22 characters), distinct per player and stable
   * on one board, scope and UTC day, never the real id.
   */
  playerId: string;
  username: string;
  avatarUrl: string | null;
  anonymousMode: boolean;
  discordId?: string;
  /** The seed of the generated face (a short hash of the player, the same on every surface), null when hidden. */
  face: string | null;
  /** A special badge (SPECIAL_BADGES) such as "Creator". */
  badge: string | null;
}

/** Spec section 3: playerId, rank, username, avatarUrl, balance, anonymousMode, discordId, activeTag {name}. */
export interface BalanceEntry extends BoardEntryBase {
  balance: number;
  activeTag: ActiveTagView | null;
  /** Net winnings in the window (day and week boards only). */
  net?: number;
}

export interface SpeedEntry extends BoardEntryBase {
  completionTimeMs: number;
  activeTag: ActiveTagView | null;
}

export interface KillsEntry extends BoardEntryBase {
  kills: number;
}

export type BoardEntry = BalanceEntry | SpeedEntry | KillsEntry;

/** The answer of every board call: one page of entries and how many players the board ranks. */
export interface BoardAnswer<E extends BoardEntry = BalanceEntry> {
  entries: E[];
  total: number;
  page: number;
  limit: number;
  scope: LeaderboardScope;
  window: LeaderboardWindow;
}

export interface RankAnswer {
  /** 1-based; null for guests and players the board does not rank. */
  rank: number | null;
  total: number;
}

export interface GameStatsItem {
  gameType: string;
  playCount: number;
}

export interface InstanceJoinAnswer {
  instanceId: string;
  /** True when Discord's activity-instance lookup confirmed the player is connected to it. */
  verified: boolean;
  guildId: string | null;
}
