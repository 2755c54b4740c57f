import { sqlRows } from "../../platform/db/sql";
import type { Database } from "../../platform/db/database";

/**
 * The Discord guilds each player is in, as Discord listed them at the player's last sign-in (the
 * `guilds` scope). The guild scope of a board ranks the players who share that guild with the caller.
 */
export class Guilds {
  constructor(private readonly db: Database) {}

  /** Replaces the player's guild list with what Discord just answered. */
  replace(playerId: string, guildIds: readonly string[]): Promise<void> {
    return this.db.transaction(async (em) => {
      await sqlRows(em, `DELETE FROM player_guilds WHERE player_id = $1 AND NOT (guild_id = ANY($2::text[]))`, [playerId, guildIds]);
      if (guildIds.length > 0) {
        await sqlRows(
          em,
          `INSERT INTO player_guilds (player_id, guild_id) SELECT $1, unnest($2::text[])
           ON CONFLICT (player_id, guild_id) DO UPDATE SET refreshed_at = now()`,
          [playerId, [...new Set(guildIds)]],
        );
      }
    });
  }

  async isMember(playerId: string, guildId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(em, `SELECT 1 FROM player_guilds WHERE player_id = $1 AND guild_id = $2`, [playerId, guildId]),
    );
    return rows.length > 0;
  }

  async of(playerId: string): Promise<string[]> {
    const rows = await this.db.run((em) =>
      sqlRows<{ guild_id: string }>(em, `SELECT guild_id FROM player_guilds WHERE player_id = $1 ORDER BY guild_id`, [playerId]),
    );
    return rows.map((r) => r.guild_id);
  }

  /** Every player of the guild (as far as their sign-ins told us). */
  async members(guildId: string): Promise<string[]> {
    const rows = await this.db.run((em) =>
      sqlRows<{ player_id: string }>(em, `SELECT player_id FROM player_guilds WHERE guild_id = $1`, [guildId]),
    );
    return rows.map((r) => r.player_id);
  }
}
