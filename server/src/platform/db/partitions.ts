import type { EntityManager } from "typeorm";
import { sqlRows } from "./sql";
import type { Database } from "./database";

/**
 * The tables partitioned by month (UTC) on `created_at` (migration 1764100000017), and what each
 * month's partition carries besides the partitioned table's own indexes: the ledger's unique (player,
 * request id), which a partitioned table cannot hold across its partitions.
 */
export const PARTITIONED: Record<string, (partition: string) => string[]> = {
  ledger_entries: (p) => [`CREATE UNIQUE INDEX IF NOT EXISTS ${p}_player_request ON ${p} (player_id, request_id)`],
  game_sessions: () => [],
};

/**
 * Each month's partition is vacuumed once its inserts since the last vacuum pass 1 % of its rows (the
 * default is 20 %): a vacuum marks the pages all-visible, and only then do the player's totals and the
 * admin lookup read the player's index alone (docs/scaling.md, section 6), so the rows no vacuum has seen
 * stay hours' worth, not days'. The migration gives its partitions the same setting.
 */
export const PARTITION_STORAGE = "WITH (autovacuum_vacuum_insert_scale_factor = 0.01)";

/** The months after the current one whose partitions are made ahead. */
export const MONTHS_AHEAD = 2;

/** The advisory lock of the partition job, so processes sweeping at once do not race (any constant). */
const PARTITION_LOCK = 7_152_301_489;

/** The first instant (UTC) of the month `months` after the month of `at`. */
export const monthStart = (at: Date, months = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));

/** `y2027m01`: the month's part of a partition's name. */
const monthName = (start: Date) => `y${start.getUTCFullYear()}m${String(start.getUTCMonth() + 1).padStart(2, "0")}`;

/** Whole months from `from` to `to` (both the first instant of a month). */
const monthsBetween = (from: Date, to: Date) =>
  (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());

/** A partition of a table partitioned by month: its name and bounds (`from` null: everything before `to`). */
export interface PartitionRange {
  name: string;
  from: Date | null;
  to: Date;
  /** Being detached CONCURRENTLY (a first step committed, the second not yet). */
  detaching: boolean;
}

/** A bound as `pg_get_expr` writes it ('2027-01-01 00:00:00+00') as a Date. */
const boundDate = (text: string) => new Date(text.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));

/** The partitions of `table` with their bounds, oldest first (none: the table is not partitioned). */
export async function partitionsOf(em: EntityManager, table: string): Promise<PartitionRange[]> {
  const rows = await sqlRows<{ name: string; bound: string; detaching: boolean }>(
    em,
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detaching
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass`,
    [table],
  );
  const ranges: PartitionRange[] = [];
  for (const { name, bound, detaching } of rows) {
    const to = /TO \('([^']+)'\)/.exec(bound)?.[1];
    if (!to) continue;
    const from = /FROM \('([^']+)'\)/.exec(bound)?.[1];
    ranges.push({ name, from: from ? boundDate(from) : null, to: boundDate(to), detaching: detaching === true });
  }
  return ranges.sort((a, b) => a.to.getTime() - b.to.getTime());
}

/**
 * The end of the partitions of `table`: the upper bound of the last one (partitions are made one after
 * the other, so they cover everything before it), or null if the table is not partitioned.
 */
async function coveredUntil(em: EntityManager, table: string): Promise<Date | null> {
  return (await partitionsOf(em, table)).at(-1)?.to ?? null;
}

/**
 * Creates the partitions of this month and the next `MONTHS_AHEAD` (UTC) that do not exist yet, in one
 * transaction under an advisory lock (processes sweep at once). Answers the whole months after the
 * current one that are covered, the fewest of the tables: the gauge `casino_partition_months_ahead`,
 * which alerts below one. There is no default partition: a row whose month has no partition fails its
 * batch as a whole.
 */
export async function makePartitionsAhead(db: Database, now = new Date()): Promise<number> {
  return db.transaction(async (em) => {
    await em.query(`SELECT pg_advisory_xact_lock($1)`, [PARTITION_LOCK]);
    let ahead = Infinity;
    for (const [table, extras] of Object.entries(PARTITIONED)) {
      let until = await coveredUntil(em, table);
      if (!until) continue;
      for (let m = 0; m <= MONTHS_AHEAD; m++) {
        const from = monthStart(now, m);
        if (from < until) continue;
        const to = monthStart(now, m + 1);
        const partition = `${table}_${monthName(from)}`;
        await em.query(
          `CREATE TABLE IF NOT EXISTS ${partition} PARTITION OF ${table} FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}') ${PARTITION_STORAGE}`,
        );
        for (const statement of extras(partition)) await em.query(statement);
        until = to;
      }
      ahead = Math.min(ahead, monthsBetween(monthStart(now, 1), until));
    }
    return Number.isFinite(ahead) ? Math.max(0, ahead) : 0;
  });
}

/** The whole months after the current one that every partitioned table has a partition for. */
export async function partitionMonthsAhead(db: Database, now = new Date()): Promise<number> {
  return db.run(async (em) => {
    let ahead = Infinity;
    for (const table of Object.keys(PARTITIONED)) {
      const until = await coveredUntil(em, table);
      if (until) ahead = Math.min(ahead, monthsBetween(monthStart(now, 1), until));
    }
    return Number.isFinite(ahead) ? Math.max(0, ahead) : 0;
  });
}
