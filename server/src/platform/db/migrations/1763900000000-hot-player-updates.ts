import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every bet updates its player's row (balance, last seen). An update that changes no indexed column
 * and finds room on the row's page is a HOT update: no new entry in any of the table's indexes. Two
 * indexes stood in the way on the hottest row of the database:
 *
 * - `idx_players_rank` (balance): ranks come from the Redis boards, rebuilt from a sequential scan;
 *   no query reads this index any more. Dropped.
 * - `idx_players_idle_guests` (last_seen_at): kept (retention finds idle guests by it); the ledger now
 *   moves last_seen_at only when it is an hour old or more, so most bets leave it as it is.
 *
 * And a fill factor of 90 leaves room on each page for the new versions of its rows.
 */
export class HotPlayerUpdates1763900000000 implements MigrationInterface {
  name = "HotPlayerUpdates1763900000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_players_rank`);
    await q.query(`ALTER TABLE players SET (fillfactor = 90)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players RESET (fillfactor)`);
    await q.query(`CREATE INDEX idx_players_rank ON players (balance DESC, created_at) WHERE discord_id NOT LIKE 'guest-%'`);
  }
}
