import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A refused skill round keeps why it was refused: its code and message are set exactly when its status
 * is 'refused' (a repeated submit answers the same refusal from them).
 */
export class SkillRefusalCheck1763890000000 implements MigrationInterface {
  name = "SkillRefusalCheck1763890000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE skill_rounds ADD CONSTRAINT ck_skill_rounds_refusal CHECK ((status = 'refused') = (refusal_code IS NOT NULL AND refusal IS NOT NULL))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE skill_rounds DROP CONSTRAINT ck_skill_rounds_refusal`);
  }
}
