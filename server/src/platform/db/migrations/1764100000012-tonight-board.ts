import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The tonight board of an activity instance (docs/architecture/together.md, "Tonight"): when each member
 * first joined the instance's together room on each UTC day. The board's figures are read from
 * game_sessions since that time, so they outlive reconnections and restarts; this table holds only the
 * starting points (one small row per member, instance and day).
 */
export class TonightBoard1764100000012 implements MigrationInterface {
  name = "TonightBoard1764100000012";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tonight_joins (
        instance_id text NOT NULL,
        day date NOT NULL,
        player_id uuid NOT NULL REFERENCES players(id),
        joined_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (instance_id, day, player_id)
      )`);
    await q.query(`CREATE INDEX idx_tonight_joins_player ON tonight_joins (player_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tonight_joins`);
  }
}
