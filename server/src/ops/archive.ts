import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { EntityManager } from "typeorm";
import type { Database } from "../platform/db/database";
import { monthStart, partitionsOf, type PartitionRange } from "../platform/db/partitions";
import { sqlRows } from "../platform/db/sql";

/**
 * The archival of old monthly partitions of the ledger and the rounds (docs/scaling.md section 6,
 * "Retention and archival"; docs/operations.md, "Archiving old months"). A partition is archived once
 * its upper bound is at least `afterMonths` whole months before the current month (so never the current
 * or the previous month, which the request-id lookup reads; the partition of everything before the
 * partitioning's cut only once its cut is that old). For each, oldest first, the ledger's before the
 * rounds' of the same month:
 *
 * 1. checkpoint (one transaction, the partition locked against writes): a row in `archived_partitions`
 *    and, for the ledger, one row per player and per account in `ledger_checkpoints` (migration
 *    1764100000018). While the partition is attached its checkpoint is not in force (the view
 *    `ledger_checkpoints_in_force`), so nothing counts twice;
 * 2. export: its rows, in id order read a batch at a time (no transaction held open), to
 *    `<partition>.copy.gz` (PostgreSQL's COPY text format, gzip; times in ISO form in UTC whatever the
 *    connection's defaults: `EXPORT_SETTINGS`) beside a `<partition>.json` manifest (table, bounds,
 *    columns, settings, rows, SHA-256), written as `.tmp` files and renamed once verified;
 * 3. verify: the file read back: its row count, and for the ledger the sum and count of deltas per
 *    player and per account, must equal the checkpoint. A failure in 2 or 3 removes the checkpoint
 *    again: nothing has changed;
 * 4. detach: `DETACH PARTITION … CONCURRENTLY` on PostgreSQL (bets go on; the checkpoint comes into
 *    force as the partition leaves), a plain DETACH on PGlite;
 * 5. the detached table checked against the checkpoint once more, then dropped, in one transaction
 *    with its `archived_partitions` row marked dropped (file, bytes, SHA-256).
 *
 * A run stopped anywhere is taken up by the next: a partition still attached starts over, one detached
 * (or half detached: FINALIZE) goes on from step 2. Under an advisory lock (PostgreSQL), so two
 * processes never archive at once; a run that finds it taken does nothing.
 */

/** The advisory lock of the archival (any constant, beside the partition job's and the migrations'). */
const ARCHIVE_LOCK = 7_152_301_490;

/** The tables archived, in the order a month's partitions go (rounds follow their entries), each with the column its export is read in order of. */
const ARCHIVED = [
  { table: "ledger_entries", key: "id" },
  { table: "game_sessions", key: "seq" },
] as const;
type ArchivedTable = (typeof ARCHIVED)[number]["table"];

const EXPORT_BATCH = 5000;
const FIRST_KEY = "-9223372036854775808";

export interface ArchiveSettings {
  /** Whole months from a partition's upper bound to the current month's start before it is archived (at least 2). */
  afterMonths: number;
  /** Where the files go. */
  dir: string;
}

export interface ArchivedPartitionReport {
  table: ArchivedTable;
  partition: string;
  rows: number;
  file: string;
}

export interface ArchiveReport {
  /** Partitions archived by this run, oldest first. */
  archived: ArchivedPartitionReport[];
  /** Another process held the archival's lock: this run did nothing. */
  busy: boolean;
}

interface Candidate {
  table: ArchivedTable;
  key: string;
  name: string;
  from: Date | null;
  to: Date;
  /** Still a partition of its table (not yet detached); `detaching`: a CONCURRENTLY detach half done. */
  attached: boolean;
  detaching: boolean;
}

/**
 * The settings the export reads its values as text under (each batch's transaction, SET LOCAL; the
 * search for due partitions too, which reads their bounds as text), whatever the server's, the
 * database's or the role's defaults: times in ISO form in UTC with their offset
 * (`2025-10-11 00:00:00+00`), intervals and floats as PostgreSQL writes them by default. The manifest
 * names them; a restore's COPY reads these forms under any settings.
 */
