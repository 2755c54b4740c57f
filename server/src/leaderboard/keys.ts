import type { LeaderboardBoard, LeaderboardWindow } from "@casino/common";

/**
 * Redis layout of the boards. Every board is a sorted set whose members are player ids and whose
 * order is "smaller score ranks first": balances, net winnings and kills are stored negated, times as
 * they are. Equal scores fall back to Redis's member order, the byte order of the player id, which is
 * PostgreSQL's uuid order too: every board is exactly `ORDER BY value DESC|ASC, id ASC` in SQL.
 */
const PREFIX = "lb:v1:";

export const KEYS = {
  /** epoch (a build's id), top (the snapshot's highest ledger id), positions of the consumers, builtAt */
  meta: `${PREFIX}meta`,
  /** ledger ids at or below the build's top that were not visible in its snapshot (transactions in flight) */
  holes: `${PREFIX}holes`,
  /** player id → id of the last ledger entry applied to the player's scores */
  applied: `${PREFIX}applied`,
  balance: `${PREFIX}balance`,
  speed: `${PREFIX}speed`,
  kills: `${PREFIX}kills`,
  /** player id → what an entry shows of the player (see ProfileStore) */
  profiles: `${PREFIX}profiles`,
  rebuildLock: `${PREFIX}rebuild-lock`,
  buildPrefix: `${PREFIX}build:`,
} as const;

/** Ledger reasons that count as winnings from games on the day and week boards (not grants or daily spins). */
export const NET_REASONS = ["bet", "payout", "refund", "reward"] as const;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Start of the UTC day and of the UTC week (Monday) holding `at`. */
export function windowStart(window: "day" | "week", at: Date | number): number {
  const t = typeof at === "number" ? at : at.getTime();
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  if (window === "day") return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return day - weekday * DAY_MS;
}

const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Sorted set of the net winnings of the day or week holding `at`; kept a while after the window ends. */
export function windowKey(window: "day" | "week", at: Date | number): { key: string; expireAt: number } {
  const start = windowStart(window, at);
  const length = window === "day" ? DAY_MS : 7 * DAY_MS;
  return { key: `${PREFIX}net:${window}:${isoDate(start)}`, expireAt: Math.floor((start + length + 2 * DAY_MS) / 1000) };
}

/** The sorted set a board reads now. */
export function boardKey(board: LeaderboardBoard, window: LeaderboardWindow, now = Date.now()): string {
  if (board === "speed") return KEYS.speed;
  if (board === "kills") return KEYS.kills;
  return window === "all" ? KEYS.balance : windowKey(window, now).key;
}

/** Boards where a bigger value ranks first are stored negated. */
const descending = (board: LeaderboardBoard) => board !== "speed";

export const scoreOf = (board: LeaderboardBoard, value: number): string => (descending(board) ? String(0 - value) : String(value));
export const valueOf = (board: LeaderboardBoard, score: string | number): number => (descending(board) ? 0 - Number(score) : Number(score));
