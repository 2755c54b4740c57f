import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The payout rounding rule of every round (common/src/fairness/rounding.ts), so a round replays under
 * the rule it was played under: `game_sessions.rounding` for finished rounds and `open_rounds.rounding`
 * for rounds in progress (a round opened before the change finishes under its own rule). Every round
 * already stored was rounded down, rule 1: the default fills them without rewriting the tables (a
 * constant default), and a server still running the previous release writes rule 1 rounds correctly.
 * This release writes each round's rule explicitly.
 */
export class PayoutRoundingRule1764100000003 implements MigrationInterface {
  name = "PayoutRoundingRule1764100000003";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_sessions ADD COLUMN rounding integer NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE open_rounds ADD COLUMN rounding integer NOT NULL DEFAULT 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE open_rounds DROP COLUMN rounding`);
    await q.query(`ALTER TABLE game_sessions DROP COLUMN rounding`);
  }
}