export const EXPORT_SETTINGS = {
  DateStyle: "ISO, YMD",
  TimeZone: "UTC",
  IntervalStyle: "postgres",
  extra_float_digits: "1",
  bytea_output: "hex",
} as const;
const EXPORT_SETTINGS_SQL = `SELECT ${Object.entries(EXPORT_SETTINGS)
  .map(([name, value]) => `set_config('${name}', '${value}', true)`)
  .join(", ")}`;

/** The first instant of the months whose partitions may go: upper bounds at or before it. */
export const archiveCutoff = (afterMonths: number, now = new Date()): Date => monthStart(now, -afterMonths);

/**
 * What a run would archive now, oldest first: the attached partitions wholly before the cutoff, and the
 * partitions a stopped run left detached but not dropped.
 */
export async function archiveCandidates(db: Database, afterMonths: number, now = new Date()): Promise<Candidate[]> {
  if (!Number.isInteger(afterMonths) || afterMonths < 2) throw new Error("the archival keeps at least the current and the previous month");
  const cutoff = archiveCutoff(afterMonths, now);
  // The partitions' bounds are read as text (pg_get_expr) and dates: in ISO form whatever the defaults.
  return db.transaction(async (em) => {
    await em.query(EXPORT_SETTINGS_SQL);
    const found: Candidate[] = [];
    for (const { table, key } of ARCHIVED) {
      const attached = (await partitionsOf(em, table)).filter((p: PartitionRange) => p.to <= cutoff);
      for (const p of attached)
        found.push({ table, key, name: p.name, from: p.from, to: p.to, attached: !p.detaching, detaching: p.detaching });
      const left = await sqlRows<{ name: string; range_from: Date | null; range_to: Date }>(
        em,
        `SELECT name, range_from, range_to FROM archived_partitions a
          WHERE parent = $1 AND dropped_at IS NULL AND to_regclass(a.name) IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE c.relname = a.name AND i.inhparent = $1::regclass)`,
        [table],
      );
      for (const r of left) {
        found.push({
          table,
          key,
          name: r.name,
          from: r.range_from ? new Date(r.range_from) : null,
          to: new Date(r.range_to),
          attached: false,
          detaching: false,
        });
      }
    }
    const order = (c: Candidate) => ARCHIVED.findIndex((a) => a.table === c.table);
    return found.sort((a, b) => a.to.getTime() - b.to.getTime() || order(a) - order(b));
  });
}

/** The databases this process is archiving now: a second run started meanwhile does nothing (PGlite has no advisory lock between them). */
const running = new WeakSet<Database>();

/** Archives every partition due (see the file's comment), under the archival's lock. */
export async function archiveOldPartitions(db: Database, settings: ArchiveSettings, now = new Date()): Promise<ArchiveReport> {
  if (running.has(db)) return { archived: [], busy: true };
  running.add(db);
  try {
    return await archiveLocked(db, settings, now);
  } finally {
    running.delete(db);
  }
}

async function archiveLocked(db: Database, settings: ArchiveSettings, now: Date): Promise<ArchiveReport> {
  const candidates = await archiveCandidates(db, settings.afterMonths, now);
  if (candidates.length === 0) return { archived: [], busy: false };
  if (db.embedded) return { archived: await archiveEach(db, settings.dir, candidates, null), busy: false };
  const holder = db.dataSource.createQueryRunner();
  try {
    const [{ locked }] = (await holder.query(`SELECT pg_try_advisory_lock($1) AS locked`, [ARCHIVE_LOCK])) as { locked: boolean }[];
    if (!locked) return { archived: [], busy: true };
    try {
      // Looked up again under the lock: another run may have archived some meanwhile.
      return {
        archived: await archiveEach(db, settings.dir, await archiveCandidates(db, settings.afterMonths, now), holder),
        busy: false,
      };
    } finally {
      await holder.query(`SELECT pg_advisory_unlock($1)`, [ARCHIVE_LOCK]);
    }
  } finally {
    await holder.release();
  }
}

