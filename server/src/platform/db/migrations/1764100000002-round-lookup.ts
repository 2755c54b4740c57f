import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A round named by its seed and nonce (the live feeds and share links name rounds so, without a player
 * id): the seed by its hash, then the round by seed and nonce. Built CONCURRENTLY, outside a
 * transaction, so writes go on while the indexes are built; safe to run again.
 */
export class RoundLookup1764100000002 implements MigrationInterface {
  name = "RoundLookup1764100000002";
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_fairness_seed_hash ON fairness_seeds (server_seed_hash)`);
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_game_sessions_seed_nonce ON game_sessions (seed_id, nonce)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_game_sessions_seed_nonce`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_fairness_seed_hash`);
  }
}
