import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The payout rounding rule of each shared crash room round (common/src/fairness/rounding.ts): rule 2
 * rounds a cash-out from the bet's own stream, keyed by the game's hash and the player's id
 * (docs/crash-chain.md). Rounds already stored were rounded down, rule 1: the constant default fills
 * them without rewriting the table, and a round opened by a server still running the previous release
 * is paid as it was opened. This release writes each new round's rule explicitly.
 */
export class CrashPayoutRounding1764100000005 implements MigrationInterface {
  name = "CrashPayoutRounding1764100000005";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE crash_rounds ADD COLUMN rounding integer NOT NULL DEFAULT 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE crash_rounds DROP COLUMN rounding`);
  }
}
