import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A play setting (`PATCH /api/player/settings`): the toast that tells each round's result, on unless the
 * player turns it off. A column with a constant default rewrites no row, so the table's lock is brief.
 */
export class ResultToastsSetting1764100000008 implements MigrationInterface {
  name = "ResultToastsSetting1764100000008";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players ADD COLUMN result_toasts_on boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players DROP COLUMN result_toasts_on`);
  }
}
