import { sqlRows } from "../db/sql";
import { CARD_GAME_IDS, DICE_GAME_IDS, type PlayerTagItem } from "@casino/common";
import type { Database } from "../db/database";
import type { Player } from "../db/entities/index";

interface TagRow {
  id: number;
  name: string;
  description: string;
  objective_type: string;
  objective_criteria: number;
  custom_for_discord_id: string | null;
  progress: number | null;
  unlocked: boolean | null;
}

/** How far a player is toward each objective type, measured from their records. */
async function measure(db: Database, player: Player): Promise<Record<string, number>> {
  return db.run(async (em) => {
    const [counts] = await sqlRows(em, 
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE game_type = ANY($2))::int AS cards,
              count(*) FILTER (WHERE game_type = ANY($3))::int AS dice
         FROM game_plays WHERE player_id = $1`,
      [player.id, CARD_GAME_IDS, DICE_GAME_IDS],
    );
    const results: { result: string }[] = await sqlRows(em, 
      `SELECT result FROM game_sessions WHERE player_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1000`,
      [player.id],
    );
    let best = 0;
    let run = 0;
    for (const { result } of results) {
      run = result === "win" ? run + 1 : 0;
      best = Math.max(best, run);
    }
    return {
      first_game: Math.min(counts.total, 1),
      total_games: counts.total,
      balance: player.balance,
      win_streak: best,
      card_games: counts.cards,
      dice_games: counts.dice,
    };
  });
}

/**
 * The player's tags with progress. Progress and unlocks are kept in player_tags and only ever rise, so a
 * tag once earned (a balance reached, a streak won) stays earned.
 */
export async function playerTags(db: Database, player: Player): Promise<PlayerTagItem[]> {
  const measured = await measure(db, player);
  return db.transaction(async (em) => {
    const tags: TagRow[] = await sqlRows(em, 
      `SELECT t.id, t.name, t.description, t.objective_type, t.objective_criteria, t.custom_for_discord_id, pt.progress, pt.unlocked
         FROM tags t LEFT JOIN player_tags pt ON pt.tag_id = t.id AND pt.player_id = $1
        WHERE t.custom_for_discord_id IS NULL OR t.custom_for_discord_id = $2
        ORDER BY t.sort_order, t.id`,
      [player.id, player.discordId],
    );
    const items: PlayerTagItem[] = [];
    for (const t of tags) {
      const progress = Math.max(t.progress ?? 0, measured[t.objective_type] ?? 0);
      const unlocked = t.unlocked === true || progress >= t.objective_criteria;
      if (progress !== (t.progress ?? 0) || unlocked !== (t.unlocked ?? false)) {
        await sqlRows(em, 
          `INSERT INTO player_tags (player_id, tag_id, progress, unlocked, unlocked_at) VALUES ($1, $2, $3, $4, CASE WHEN $4 THEN now() END)
           ON CONFLICT (player_id, tag_id) DO UPDATE SET progress = GREATEST(player_tags.progress, EXCLUDED.progress),
             unlocked = player_tags.unlocked OR EXCLUDED.unlocked,
             unlocked_at = COALESCE(player_tags.unlocked_at, EXCLUDED.unlocked_at)`,
          [player.id, t.id, progress, unlocked],
        );
      }
      items.push({
        tagId: t.id,
        unlocked,
        progress,
        tag: { name: t.name, description: t.description, objectiveType: t.objective_type, objectiveCriteria: t.objective_criteria },
      });
    }
    return items;
  });
}
