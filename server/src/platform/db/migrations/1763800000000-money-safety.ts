import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What the money core needs to be safe under concurrency and to stay bounded over time:
 * - `processed_requests` remembers the kind and a fingerprint of each answered request, so a request id
 *   reused for a different request is refused instead of answered with someone else's answer. Rows from
 *   before this migration have an empty kind and are answered as before until retention prunes them.
 * - `open_rounds.last_action_at`: when a round was last touched, to find abandoned ones.
 * - `players.last_seen_at` and `archived_at`: idle guests are archived, never deleted.
 * - `next_server_seeds`: the server seed committed (by its hash) before the player picks the client
 *   seed it will be paired with.
 */
export class MoneySafety1763800000000 implements MigrationInterface {
  name = "MoneySafety1763800000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE processed_requests ADD COLUMN kind text NOT NULL DEFAULT '', ADD COLUMN fingerprint text NOT NULL DEFAULT ''`,
    );
    await q.query(`CREATE INDEX idx_processed_requests_created ON processed_requests (created_at)`);
    await q.query(`ALTER TABLE open_rounds ADD COLUMN last_action_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE INDEX idx_open_rounds_last_action ON open_rounds (last_action_at)`);
    await q.query(`ALTER TABLE players ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(), ADD COLUMN archived_at timestamptz`);
    await q.query(`CREATE INDEX idx_players_idle_guests ON players (last_seen_at) WHERE archived_at IS NULL AND discord_id LIKE 'guest-%'`);
    await q.query(`
      CREATE TABLE next_server_seeds (
        player_id uuid PRIMARY KEY REFERENCES players(id),
        server_seed text NOT NULL UNIQUE,
        server_seed_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE next_server_seeds`);
    await q.query(`DROP INDEX idx_players_idle_guests`);
    await q.query(`ALTER TABLE players DROP COLUMN archived_at, DROP COLUMN last_seen_at`);
    await q.query(`DROP INDEX idx_open_rounds_last_action`);
    await q.query(`ALTER TABLE open_rounds DROP COLUMN last_action_at`);
    await q.query(`DROP INDEX idx_processed_requests_created`);
    await q.query(`ALTER TABLE processed_requests DROP COLUMN fingerprint, DROP COLUMN kind`);
  }
}
