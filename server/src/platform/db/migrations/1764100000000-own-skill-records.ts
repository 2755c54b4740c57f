import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A player's own best time and best kills (`GET /api/skill-rounds/records`) are read per player: these
 * indexes answer each with one index lookup instead of a scan of every record (the best kills read
 * the kills index backwards). Built CONCURRENTLY
 * (outside a transaction), so records keep being written meanwhile; safe to run again.
 */
export class OwnSkillRecords1764100000000 implements MigrationInterface {
  name = "OwnSkillRecords1764100000000";
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_dots_speed_player ON dots_speed_records (player_id, completion_time_ms)`);
    await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_dot_battle_player ON dot_battle_scores (player_id, kills)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_dot_battle_player`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS idx_dots_speed_player`);
  }
}
