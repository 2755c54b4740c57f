import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The shared crash room: hash chains (one active per room scope), rounds with their phase and the
 * process that runs them, and bets settled exactly once.
 */
export class CrashRounds1763830000000 implements MigrationInterface {
  name = "CrashRounds1763830000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE crash_chains (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        scope text NOT NULL,
        seed text NOT NULL,
        terminating_hash text NOT NULL UNIQUE,
        salt text NOT NULL,
        length integer NOT NULL CHECK (length > 0),
        next_game integer NOT NULL DEFAULT 1 CHECK (next_game BETWEEN 1 AND length + 1),
        created_at timestamptz NOT NULL DEFAULT now(),
        exhausted_at timestamptz
      )`);
    // One chain in use per scope: two processes can never both start one.
    await q.query(`CREATE UNIQUE INDEX uq_crash_chains_active_scope ON crash_chains (scope) WHERE exhausted_at IS NULL`);
    await q.query(`
      CREATE TABLE crash_rounds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        chain_id uuid NOT NULL REFERENCES crash_chains(id),
        game_number integer NOT NULL CHECK (game_number >= 1),
        scope text NOT NULL,
        game_hash text NOT NULL,
        crash_point bigint NOT NULL CHECK (crash_point >= 100),
        phase text NOT NULL CHECK (phase IN ('betting','running','busted','void')),
        settled_by text CHECK (settled_by IN ('bust','restart')),
        owner text NOT NULL,
        lease_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        running_at timestamptz,
        ended_at timestamptz,
        CONSTRAINT uq_crash_rounds_game UNIQUE (chain_id, game_number)
      )`);
    // At most one round in play per scope, whatever the number of processes.
    await q.query(`CREATE UNIQUE INDEX uq_crash_rounds_open_scope ON crash_rounds (scope) WHERE phase IN ('betting','running')`);
    await q.query(`CREATE INDEX idx_crash_rounds_history ON crash_rounds (scope, ended_at DESC) WHERE phase IN ('busted','void')`);
    await q.query(`
      CREATE TABLE crash_bets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        round_id uuid NOT NULL REFERENCES crash_rounds(id),
        player_id uuid NOT NULL REFERENCES players(id),
        request_id text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        auto_cash_out bigint CHECK (auto_cash_out >= 101),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','cashed_out','lost','refunded')),
        cashed_out_at bigint,
        payout bigint NOT NULL DEFAULT 0 CHECK (payout >= 0),
        settled_by text CHECK (settled_by IN ('player','auto','bust','restart')),
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        CONSTRAINT uq_crash_bets_round_player UNIQUE (round_id, player_id),
        CONSTRAINT ck_crash_bets_cash_out CHECK ((status = 'cashed_out') = (cashed_out_at IS NOT NULL)),
        CONSTRAINT ck_crash_bets_settled CHECK ((status = 'active') = (settled_at IS NULL))
      )`);
    await q.query(`CREATE INDEX idx_crash_bets_active ON crash_bets (round_id) WHERE status = 'active'`);
    await q.query(`CREATE INDEX idx_crash_bets_player ON crash_bets (player_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE crash_bets`);
    await q.query(`DROP TABLE crash_rounds`);
    await q.query(`DROP TABLE crash_chains`);
  }
}
