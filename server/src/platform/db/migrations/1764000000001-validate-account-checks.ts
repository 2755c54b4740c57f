import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Validates the two CHECKs the previous migration added NOT VALID, and indexes the players who are not
 * active (each server process reads them every few seconds). Outside a transaction, so that neither
 * stops the service's writes: VALIDATE CONSTRAINT takes a lock that lets rows be written while it
 * scans, and the index is built CONCURRENTLY. Both are safe to run again.
 */
export class ValidateAccountChecks1764000000001 implements MigrationInterface {
  name = "ValidateAccountChecks1764000000001";
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players VALIDATE CONSTRAINT players_status_check`);
    await q.query(`ALTER TABLE ledger_entries VALIDATE CONSTRAINT ledger_entries_reason_check`);
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_players_closed ON players (id) WHERE status <> 'active'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_players_closed`);
  }
}
