import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The Hold'em table (docs/architecture/holdem.md, "The room" and "Money"): players play each other, the
 * house takes nothing.
 *
 * - `holdem_tables`: one row per table a room opened, with the process that runs it and its lease (a
 *   table whose lease runs out is settled by the restart rule and closed).
 * - `holdem_seats`: a player's seat and stack at a table, from the buy-in to the cash-out. The stacks are
 *   written when a hand is over, never during it: a hand cut short leaves them as they were before it.
 * - `holdem_hands`: each hand's server seed (its hash shown before the deal), the client seeds of the
 *   players dealt in, its start, and, once over, its actions and result (what the verifier replays).
 * - Two ledger reasons: `buy_in` (coins from the balance to the table's holding account) and `cash_out`
 *   (a stack back to the balance). They are not winnings: the leaderboards do not count them.
 */
export class HoldemTable1764100000010 implements MigrationInterface {
  name = "HoldemTable1764100000010";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_reason_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_reason_check
         CHECK (reason IN ('grant','bet','payout','refund','daily_spin','reward','admin_adjustment','buy_in','cash_out')) NOT VALID`,
    );
    await q.query(`ALTER TABLE ledger_entries VALIDATE CONSTRAINT ledger_entries_reason_check`);
    await q.query(`
      CREATE TABLE holdem_tables (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        scope text NOT NULL,
        owner text NOT NULL,
        lease_until timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        closed_by text CHECK (closed_by IN ('closed','restart')),
        CONSTRAINT ck_holdem_tables_closed CHECK ((closed_at IS NULL) = (closed_by IS NULL))
      )`);
    await q.query(`CREATE INDEX idx_holdem_tables_lease ON holdem_tables (lease_until) WHERE closed_at IS NULL`);
    await q.query(`
      CREATE TABLE holdem_seats (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        table_id uuid NOT NULL REFERENCES holdem_tables(id),
        seat integer NOT NULL CHECK (seat BETWEEN 1 AND 9),
        player_id uuid NOT NULL REFERENCES players(id),
        request_id text NOT NULL,
        buy_in bigint NOT NULL CHECK (buy_in > 0),
        stack bigint NOT NULL CHECK (stack >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        left_at timestamptz,
        cashed_out bigint CHECK (cashed_out >= 0),
        CONSTRAINT ck_holdem_seats_left CHECK ((left_at IS NULL) = (cashed_out IS NULL))
      )`);
    // One player per seat, and one seat per player, at each table.
    await q.query(`CREATE UNIQUE INDEX uq_holdem_seats_seat ON holdem_seats (table_id, seat) WHERE left_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX uq_holdem_seats_player ON holdem_seats (table_id, player_id) WHERE left_at IS NULL`);
    await q.query(`CREATE INDEX idx_holdem_seats_player ON holdem_seats (player_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE holdem_hands (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        table_id uuid NOT NULL REFERENCES holdem_tables(id),
        hand_number integer NOT NULL CHECK (hand_number >= 1),
        server_seed text NOT NULL,
        server_seed_hash text NOT NULL UNIQUE,
        seeds jsonb NOT NULL,
        start jsonb NOT NULL,
        phase text NOT NULL CHECK (phase IN ('playing','complete','void')),
        actions jsonb,
        result jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        CONSTRAINT uq_holdem_hands_number UNIQUE (table_id, hand_number),
        CONSTRAINT ck_holdem_hands_ended CHECK ((phase = 'playing') = (ended_at IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_holdem_hands_open ON holdem_hands (table_id) WHERE phase = 'playing'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE holdem_hands`);
    await q.query(`DROP TABLE holdem_seats`);
    await q.query(`DROP TABLE holdem_tables`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_reason_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_reason_check
         CHECK (reason IN ('grant','bet','payout','refund','daily_spin','reward','admin_adjustment'))`,
    );
  }
}
