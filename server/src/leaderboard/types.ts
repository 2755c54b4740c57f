import type { LeaderboardBoard, LeaderboardScope, LeaderboardWindow } from "@casino/common";
import { AppError } from "../platform/errors";

/** Which board, over which players, for which period. */
export interface BoardSpec {
  board: LeaderboardBoard;
  window: LeaderboardWindow;
  scope: LeaderboardScope;
  /** The guild id or instance id of a scoped board. */
  scopeId?: string;
}

/**
 * Published on the presence channel after boards change: the sorted sets that changed ("*": all), and
 * the players whose profile (name, avatar, tag, anonymous mode) changed.
 */
export interface BoardChange {
  keys: string[];
  players?: string[];
}
export const BOARD_CHANGES_CHANNEL = "leaderboard:changes";

export interface RebuildReport {
  players: number;
  ms: number;
  /** This call made the build (false: it waited for, and adopted, a build another process made meanwhile). */
  built: boolean;
}

export interface RankedRow {
  playerId: string;
  /** The stored score (see keys.ts); `valueOf` turns it back into the board's value. */
  score: string;
}

export interface Ranked {
  total: number;
  rows: RankedRow[];
}

/** Where the record boards come from: the table, its value column, and which value is the best. */
export const RECORD_SOURCES = {
  speed: { table: "dots_speed_records", column: "completion_time_ms", best: "min" },
  kills: { table: "dot_battle_scores", column: "kills", best: "max" },
} as const;

/** Where each consumer resumes after a build: the ledger's position and holes, and each record table's. */
export interface BuildPositions {
  epoch: string;
  ledger: number;
  holes: number[];
  speed: number;
  kills: number;
}

export const unavailable = () => new AppError("leaderboard_unavailable", 503, "The leaderboard is being rebuilt; try again in a moment");
