import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The rules a skill round was replayed under (Connect the Dots has two: `DOTS_RULES_VERSION`), so a
 * stored log can always be replayed again to its recorded result. Every round before this column was
 * played under rules 1; a round's submission sets it. A constant default rewrites no row.
 */
export class DotsRulesVersion1764100000013 implements MigrationInterface {
  name = "DotsRulesVersion1764100000013";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE skill_rounds ADD COLUMN rules_version integer NOT NULL DEFAULT 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE skill_rounds DROP COLUMN rules_version`);
  }
}