/** `holder`: the connection that holds the lock, outside any transaction (a CONCURRENTLY detach runs there); null on PGlite. */
async function archiveEach(
  db: Database,
  dir: string,
  candidates: Candidate[],
  holder: { query(text: string): Promise<unknown> } | null,
): Promise<ArchivedPartitionReport[]> {
  const done: ArchivedPartitionReport[] = [];
  for (const c of candidates) {
    if (c.attached) await checkpoint(db, c);
    let file: ArchiveFile;
    try {
      file = await exportPartition(db, dir, c);
    } catch (error) {
      // Nothing has gone yet: the checkpoint (not in force while the partition is attached) goes too.
      if (c.attached) await forgetCheckpoint(db, c.name);
      throw error;
    }
    if (c.detaching) await (holder ?? db.dataSource).query(`ALTER TABLE ${c.table} DETACH PARTITION ${c.name} FINALIZE`);
    else if (c.attached && holder) await holder.query(`ALTER TABLE ${c.table} DETACH PARTITION ${c.name} CONCURRENTLY`);
    else if (c.attached) await db.transaction((em) => em.query(`ALTER TABLE ${c.table} DETACH PARTITION ${c.name}`));
    await db.transaction(async (em) => {
      await em.query(`LOCK TABLE ${c.name} IN ACCESS EXCLUSIVE MODE`);
      const differences = await tableDifferences(em, c);
      if (differences > 0) {
        throw new Error(`${c.name}: the detached table differs from its checkpoint in ${differences} place(s); left detached, not dropped`);
      }
      await em.query(`DROP TABLE ${c.name}`);
      await em.query(`UPDATE archived_partitions SET file = $2, bytes = $3, sha256 = $4, dropped_at = now() WHERE name = $1`, [
        c.name,
        file.path,
        file.bytes,
        file.sha256,
      ]);
    });
    done.push({ table: c.table, partition: c.name, rows: file.rows, file: file.path });
  }
  return done;
}

/**
 * Step 1: the partition's row in `archived_partitions` and, for the ledger, its per-player and
 * per-account sums, with the partition locked against writes while they are taken. A row left by a
 * run stopped before the detach is replaced.
 */
async function checkpoint(db: Database, c: Candidate): Promise<void> {
  await db.transaction(async (em) => {
    await em.query(`LOCK TABLE ${c.name} IN SHARE MODE`);
    await em.query(`DELETE FROM ledger_checkpoints WHERE partition = $1`, [c.name]);
    await em.query(`DELETE FROM archived_partitions WHERE name = $1`, [c.name]);
    await em.query(
      `INSERT INTO archived_partitions (name, parent, range_from, range_to, rows, columns)
       SELECT $1::text, $2, $3, $4, (SELECT count(*) FROM ${c.name}),
              (SELECT array_agg(attname::text ORDER BY attnum) FROM pg_attribute WHERE attrelid = $1::text::regclass AND attnum > 0 AND NOT attisdropped)`,
      [c.name, c.table, c.from, c.to],
    );
    if (c.table !== "ledger_entries") return;
    await em.query(
      `INSERT INTO ledger_checkpoints (partition, player_id, amount, entries, last_id, last_balance_after)
       SELECT $1, player_id, sum(delta), count(*), max(id), (array_agg(balance_after ORDER BY id DESC))[1] FROM ${c.name} GROUP BY player_id`,
      [c.name],
    );
    await em.query(
      `INSERT INTO ledger_checkpoints (partition, account, amount, entries)
       SELECT $1, account, sum(-delta), count(*) FROM ${c.name} GROUP BY account`,
      [c.name],
    );
  });
}

