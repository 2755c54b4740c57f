import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A player's play settings (`PATCH /api/player/settings`): sound on or off, its volume (0-100 %), and
 * result animations on or off. Adding a column with a constant default rewrites no row, so this takes
 * the table's lock only for a moment.
 */
export class PlaySettings1764100000001 implements MigrationInterface {
  name = "PlaySettings1764100000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players ADD COLUMN sound_on boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE players ADD COLUMN sound_volume integer NOT NULL DEFAULT 100`);
    await q.query(`ALTER TABLE players ADD CONSTRAINT players_sound_volume_check CHECK (sound_volume BETWEEN 0 AND 100)`);
    await q.query(`ALTER TABLE players ADD COLUMN animations_on boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players DROP COLUMN animations_on`);
    await q.query(`ALTER TABLE players DROP COLUMN sound_volume`);
    await q.query(`ALTER TABLE players DROP COLUMN sound_on`);
  }
}
