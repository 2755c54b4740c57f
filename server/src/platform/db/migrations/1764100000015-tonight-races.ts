import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Races of an activity instance (docs/architecture/playing-together.md, "A race"): one row per race with
 * its schedule (the server's clock: started, join window closed, end), the database times between which
 * settled rounds count, and, once finished, the final order and the winner; the members who joined it.
 * At most one race per instance is not finished: the partial unique index refuses a second start, from
 * any process. The "Race Winner" tag is awarded by the race's end, not by the progress counters.
 */
export class TonightRaces1764100000015 implements MigrationInterface {
  name = "TonightRaces1764100000015";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tonight_races (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        instance_id text NOT NULL,
        started_by uuid NOT NULL REFERENCES players(id),
        minutes integer NOT NULL CONSTRAINT ck_tonight_races_minutes CHECK (minutes IN (5, 10, 15)),
        started_at timestamptz NOT NULL,
        join_closes_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        counted_from timestamptz,
        counted_until timestamptz,
        finished_at timestamptz,
        winner_id uuid REFERENCES players(id),
        standings jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ck_tonight_races_schedule CHECK (started_at <= join_closes_at AND join_closes_at < ends_at),
        CONSTRAINT ck_tonight_races_finished CHECK ((finished_at IS NULL) = (standings IS NULL) AND (finished_at IS NULL OR counted_until IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_tonight_races_open ON tonight_races (instance_id) WHERE finished_at IS NULL`);
    await q.query(`CREATE INDEX idx_tonight_races_instance ON tonight_races (instance_id, ends_at)`);
    await q.query(`
      CREATE TABLE tonight_race_members (
        race_id uuid NOT NULL REFERENCES tonight_races(id),
        player_id uuid NOT NULL REFERENCES players(id),
        joined_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (race_id, player_id)
      )`);
    await q.query(`CREATE INDEX idx_tonight_race_members_player ON tonight_race_members (player_id)`);
    await q.query(
      `INSERT INTO tags (name, description, objective_type, objective_criteria, sort_order) VALUES ($1, $2, 'race_win', 1, 100)
       ON CONFLICT (name) DO NOTHING`,
      ["Race Winner", "Won a race against the others of an activity."],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE players SET active_tag_id = NULL WHERE active_tag_id IN (SELECT id FROM tags WHERE objective_type = 'race_win')`);
    await q.query(`DELETE FROM player_tags WHERE tag_id IN (SELECT id FROM tags WHERE objective_type = 'race_win')`);
    await q.query(`DELETE FROM tags WHERE objective_type = 'race_win'`);
    await q.query(`DROP TABLE tonight_race_members`);
    await q.query(`DROP TABLE tonight_races`);
  }
}
