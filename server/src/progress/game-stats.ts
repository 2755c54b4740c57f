import { sqlRows } from "../platform/db/sql";
import type { GameStatsItem } from "@casino/common";
import type { Database } from "../platform/db/database";

const items = (rows: Record<string, unknown>[]): GameStatsItem[] =>
  rows.map((r) => ({ gameType: r.game_type as string, playCount: Number(r.plays) }));

/** Plays per game over every player, most played first: counters kept by the progress consumer. */
export async function gameStats(db: Database): Promise<GameStatsItem[]> {
  return items(await db.run((em) => sqlRows(em, `SELECT game_type, plays FROM game_play_counts ORDER BY plays DESC, game_type`)));
}

/** One player's plays per game, most played first (the lobby's Most Played for that player). */
export async function playerGameStats(db: Database, playerId: string): Promise<GameStatsItem[]> {
  return items(
    await db.run((em) =>
      sqlRows(em, `SELECT game_type, plays FROM player_game_counts WHERE player_id = $1 ORDER BY plays DESC, game_type`, [playerId]),
    ),
  );
}
