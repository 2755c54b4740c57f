import { requireEngine, type OpenRoundView } from "@casino/common";
import type { Database } from "../../platform/db/database";
import { sqlRows } from "../../platform/db/sql";

/**
 * The player's open round as their own screen has it (the engine's public view, never the round's
 * secret state), or null. Read by the casino room on a join and by the together room for a watcher.
 */
export async function openRoundOf(db: Database, playerId: string): Promise<OpenRoundView | null> {
  const rows = await db.run((em) =>
    sqlRows<{ id: string; game: string; state: unknown; total_stake: string; total_payout: string }>(
      em,
      `SELECT id, game, state, total_stake, total_payout FROM open_rounds WHERE player_id = $1`,
      [playerId],
    ),
  );
  const r = rows[0];
  if (!r) return null;
  return {
    roundId: r.id,
    game: r.game,
    totalStake: Number(r.total_stake),
    totalPayout: Number(r.total_payout),
    view: requireEngine(r.game).view(r.state as never, false),
  };
}
