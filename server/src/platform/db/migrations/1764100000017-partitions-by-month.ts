import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `ledger_entries` and `game_sessions` become range partitions on `created_at`, one a month (UTC)
 * (docs/scaling.md, "6. Partitioning the ledger and the rounds by time"):
 *
 * - the existing table is renamed `<table>_before_y<year>m<month>` and attached as the partition of
 *   everything before the cut (the first day of next month): `CHECK (created_at < cut)` is added NOT
 *   VALID and validated first, so the attach does not scan the table again under its lock. Its indexes
 *   are attached to the partitioned table's indexes of the same definition, not built again; only the
 *   primary key (and the rounds' unique `seq`) gain `created_at` and are built anew;
 * - the partitions of the two months from the cut are created (the retention sweep keeps creating
 *   them ahead, server/src/platform/db/partitions.ts);
 * - PostgreSQL 15 has no identity column on a partitioned table: `id` (and the rounds' `seq`) take
 *   their values from a sequence of the same name as the identity's (`DEFAULT nextval`), which goes on
 *   from where the identity had got to;
 * - the primary keys become `(id, created_at)`, the rounds' unique `seq` `(seq, created_at)`: a unique
 *   index of a partitioned table must contain the partition key;
 * - the unique (player, request id) of the ledger is kept on each partition alone
 *   (`<partition>_player_request`): it holds within a month. Across months, the statement that writes a
 *   batch's entries (server/src/core/ledger/engine/writes.ts) first calls `ledger_refuse_reused`, which
 *   looks each new entry's (player, request id) up over the last 35 days (the current and the previous
 *   month's partitions) and raises the unique violation the index would have, naming
 *   `ledger_entries_recent_player_request`.
 *
 * The view `game_plays` followed the renamed table: it is made again on the partitioned one. Like the
 * money migrations, it runs with the previous release stopped.
 */
export class PartitionsByMonth1764100000017 implements MigrationInterface {
  name = "PartitionsByMonth1764100000017";

  async up(q: QueryRunner): Promise<void> {
    const [{ cut }] = (await q.query(
      `SELECT to_char((date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month'), 'YYYY-MM-DD') AS cut`,
    )) as { cut: string }[];
    const before = (table: string) => `${table}_before_${monthName(cut)}`;

    // The ledger.
    const ledger = before("ledger_entries");
    const [{ next: nextId }] = (await q.query(`SELECT nextval(pg_get_serial_sequence('ledger_entries', 'id')) AS next`)) as {
      next: string;
    }[];
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN id DROP IDENTITY`);
    await q.query(`ALTER TABLE ledger_entries RENAME TO ${ledger}`);
    await q.query(`ALTER TABLE ${ledger} RENAME CONSTRAINT uq_ledger_player_request TO ${ledger}_player_request`);
    await q.query(`ALTER INDEX idx_ledger_player RENAME TO ${ledger}_player`);
    await q.query(`ALTER INDEX idx_ledger_created_brin RENAME TO ${ledger}_created_brin`);
    await q.query(`ALTER INDEX idx_ledger_daily_spins RENAME TO ${ledger}_daily_spins`);
    await q.query(`ALTER TABLE ${ledger} DROP CONSTRAINT ledger_entries_pkey`);
    await q.query(`ALTER TABLE ${ledger} ADD CONSTRAINT ${ledger}_pkey PRIMARY KEY (id, created_at)`);
    await q.query(`ALTER TABLE ${ledger} RENAME CONSTRAINT ledger_entries_seed_id_fkey TO ${ledger}_seed_id_fkey`);
    await checkBefore(q, ledger, cut);

    await createPartitioned(q, "ledger_entries", ledger, "id", nextId);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_seed_id_fkey FOREIGN KEY (seed_id) REFERENCES fairness_seeds(id)`,
    );
    await q.query(`CREATE INDEX idx_ledger_player ON ledger_entries (player_id, id) INCLUDE (delta)`);
    await q.query(`CREATE INDEX idx_ledger_created_brin ON ledger_entries USING brin (created_at)`);
    await q.query(
      `CREATE INDEX idx_ledger_daily_spins ON ledger_entries (player_id, created_at DESC, id DESC) WHERE reason = 'daily_spin'`,
    );
    await attachBefore(q, "ledger_entries", ledger, cut);

    // The rounds.
    const rounds = before("game_sessions");
    const [{ next: nextSeq }] = (await q.query(`SELECT nextval(pg_get_serial_sequence('game_sessions', 'seq')) AS next`)) as {
      next: string;
    }[];
    await q.query(`ALTER TABLE game_sessions ALTER COLUMN seq DROP IDENTITY`);
    await q.query(`ALTER TABLE game_sessions RENAME TO ${rounds}`);
    await q.query(`ALTER INDEX idx_game_sessions_player RENAME TO ${rounds}_player`);
    await q.query(`ALTER INDEX idx_game_sessions_seed_nonce RENAME TO ${rounds}_seed_nonce`);
    await q.query(`DROP INDEX uq_game_sessions_seq`);
    await q.query(`CREATE UNIQUE INDEX ${rounds}_seq ON ${rounds} (seq, created_at)`);
    await q.query(`ALTER TABLE ${rounds} DROP CONSTRAINT game_sessions_pkey`);
    await q.query(`ALTER TABLE ${rounds} ADD CONSTRAINT ${rounds}_pkey PRIMARY KEY (id, created_at)`);
    await checkBefore(q, rounds, cut);

    await createPartitioned(q, "game_sessions", rounds, "seq", nextSeq);
    await q.query(
      `CREATE INDEX idx_game_sessions_player ON game_sessions (player_id, created_at DESC, id DESC) INCLUDE (game_type, result, bet_amount, payout)`,
    );
    await q.query(`CREATE INDEX idx_game_sessions_seed_nonce ON game_sessions (seed_id, nonce)`);
    await q.query(`CREATE UNIQUE INDEX uq_game_sessions_seq ON game_sessions (seq, created_at)`);
    await attachBefore(q, "game_sessions", rounds, cut);
    await q.query(`
      CREATE OR REPLACE VIEW game_plays AS
        SELECT id, player_id, game_type, created_at AS played_at FROM game_sessions
        UNION ALL
        SELECT id, player_id, game_type, played_at FROM game_plays_legacy`);

    // A (player, request id) of the ledger used in the last 35 days, in any partition, is refused as the
    // unique index refuses one in its own partition (SQLSTATE 23505). STABLE: it reads with the calling
    // statement's snapshot, so it sees what earlier transactions wrote, not the rows that statement inserts.
    // Its lookup keeps one generic plan (force_generic_plan, whatever the caller's plan_cache_mode) made
    // with sequential and bitmap scans off, so the plan probes each partition's unique (player_id,
    // request_id) once an entry, whatever the partition held when it was made. A plan made by costs
    // when this month's partition held a few rows (a new month, a new database) read the whole
    // partition for every call as it grew (a nested loop over it), until the partition was next
    // analyzed: the bets were about 35 % slower in `npm run bench`; planning at each call instead
    // cost about 15 % (docs/performance.md).
    await q.query(`
      CREATE FUNCTION ledger_refuse_reused(players uuid[], ids text[]) RETURNS int LANGUAGE plpgsql STABLE
        SET plan_cache_mode = force_generic_plan SET enable_seqscan = off SET enable_bitmapscan = off AS $fn$
      DECLARE
        hit record;
        since timestamptz := now() - interval '35 days';
      BEGIN
        SELECT v.player_id, v.request_id INTO hit FROM unnest(players, ids) AS v(player_id, request_id)
         WHERE EXISTS (SELECT 1 FROM ledger_entries e
                        WHERE e.player_id = v.player_id AND e.request_id = v.request_id
                          AND e.created_at >= since)
         LIMIT 1;
        IF FOUND THEN
          RAISE EXCEPTION 'duplicate key value violates unique constraint "ledger_entries_recent_player_request"'
            USING ERRCODE = 'unique_violation', CONSTRAINT = 'ledger_entries_recent_player_request',
                  DETAIL = format('Key (player_id, request_id)=(%s, %s) was used in the last 35 days.', hit.player_id, hit.request_id);
        END IF;
        RETURN 1;
      END
      $fn$`);

    // The two months from the cut, each vacuumed after its inserts pass 1 % of its rows (the default
    // is 20 %), so index-only reads find its pages all-visible (as the partitions made ahead are).
    const storage = "WITH (autovacuum_vacuum_insert_scale_factor = 0.01)";
    for (const months of [0, 1]) {
      const [{ from, to }] = (await q.query(
        `SELECT to_char($1::date + make_interval(months => $2), 'YYYY-MM-DD') AS from,
                to_char($1::date + make_interval(months => $2 + 1), 'YYYY-MM-DD') AS to`,
        [cut, months],
      )) as { from: string; to: string }[];
      const ledgerMonth = `ledger_entries_${monthName(from)}`;
      await q.query(
        `CREATE TABLE ${ledgerMonth} PARTITION OF ledger_entries FOR VALUES FROM ('${from} 00:00+00') TO ('${to} 00:00+00') ${storage}`,
      );
      await q.query(`CREATE UNIQUE INDEX ${ledgerMonth}_player_request ON ${ledgerMonth} (player_id, request_id)`);
      await q.query(
        `CREATE TABLE game_sessions_${monthName(from)} PARTITION OF game_sessions FOR VALUES FROM ('${from} 00:00+00') TO ('${to} 00:00+00') ${storage}`,
      );
    }
  }

  /**
   * Back to one plain table each, every partition's rows copied into it, with the identity going on
   * from where the sequence had got to, and the keys and indexes of before.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION ledger_refuse_reused(uuid[], text[])`);
    await q.query(`CREATE TABLE ledger_entries_plain (LIKE ledger_entries INCLUDING CONSTRAINTS)`);
    await q.query(`ALTER TABLE ledger_entries_plain ALTER COLUMN created_at SET DEFAULT now()`);
    await q.query(`INSERT INTO ledger_entries_plain SELECT * FROM ledger_entries`);
    const [{ next: nextId }] = (await q.query(`SELECT nextval('ledger_entries_id_seq') AS next`)) as { next: string }[];
    await q.query(`DROP TABLE ledger_entries`);
    await q.query(`ALTER TABLE ledger_entries_plain RENAME TO ledger_entries`);
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (START WITH ${Number(nextId)})`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_pkey PRIMARY KEY (id)`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT uq_ledger_player_request UNIQUE (player_id, request_id)`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_seed_id_fkey FOREIGN KEY (seed_id) REFERENCES fairness_seeds(id)`,
    );
    await q.query(`CREATE INDEX idx_ledger_player ON ledger_entries (player_id, id) INCLUDE (delta)`);
    await q.query(`CREATE INDEX idx_ledger_created_brin ON ledger_entries USING brin (created_at)`);
    await q.query(
      `CREATE INDEX idx_ledger_daily_spins ON ledger_entries (player_id, created_at DESC, id DESC) WHERE reason = 'daily_spin'`,
    );

    await q.query(`CREATE TABLE game_sessions_plain (LIKE game_sessions INCLUDING CONSTRAINTS)`);
    await q.query(`ALTER TABLE game_sessions_plain ALTER COLUMN id SET DEFAULT gen_random_uuid()`);
    await q.query(`ALTER TABLE game_sessions_plain ALTER COLUMN created_at SET DEFAULT now()`);
    await q.query(`ALTER TABLE game_sessions_plain ALTER COLUMN rounding SET DEFAULT 1`);
    await q.query(`INSERT INTO game_sessions_plain SELECT * FROM game_sessions`);
    const [{ next: nextSeq }] = (await q.query(`SELECT nextval('game_sessions_seq_seq') AS next`)) as { next: string }[];
    await q.query(`
      CREATE OR REPLACE VIEW game_plays AS
        SELECT id, player_id, game_type, created_at AS played_at FROM game_sessions_plain
        UNION ALL
        SELECT id, player_id, game_type, played_at FROM game_plays_legacy`);
    await q.query(`DROP TABLE game_sessions`);
    await q.query(`ALTER TABLE game_sessions_plain RENAME TO game_sessions`);
    await q.query(`ALTER TABLE game_sessions ALTER COLUMN seq ADD GENERATED BY DEFAULT AS IDENTITY (START WITH ${Number(nextSeq)})`);
    await q.query(`ALTER TABLE game_sessions ADD CONSTRAINT game_sessions_pkey PRIMARY KEY (id)`);
    await q.query(
      `CREATE INDEX idx_game_sessions_player ON game_sessions (player_id, created_at DESC, id DESC) INCLUDE (game_type, result, bet_amount, payout)`,
    );
    await q.query(`CREATE INDEX idx_game_sessions_seed_nonce ON game_sessions (seed_id, nonce)`);
    await q.query(`CREATE UNIQUE INDEX uq_game_sessions_seq ON game_sessions (seq)`);
  }
}

/** `y2027m01` for the month of `date` ('2027-01-01'). */
const monthName = (date: string) => `y${date.slice(0, 4)}m${date.slice(5, 7)}`;

/**
 * Creates `table` partitioned by range on `created_at`, with the columns, defaults and CHECKs of the
 * renamed table of before the cut (less its cut's CHECK), its `column` taking values from the sequence
 * `<table>_<column>_seq` from `start` on, and the primary key `(id, created_at)`.
 */
async function createPartitioned(q: QueryRunner, table: string, before: string, column: string, start: string): Promise<void> {
  const sequence = `${table}_${column}_seq`;
  await q.query(`CREATE SEQUENCE ${sequence} AS bigint START WITH ${Number(start)}`);
  await q.query(`CREATE TABLE ${table} (LIKE ${before} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at)`);
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${before}_before_cut`);
  await q.query(`ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT nextval('${sequence}')`);
  await q.query(`ALTER SEQUENCE ${sequence} OWNED BY ${table}.${column}`);
  await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (id, created_at)`);
}

/** Proves every row of `table` is before the cut, without holding a lock that blocks reads while it scans. */
async function checkBefore(q: QueryRunner, table: string, cut: string): Promise<void> {
  await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_before_cut CHECK (created_at < '${cut} 00:00+00') NOT VALID`);
  await q.query(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${table}_before_cut`);
}

/** Attaches the table of before the cut (its CHECK spares the scan), then drops the CHECK the bound now says. */
async function attachBefore(q: QueryRunner, parent: string, table: string, cut: string): Promise<void> {
  await q.query(`ALTER TABLE ${parent} ATTACH PARTITION ${table} FOR VALUES FROM (MINVALUE) TO ('${cut} 00:00+00')`);
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_before_cut`);
}
