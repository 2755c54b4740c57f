import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A play setting (`PATCH /api/player/settings`): the reactions of the activity's members shown, unless
 * the player mutes them. A column with a constant default rewrites no row, so the table's lock is brief.
 */
export class ReactionsSetting1764100000011 implements MigrationInterface {
  name = "ReactionsSetting1764100000011";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players ADD COLUMN reactions_on boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players DROP COLUMN reactions_on`);
  }
}
