/**
 * Reads an append-only table in id order, as a consumer of an outbox. Ids come from a sequence, so a
 * transaction can take an id and commit after a later id is already visible. The tail remembers such
 * holes ("gaps") and asks for them again until they show up or are old enough to be a rollback; the
 * position it reports as safe to persist is below the oldest open gap, so a restart re-reads them.
 * Consumers apply rows idempotently: a row can come twice (after a restart, or from another process).
 */
export interface TailOptions {
  /** Rows per read. */
  batch: number;
  /** How long a hole may stay open before it is taken for a rolled-back transaction. */
  gapTtlMs: number;
  /** At most this many holes are tracked (the oldest are dropped first). */
  maxGaps?: number;
}

export class IdTail<R extends { id: number }> {
  private position = 0;
  private readonly gaps = new Map<number, number>();

  constructor(
    private readonly fetchAfter: (position: number, limit: number) => Promise<R[]>,
    private readonly fetchIds: (ids: number[]) => Promise<R[]>,
    private readonly options: TailOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Continues after `position`, still waiting for `holes` (ids below it not seen yet). */
  reset(position: number, holes: readonly number[] = []): void {
    this.position = position;
    this.gaps.clear();
    const now = this.now();
    for (const id of holes) if (id <= position) this.gaps.set(id, now);
  }

  /** The highest id read so far. */
  get head(): number {
    return this.position;
  }

  /** Every id at or below this one has been read or given up on. */
  get safePosition(): number {
    let lowest = this.position;
    for (const id of this.gaps.keys()) lowest = Math.min(lowest, id - 1);
    return lowest;
  }

  get openGaps(): number {
    return this.gaps.size;
  }

  /**
   * The next rows in id order: late arrivals from open gaps, then new rows. `more` when a full batch
   * came. Nothing moves until `ack()`: a consumer that fails to apply the rows gets them again.
   */
  async next(): Promise<{ rows: R[]; more: boolean; ack: () => void }> {
    const now = this.now();
    const late = this.gaps.size > 0 ? await this.fetchIds([...this.gaps.keys()]) : [];
    const from = this.position;
    const fresh = await this.fetchAfter(from, this.options.batch);
    const ack = () => {
      if (this.position !== from) return; // reset meanwhile (a new build): this batch no longer applies
      for (const row of late) this.gaps.delete(row.id);
      for (const [id, seen] of this.gaps) if (now - seen > this.options.gapTtlMs) this.gaps.delete(id);
      let expected = from + 1;
      for (const row of fresh) {
        for (let id = expected; id < row.id; id++) this.gaps.set(id, now);
        expected = row.id + 1;
      }
      if (fresh.length > 0) this.position = fresh[fresh.length - 1]!.id;
      const max = this.options.maxGaps ?? 10_000;
      if (this.gaps.size > max) for (const id of [...this.gaps.keys()].slice(0, this.gaps.size - max)) this.gaps.delete(id);
    };
    return { rows: [...late, ...fresh].sort((a, b) => a.id - b.id), more: fresh.length === this.options.batch, ack };
  }
}

/** How long a transaction is taken never to last: the rebuilds of the boards rely on it too. */
const LONGEST_TRANSACTION_MS = 24 * 60 * 60 * 1000;

/** How far back the lookups below look first: the last week's rows, in this month's and maybe last month's partition. */
const RECENT = "7 days";

/**
 * SQL: a lower bound on `created_at` of every row of `table` (partitioned by time: the ledger, the
 * rounds) whose `column` (an id from a sequence) is above the value of `param`, so a read of those rows
 * prunes the older partitions: the time of the newest row at or below it, less a day. A row above it
 * took its id after that row took its own (a sequence hands ids out in order), and its transaction
 * started at most a day before it did so. That row is looked for in the last week's partitions first
 * (one index probe each) and in all only if none is there (a position over a week old: once, before a
 * long catch-up); `-infinity` when no row is at or below it. Uncorrelated, so PostgreSQL runs it once
 * (an InitPlan, only when the statement uses it) and prunes the partitions with its value at execution.
 */
export function sinceAfter(table: string, column: string, param: string): string {
  const newestAtOrBelow = (recent: boolean) =>
    `(SELECT created_at FROM ${table} WHERE ${column} <= ${param}${recent ? ` AND created_at >= now() - interval '${RECENT}'` : ""}
       ORDER BY ${column} DESC LIMIT 1)`;
  return `(COALESCE(${newestAtOrBelow(true)}, ${newestAtOrBelow(false)}, '-infinity'::timestamptz) - interval '1 day')`;
}

/** The parameters of a read of the ids a tail waits for, bounded by `sinceAfter` its second: the ids, and the lowest less one. */
export const gapParams = (ids: number[]): [number[], number] => [ids, Math.min(...ids) - 1];

/**
 * SQL: the greatest `column` of `table` (`max(id)`), without probing each partition's index: the newest
 * id among the last two days' rows is the greatest of all when its row is less than a day old (a row
 * from before those two days took its id more than a day ago, before that row's transaction started).
 * Otherwise (a ledger idle for a day) every partition is asked, as `max` does.
 */
export function newestId(table: string, column: string): string {
  return `COALESCE(
    (SELECT r.${column} FROM (SELECT ${column}, created_at FROM ${table} WHERE created_at >= now() - interval '2 days'
                               ORDER BY ${column} DESC LIMIT 1) r
      WHERE r.created_at >= now() - interval '1 day'),
    (SELECT max(${column}) FROM ${table}))`;
}

/**
 * The lower bound on `created_at` that a tail by id of a table partitioned by time (the ledger, the
 * rounds: migration 1764100000017) adds to its read, so PostgreSQL reads the last partition or two
 * instead of probing every month's index: the newest row's time the tail has read, less a day. A row
 * committed after the tail's position has an id above it and a time (its transaction's start) at most
 * a day before the newest row read. Until the tail has read a row (after a start or a reset) the
 * bound is `-infinity`, and the read takes `sinceAfter` its position instead (`tailBound`).
 */
export class TailSince {
  private newest: number | null = null;

  /** The tail read rows of these times (ms). */
  saw(times: Iterable<number>): void {
    for (const t of times) if (this.newest === null || t > this.newest) this.newest = t;
  }

  /** The tail went back (a reset): the bound is unknown again. */
  reset(): void {
    this.newest = null;
  }

  /** The bound, as a timestamptz parameter. */
  get since(): string {
    return this.newest === null ? "-infinity" : new Date(this.newest - LONGEST_TRANSACTION_MS).toISOString();
  }
}

/**
 * SQL: the bound of a tail's read of `table` after the position `position` (a parameter), given
 * `since` (the parameter of `TailSince.since`): `since` once the tail has read a row, `sinceAfter` the
 * position until then (the first read after a start or a rebuild), looked up only then.
 */
export const tailBound = (table: string, column: string, position: string, since: string): string =>
  `CASE WHEN ${since} = '-infinity'::timestamptz THEN ${sinceAfter(table, column, position)} ELSE ${since} END`;
