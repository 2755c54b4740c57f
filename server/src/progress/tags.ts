import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import type { PlayerTagItem } from "@casino/common";
import type { Database } from "../platform/db/database";
import type { Player } from "../platform/db/entities/index";

/**
 * A player's progress toward a tag (alias `t`), from their counters (alias given): the one definition
 * used to unlock tags (progress.ts) and to show progress here.
 */
export const PROGRESS_OF_TAG = (counters: string) => `(CASE t.objective_type
    WHEN 'first_game' THEN LEAST(COALESCE(${counters}.games, 0), 1)
    WHEN 'total_games' THEN COALESCE(${counters}.games, 0)
    WHEN 'balance' THEN COALESCE(${counters}.peak_balance, 0)
    WHEN 'win_streak' THEN COALESCE(${counters}.best_win_streak, 0)
    WHEN 'card_games' THEN COALESCE(${counters}.card_games, 0)
    WHEN 'dice_games' THEN COALESCE(${counters}.dice_games, 0)
    ELSE 0 END)`;

/**
 * The player's tags with progress: read-only. Progress comes from the counters the progress consumer
 * keeps (never from counting plays), and a tag is unlocked once that consumer unlocked it; a tag once
 * earned stays earned.
 */
export async function playerTags(db: Database, player: Player): Promise<PlayerTagItem[]> {
  const rows = await db.run((em) =>
    sqlRows<
      Row<"tags", "id" | "name" | "description" | "objective_type" | "objective_criteria"> & Row<"player_tags", "unlocked" | "progress">
    >(
      em,
      `SELECT t.id, t.name, t.description, t.objective_type, t.objective_criteria,
              COALESCE(pt.unlocked, false) AS unlocked,
              GREATEST(${PROGRESS_OF_TAG("pp")}, COALESCE(pt.progress, 0)) AS progress
         FROM tags t
         LEFT JOIN player_progress pp ON pp.player_id = $1
         LEFT JOIN player_tags pt ON pt.tag_id = t.id AND pt.player_id = $1
        WHERE t.custom_for_discord_id IS NULL OR t.custom_for_discord_id = $2
        ORDER BY t.sort_order, t.id`,
      [player.id, player.discordId],
    ),
  );
  return rows.map((t) => ({
    tagId: Number(t.id),
    unlocked: t.unlocked === true,
    progress: Number(t.progress),
    tag: { name: t.name, description: t.description, objectiveType: t.objective_type, objectiveCriteria: Number(t.objective_criteria) },
  }));
}
