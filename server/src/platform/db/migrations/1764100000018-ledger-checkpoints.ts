import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The checkpoints of archived months (docs/scaling.md section 6, "Retention and archival";
 * server/src/ops/archive.ts):
 *
 * - `archived_partitions`: one row per month's partition of `ledger_entries` or `game_sessions` being
 *   archived or archived: its bounds, rows, the columns of its file, and once dropped, the file, its
 *   size and SHA-256;
 * - `ledger_checkpoints`: per archived ledger partition, one row per player (the sum of the player's
 *   deltas in it, their count, and the id and running balance of the player's last entry in it) and one
 *   per counter-party account (the sum of the account's side, minus each delta, and the count);
 * - the view `ledger_checkpoints_in_force`: the checkpoints of partitions no longer attached to the
 *   ledger. A checkpoint is written while its partition is still attached, so until the detach the
 *   entries count and the checkpoint does not, and after it the other way round; a detach (plain, or the
 *   second step of a `CONCURRENTLY`) and the snapshot that reads the view agree on which, as the view
 *   reads `pg_inherits` with the reader's snapshot (a partition being detached CONCURRENTLY is already
 *   left out of queries that do not see it attached: `inhdetachpending`).
 *
 * The invariant, with the entries kept: each balance = the player's checkpoints in force + their kept
 * entries; the players' balances + every account's checkpoints in force and kept side sum to zero.
 */
export class LedgerCheckpoints1764100000018 implements MigrationInterface {
  name = "LedgerCheckpoints1764100000018";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE archived_partitions (
        name text PRIMARY KEY,
        parent text NOT NULL,
        range_from timestamptz,
        range_to timestamptz NOT NULL,
        rows bigint NOT NULL,
        columns text[] NOT NULL,
        checkpointed_at timestamptz NOT NULL DEFAULT now(),
        file text,
        bytes bigint,
        sha256 text,
        dropped_at timestamptz,
        CONSTRAINT archived_partitions_parent_check CHECK (parent IN ('ledger_entries', 'game_sessions'))
      )`);
    await q.query(`
      CREATE TABLE ledger_checkpoints (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        partition text NOT NULL REFERENCES archived_partitions (name),
        player_id uuid,
        account text,
        amount bigint NOT NULL,
        entries bigint NOT NULL,
        last_id bigint,
        last_balance_after bigint,
        CONSTRAINT ledger_checkpoints_holder CHECK ((player_id IS NULL) <> (account IS NULL)),
        CONSTRAINT ledger_checkpoints_last CHECK ((player_id IS NULL) = (last_id IS NULL) AND (last_id IS NULL) = (last_balance_after IS NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX uq_ledger_checkpoints_player ON ledger_checkpoints (player_id, partition) WHERE player_id IS NOT NULL`,
    );
    await q.query(`CREATE UNIQUE INDEX uq_ledger_checkpoints_account ON ledger_checkpoints (account, partition) WHERE account IS NOT NULL`);
    await q.query(`
      CREATE VIEW ledger_checkpoints_in_force AS
        SELECT c.* FROM ledger_checkpoints c
         WHERE NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid
                            WHERE p.relname = c.partition AND i.inhparent = 'ledger_entries'::regclass AND NOT i.inhdetachpending)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW ledger_checkpoints_in_force`);
    await q.query(`DROP TABLE ledger_checkpoints`);
    await q.query(`DROP TABLE archived_partitions`);
  }
}