async function forgetCheckpoint(db: Database, name: string): Promise<void> {
  await db.transaction(async (em) => {
    await em.query(`DELETE FROM ledger_checkpoints WHERE partition = $1`, [name]);
    await em.query(`DELETE FROM archived_partitions WHERE name = $1`, [name]);
  });
}

interface ArchiveFile {
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

/** A value as a field of PostgreSQL's COPY text format. */
const copyField = (value: string | null) =>
  value === null ? "\\N" : value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));

/** A field of the COPY text format back to its value. */
const fromCopyField = (field: string) =>
  field === "\\N" ? null : field.replace(/\\(.)/g, (_, c: string) => (c === "t" ? "\t" : c === "n" ? "\n" : c === "r" ? "\r" : c));

/** Steps 2 and 3: the partition's rows to a gzip file and its manifest, read back and checked against the checkpoint. */
async function exportPartition(db: Database, dir: string, c: Candidate): Promise<ArchiveFile> {
  const [record] = await db.run((em) =>
    sqlRows<{ rows: string | number; columns: string[] }>(
      em,
      `SELECT rows, to_json(columns) AS columns FROM archived_partitions WHERE name = $1`,
      [c.name],
    ),
  );
  if (!record) throw new Error(`${c.name}: no checkpoint`);
  const columns = record.columns;
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${c.name}.copy.gz`);
  const temporary = `${path}.tmp`;
  const select = columns.map((column, i) => `${quoteIdent(column)}::text AS c${i}`).join(", ");
  async function* lines(): AsyncGenerator<string> {
    let after = FIRST_KEY;
    for (;;) {
      const rows = await db.transaction(async (em) => {
        await em.query(EXPORT_SETTINGS_SQL);
        return sqlRows<Record<string, string | null>>(
          em,
          `SELECT ${c.key}::text AS k, ${select} FROM ${c.name} WHERE ${c.key} > $1::bigint ORDER BY ${c.key} LIMIT ${EXPORT_BATCH}`,
          [after],
        );
      });
      let chunk = "";
      for (const row of rows) chunk += columns.map((_, i) => copyField(row[`c${i}`] ?? null)).join("\t") + "\n";
      if (chunk) yield chunk;
      if (rows.length < EXPORT_BATCH) return;
      after = rows[rows.length - 1]!.k!;
    }
  }
  try {
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(temporary));
    const read = await readBack(temporary, columns, c.table === "ledger_entries");
    if (read.rows !== Number(record.rows)) throw new Error(`${c.name}: the file holds ${read.rows} rows, the partition ${record.rows}`);
    if (c.table === "ledger_entries") await compareWithCheckpoint(db, c.name, read.sums);
    const bytes = (await stat(temporary)).size;
    const manifest = {
      table: c.table,
      partition: c.name,
      from: c.from?.toISOString() ?? null,
      to: c.to.toISOString(),
      format: "PostgreSQL COPY text format, gzip",
      settings: EXPORT_SETTINGS,
      columns,
      rows: read.rows,
      bytes,
      sha256: read.sha256,
    };
    await writeFile(`${path}.json.tmp`, JSON.stringify(manifest, null, 2) + "\n");
    await rename(temporary, path);
    await rename(`${path}.json.tmp`, `${join(dir, c.name)}.json`);
    return { path, rows: read.rows, bytes, sha256: read.sha256 };
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    await rm(`${path}.json.tmp`, { force: true }).catch(() => undefined);
    throw error;
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** "player:<id>" or "account:<name>" → [sum, count] of the ledger's deltas (the player's side). */
type Sums = Map<string, [bigint, bigint]>;

/** Reads a written file back: its rows, the SHA-256 of its bytes, and for the ledger its sums per player and account. */
async function readBack(path: string, columns: string[], ledger: boolean): Promise<{ rows: number; sha256: string; sums: Sums }> {
  const hash = createHash("sha256");
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(path), hashing, gunzip);
  reading.catch(() => undefined); // awaited below; an error also ends the reading of `gunzip`
  const [player, account, delta] = ["player_id", "account", "delta"].map((name) => columns.indexOf(name));
  const sums: Sums = new Map();
  const add = (key: string, value: bigint) => {
    const was = sums.get(key) ?? [0n, 0n];
    sums.set(key, [was[0] + value, was[1] + 1n]);
  };
  let rows = 0;
  const line = (text: string) => {
    rows += 1;
    if (!ledger) return;
    const fields = text.split("\t");
    if (fields.length !== columns.length) throw new Error(`${path}: line ${rows} has ${fields.length} fields, not ${columns.length}`);
    const value = BigInt(fromCopyField(fields[delta!]!) ?? "0");
    add(`player:${fromCopyField(fields[player!]!)}`, value);
    add(`account:${fromCopyField(fields[account!]!)}`, value);
  };
  let rest = "";
  gunzip.setEncoding("utf8"); // a character split between two chunks is decoded whole
  for await (const chunk of gunzip as AsyncIterable<string>) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const part of parts) line(part);
  }
  if (rest !== "") throw new Error(`${path}: the last line has no end`);
  await reading;
  return { rows, sha256: hash.digest("hex"), sums };
}

/** The file's per-player and per-account sums and counts must be the checkpoint's, exactly. */
async function compareWithCheckpoint(db: Database, name: string, sums: Sums): Promise<void> {
  const rows = await db.run((em) =>
    sqlRows<{ key: string; amount: string | number; entries: string | number }>(
      em,
      `SELECT COALESCE('player:' || player_id::text, 'account:' || account) AS key, amount::text AS amount, entries::text AS entries
         FROM ledger_checkpoints WHERE partition = $1`,
      [name],
    ),
  );
  const expected: Sums = new Map(
    rows.map((r) => [r.key, [r.key.startsWith("account:") ? -BigInt(r.amount) : BigInt(r.amount), BigInt(r.entries)]]),
  );
  const differing = [...new Set([...expected.keys(), ...sums.keys()])].filter((key) => {
    const [a, b] = [expected.get(key), sums.get(key)];
    return !a || !b || a[0] !== b[0] || a[1] !== b[1];
  });
  if (differing.length > 0) throw new Error(`${name}: the file's sums differ from the checkpoint for ${differing.slice(0, 5).join(", ")}`);
}

