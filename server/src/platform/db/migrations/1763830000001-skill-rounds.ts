import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Skill rounds: the seed the server drew, the state of the round, and the replayed result. Each record
 * row points at the round it came from, so a round can add at most one record.
 */
export class SkillRounds1763830000001 implements MigrationInterface {
  name = "SkillRounds1763830000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE skill_rounds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        player_id uuid NOT NULL REFERENCES players(id),
        game text NOT NULL CHECK (game IN ('dot-battle','dots')),
        request_id text NOT NULL,
        seed text NOT NULL,
        played_on text NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open','rewarded','refused','expired')),
        started_at timestamptz NOT NULL DEFAULT now(),
        submitted_at timestamptz,
        inputs jsonb,
        kills integer CHECK (kills >= 0),
        completion_ms integer CHECK (completion_ms > 0),
        reward bigint CHECK (reward >= 0),
        refusal_code text,
        refusal text,
        CONSTRAINT uq_skill_rounds_request UNIQUE (player_id, request_id)
      )`);
    await q.query(`CREATE INDEX idx_skill_rounds_player ON skill_rounds (player_id, started_at DESC)`);
    await q.query(`ALTER TABLE dots_speed_records ADD COLUMN round_id uuid UNIQUE REFERENCES skill_rounds(id)`);
    await q.query(`ALTER TABLE dot_battle_scores ADD COLUMN round_id uuid UNIQUE REFERENCES skill_rounds(id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE dot_battle_scores DROP COLUMN round_id`);
    await q.query(`ALTER TABLE dots_speed_records DROP COLUMN round_id`);
    await q.query(`DROP TABLE skill_rounds`);
  }
}
