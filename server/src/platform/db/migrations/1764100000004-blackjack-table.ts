import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The shared blackjack table (docs/architecture/blackjack-table.md): shoes (each with its own server
 * seed, committed before its first round, and the process that deals it), rounds with the actions applied
 * in order (what `verifyShoe` replays), and each seat's bet, settled exactly once.
 */
export class BlackjackTable1764100000004 implements MigrationInterface {
  name = "BlackjackTable1764100000004";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE table_shoes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        table_id text NOT NULL,
        server_seed text NOT NULL,
        server_seed_hash text NOT NULL UNIQUE,
        seats jsonb,
        rounding integer NOT NULL CHECK (rounding IN (1, 2)),
        owner text NOT NULL,
        lease_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        finished_by text CHECK (finished_by IN ('cut_card','closed','restart')),
        CONSTRAINT ck_table_shoes_finished CHECK ((finished_at IS NULL) = (finished_by IS NULL))
      )`);
    // One shoe being dealt per table, whatever the number of processes.
    await q.query(`CREATE UNIQUE INDEX uq_table_shoes_live ON table_shoes (table_id) WHERE finished_at IS NULL`);
    await q.query(`CREATE INDEX idx_table_shoes_lease ON table_shoes (lease_until) WHERE finished_at IS NULL`);
    await q.query(`
      CREATE TABLE table_rounds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        shoe_id uuid NOT NULL REFERENCES table_shoes(id),
        round integer NOT NULL CHECK (round >= 1),
        phase text NOT NULL CHECK (phase IN ('betting','playing','settled','void')),
        actions jsonb NOT NULL,
        settled_by text CHECK (settled_by IN ('table','restart')),
        created_at timestamptz NOT NULL DEFAULT now(),
        dealt_at timestamptz,
        ended_at timestamptz,
        CONSTRAINT uq_table_rounds_round UNIQUE (shoe_id, round)
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_table_rounds_open ON table_rounds (shoe_id) WHERE phase IN ('betting','playing')`);
    await q.query(`
      CREATE TABLE table_bets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        round_id uuid NOT NULL REFERENCES table_rounds(id),
        seat integer NOT NULL CHECK (seat BETWEEN 1 AND 7),
        player_id uuid NOT NULL REFERENCES players(id),
        request_id text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        staked bigint NOT NULL CHECK (staked >= amount),
        payout bigint NOT NULL DEFAULT 0 CHECK (payout >= 0),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','settled','refunded')),
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        CONSTRAINT uq_table_bets_seat UNIQUE (round_id, seat),
        CONSTRAINT uq_table_bets_player UNIQUE (round_id, player_id),
        CONSTRAINT ck_table_bets_settled CHECK ((status = 'active') = (settled_at IS NULL))
      )`);
    await q.query(`CREATE INDEX idx_table_bets_active ON table_bets (round_id) WHERE status = 'active'`);
    await q.query(`CREATE INDEX idx_table_bets_player ON table_bets (player_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE table_bets`);
    await q.query(`DROP TABLE table_rounds`);
    await q.query(`DROP TABLE table_shoes`);
  }
}