/**
 * Step 5's check, in SQL on the detached table: its rows against `archived_partitions`, and for the
 * ledger each player's and account's sum, count and last id against the checkpoint. Answers the number
 * of differences.
 */
async function tableDifferences(em: EntityManager, c: Candidate): Promise<number> {
  const [{ n }] = await sqlRows<{ n: number }>(
    em,
    c.table === "ledger_entries"
      ? `SELECT ((SELECT count(*) FROM archived_partitions WHERE name = $1 AND rows <> (SELECT count(*) FROM ${c.name}))
           + (SELECT count(*) FROM (SELECT player_id, sum(delta) AS amount, count(*) AS entries, max(id) AS last_id FROM ${c.name} GROUP BY player_id) t
                FULL JOIN (SELECT player_id, amount, entries, last_id FROM ledger_checkpoints WHERE partition = $1 AND player_id IS NOT NULL) k
                USING (player_id)
               WHERE t.amount IS DISTINCT FROM k.amount OR t.entries IS DISTINCT FROM k.entries OR t.last_id IS DISTINCT FROM k.last_id)
           + (SELECT count(*) FROM (SELECT account, sum(-delta) AS amount, count(*) AS entries FROM ${c.name} GROUP BY account) t
                FULL JOIN (SELECT account, amount, entries FROM ledger_checkpoints WHERE partition = $1 AND account IS NOT NULL) k
                USING (account)
               WHERE t.amount IS DISTINCT FROM k.amount OR t.entries IS DISTINCT FROM k.entries))::int AS n`
      : `SELECT count(*)::int AS n FROM archived_partitions WHERE name = $1 AND rows <> (SELECT count(*) FROM ${c.name})`,
    [c.name],
  );
  return Number(n);
}
