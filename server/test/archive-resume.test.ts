import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { QueryRunner } from "typeorm";
import { archiveCandidates, archiveOldPartitions } from "../src/ops/archive";
import { auditLedger } from "../src/ops/audit-ledger";
import { accountBalances, mintedBySource } from "../src/core/economy";
import { playerDetails } from "../src/admin/player-lookup";
import { monthStart, partitionsOf } from "../src/platform/db/partitions";
import { openDatabase } from "../src/platform/db/database";
import { expectBalancedEconomy } from "./ledger-audit";
import { startTestApp, TEST_DB, type TestApp } from "./harness";
import { balanceOf } from "./holdem-helpers";
import { newRequestId } from "./room-helpers";

/**
 * A run of the archival (server/src/ops/archive.ts) stopped part-way, and the next run finishing it, on
 * PostgreSQL: stopped after the checkpoint and the file but before the detach (the detach cancelled while
 * it waits for its lock), half way through a `DETACH … CONCURRENTLY` (cancelled while its second step
 * waits for an older transaction on the ledger: the partition is left pending, finished with FINALIZE),
 * and after the detach but before the drop (cancelled while the drop's transaction waits for a row lock
 * on its `archived_partitions` row). Each time the books are the same before, between
 * and after, the audit passes, and the file holds exactly the partition's rows, once. Last, an archival
 * through connections whose DateStyle and time zone are not the defaults writes the same file values.
 */
const AFTER_MONTHS = 2;
const TABLES = ["ledger_entries", "game_sessions"] as const;
const dice = { target: 49.5, direction: "under" };

let t: TestApp;
let dir: string;
beforeAll(async () => {
  if (TEST_DB !== "postgres") return;
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
  dir = await mkdtemp(join(tmpdir(), "casino-archive-resume-"));
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(async () => t?.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);
const db = () => t.app.services.db;
const exists = async (name: string) => (await sql(`SELECT to_regclass($1) IS NOT NULL AS made`, [name]))[0].made as boolean;
const monthName = (start: Date) => `y${start.getUTCFullYear()}m${String(start.getUTCMonth() + 1).padStart(2, "0")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Gives `month` (its first instant) a partition of its own in both tables: the partition that holds it
 * is split into the part before it (if any), the month, and the part after it, its rows moved across.
 */
async function splitOut(month: Date): Promise<void> {
  const end = monthStart(month, 1);
  await db().transaction(async (em) => {
    for (const table of TABLES) {
      const holder = (await partitionsOf(em, table)).find((p) => (p.from === null || p.from <= month) && end <= p.to)!;
      await em.query(`ALTER TABLE ${table} DETACH PARTITION ${holder.name}`);
      await em.query(`ALTER TABLE ${holder.name} RENAME TO ${table}_moved`);
      const ranges: [string, Date | null, Date][] = [
        [`before_${monthName(month)}`, holder.from, month],
        [monthName(month), month, end],
        [`after_${monthName(month)}`, end, holder.to],
      ];
      for (const [suffix, from, to] of ranges) {
        if (from && from.getTime() === to.getTime()) continue;
        const partition = `${table}_${suffix}`;
        await em.query(
          `CREATE TABLE ${partition} PARTITION OF ${table} FOR VALUES FROM (${from ? `'${from.toISOString()}'` : "MINVALUE"}) TO ('${to.toISOString()}')`,
        );
        if (table === "ledger_entries")
          await em.query(`CREATE UNIQUE INDEX ${partition}_player_request ON ${partition} (player_id, request_id)`);
      }
      await em.query(`INSERT INTO ${table} SELECT * FROM ${table}_moved`);
      await em.query(`DROP TABLE ${table}_moved`);
    }
  });
}

/**
 * Two new players' bets, then all of the first's entries and rounds and the second's first two entries
 * and first round moved into `month` (the oldest by id, as time and ids go together). Answers the
 * players and the ids of the entries in the month's partition.
 */
async function betsIn(month: Date): Promise<{ players: string[]; ids: string[] }> {
  const { ledger } = t.app.services;
  const players = [(await t.guest()).player.id as string, (await t.guest()).player.id as string];
  for (const p of players) for (let i = 0; i < 3; i++) await ledger.placeBet(p, newRequestId(), "dice", 5 + i, dice);
  const at = new Date(month.getTime() + 10 * 86_400_000);
  const [a, b] = players;
  await sql(`UPDATE ledger_entries SET created_at = $2 WHERE player_id = $1`, [a, at]);
  await sql(`UPDATE game_sessions SET created_at = $2 WHERE player_id = $1`, [a, at]);
  await sql(
    `UPDATE ledger_entries SET created_at = $2 WHERE player_id = $1 AND id IN (SELECT id FROM ledger_entries WHERE player_id = $1 ORDER BY id LIMIT 2)`,
    [b, at],
  );
  await sql(
    `UPDATE game_sessions SET created_at = $2 WHERE player_id = $1 AND seq = (SELECT min(seq) FROM game_sessions WHERE player_id = $1)`,
    [b, at],
  );
  const ids = (await sql(`SELECT e.id::text AS id FROM ledger_entries_${monthName(month)} e ORDER BY e.id`)).map((r) => r.id as string);
  expect(ids.length).toBeGreaterThanOrEqual(5);
  return { players, ids };
}

/** What the books say, which an archival, whole or stopped, must not change. */
async function books(players: string[]) {
  const details = await Promise.all(players.map((p) => playerDetails(db(), p, { ledger: 1, rounds: 1 })));
  return {
    balances: await Promise.all(players.map((p) => balanceOf(sql, p))),
    ledgerSums: details.map((d) => d.ledgerSum),
    ledgerEntries: details.map((d) => d.ledgerEntries),
    accounts: await db().run((em) => accountBalances(em)),
    minted: await mintedBySource(db()),
  };
}

async function expectAuditPasses(): Promise<void> {
  const audit = await auditLedger(db());
  expect(audit.mismatches).toEqual([]);
  expectBalancedEconomy(audit);
}

/** The file's lines as field arrays (COPY text format), with its manifest's columns. */
async function fileOf(partition: string): Promise<{ columns: string[]; rows: string[][] }> {
  const manifest = JSON.parse(await readFile(join(dir, `${partition}.json`), "utf8")) as { columns: string[]; rows: number };
  const text = gunzipSync(await readFile(join(dir, `${partition}.copy.gz`))).toString("utf8");
  const rows =
    text === ""
      ? []
      : text
          .replace(/\n$/, "")
          .split("\n")
          .map((line) => line.split("\t"));
  expect(rows).toHaveLength(manifest.rows);
  return { columns: manifest.columns, rows };
}

/** A connection of its own, outside the app's pool use, for a lock, a snapshot or a cancel. */
async function connection(): Promise<QueryRunner> {
  const runner = db().dataSource.createQueryRunner();
  await runner.connect();
  return runner;
}

/** An archival run, started: `settled` once it has ended either way. */
function startRun(): { done: Promise<unknown>; settled: () => boolean } {
  let ended = false;
  const done = archiveOldPartitions(db(), { afterMonths: AFTER_MONTHS, dir }).finally(() => {
    ended = true;
  });
  done.catch(() => undefined); // awaited by the test
  return { done, settled: () => ended };
}

/**
 * Waits until a backend runs a statement matching `like` and waits as `waitEvent` says; answers its pid.
 * Fails if the run ends first (it did not stop where the test meant it to).
 */
async function waitingBackend(run: { settled: () => boolean }, like: string, waitEvent: string): Promise<number> {
  for (;;) {
    if (run.settled()) throw new Error(`the run ended before a statement like ${like} waited (${waitEvent})`);
    const [row] = await sql(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE $1 AND wait_event_type = 'Lock' AND wait_event = $2`,
      [like, waitEvent],
    );
    if (row) return Number(row.pid);
    await sleep(20);
  }
}

const pending = async (partition: string) =>
  (
    await sql(`SELECT i.inhdetachpending AS pending FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE c.relname = $1`, [
      partition,
    ])
  )[0]?.pending as boolean | undefined;

/** The second run finishes: the month's partitions gone, marked dropped, their files holding exactly their rows. */
async function expectFinished(month: Date, ids: string[], before: Awaited<ReturnType<typeof books>>, players: string[]) {
  const report = await archiveOldPartitions(db(), { afterMonths: AFTER_MONTHS, dir });
  expect(report.busy).toBe(false);
  expect(report.archived.map((a) => a.partition)).toContain(`ledger_entries_${monthName(month)}`);
  for (const table of TABLES) {
    const name = `${table}_${monthName(month)}`;
    expect(await exists(name)).toBe(false);
    expect((await sql(`SELECT dropped_at IS NOT NULL AS dropped FROM archived_partitions WHERE name = $1`, [name]))[0]?.dropped).toBe(true);
  }
  const ledger = `ledger_entries_${monthName(month)}`;
  const { columns, rows } = await fileOf(ledger);
  expect(rows.map((r) => r[columns.indexOf("id")])).toEqual(ids);
  // One checkpoint row per player and account of the month, not two.
  const doubled = await sql(
    `SELECT COALESCE(player_id::text, account) AS key FROM ledger_checkpoints WHERE partition = $1 GROUP BY 1 HAVING count(*) > 1`,
    [ledger],
  );
  expect(doubled).toEqual([]);
  expect(await books(players)).toEqual(before);
  await expectAuditPasses();
  expect(await archiveCandidates(db(), AFTER_MONTHS)).toEqual([]);
}

describe.skipIf(TEST_DB !== "postgres")("a stopped archival, taken up by the next run", () => {
  const now = new Date();

  it("stopped after the checkpoint and the file, before the detach: the next run starts the partition over", async () => {
    const month = monthStart(now, -14);
    await splitOut(month);
    const { players, ids } = await betsIn(month);
    const before = await books(players);
    const ledger = `ledger_entries_${monthName(month)}`;

    // A lock the detach waits for (SHARE: the checkpoint's own lock and the export's reads pass it).
    const blocker = await connection();
    const canceller = await connection();
    try {
      await blocker.startTransaction();
      await blocker.query(`LOCK TABLE ${ledger} IN SHARE MODE`);
      const run = startRun();
      const pid = await waitingBackend(run, `%DETACH PARTITION ${ledger} CONCURRENTLY%`, "relation");
      await canceller.query(`SELECT pg_cancel_backend($1)`, [pid]);
      await expect(run.done).rejects.toThrow(/cancel/);
    } finally {
      await blocker.rollbackTransaction().catch(() => undefined);
      await blocker.release();
      await canceller.release();
    }
    // Left: the partition attached with its checkpoint (not in force) and its file.
    expect(await pending(ledger)).toBe(false);
    expect(Number((await sql(`SELECT count(*) AS n FROM ledger_checkpoints WHERE partition = $1`, [ledger]))[0].n)).toBeGreaterThan(0);
    expect((await fileOf(ledger)).rows).toHaveLength(ids.length);
    expect(await books(players)).toEqual(before);
    await expectAuditPasses();

    await expectFinished(month, ids, before, players);
  });

  it("stopped half way through a concurrent detach: the next run finishes it (FINALIZE)", async () => {
    const month = monthStart(now, -13);
    await splitOut(month);
    const { players, ids } = await betsIn(month);
    const before = await books(players);
    const ledger = `ledger_entries_${monthName(month)}`;

    // The detach held up by a lock (as in the first case) while a transaction reads the ledger and stays
    // open (its lock on the table and its snapshot held); the detach let go, its first step commits and
    // its second waits for that transaction.
    const blocker = await connection();
    const reader = await connection();
    const canceller = await connection();
    try {
      await blocker.startTransaction();
      await blocker.query(`LOCK TABLE ${ledger} IN SHARE MODE`);
      const run = startRun();
      await waitingBackend(run, `%DETACH PARTITION ${ledger} CONCURRENTLY%`, "relation");
      await reader.query(`BEGIN ISOLATION LEVEL REPEATABLE READ`);
      await reader.query(`SELECT count(*) FROM ledger_entries`);
      await blocker.rollbackTransaction();
      const pid = await waitingBackend(run, `%DETACH PARTITION ${ledger} CONCURRENTLY%`, "virtualxid");
      expect(await pending(ledger)).toBe(true);
      await canceller.query(`SELECT pg_cancel_backend($1)`, [pid]);
      await expect(run.done).rejects.toThrow(/cancel/);
    } finally {
      await blocker.rollbackTransaction().catch(() => undefined);
      await reader.query(`ROLLBACK`).catch(() => undefined);
      await blocker.release();
      await reader.release();
      await canceller.release();
    }
    // (What the next run must get right is taking the pending partition as detached: a second
    // checkpoint or a second CONCURRENTLY detach of it would fail. Its FINALIZE cannot be told apart
    // from outside afterwards: PostgreSQL would also drop a partition pending detach directly.)
    // Left: the partition pending detach (out of the ledger's reads, its checkpoint in force).
    expect(await pending(ledger)).toBe(true);
    expect(await books(players)).toEqual(before);
    await expectAuditPasses();
    expect((await archiveCandidates(db(), AFTER_MONTHS)).find((c) => c.name === ledger)).toMatchObject({
      attached: false,
      detaching: true,
    });

    await expectFinished(month, ids, before, players);
  });

  it("stopped after the detach, before the drop: the next run checks and drops the detached table", async () => {
    const month = monthStart(now, -12);
    await splitOut(month);
    const { players, ids } = await betsIn(month);
    const before = await books(players);
    const ledger = `ledger_entries_${monthName(month)}`;

    // The detach held up by a lock (as in the first case) while the partition's `archived_partitions`
    // row, checkpointed by then, is locked; the detach let go, the drop's transaction waits for that row.
    const blocker = await connection();
    const rowLock = await connection();
    const canceller = await connection();
    try {
      await blocker.startTransaction();
      await blocker.query(`LOCK TABLE ${ledger} IN SHARE MODE`);
      const run = startRun();
      await waitingBackend(run, `%DETACH PARTITION ${ledger} CONCURRENTLY%`, "relation");
      await rowLock.startTransaction();
      expect(await rowLock.query(`SELECT name FROM archived_partitions WHERE name = $1 FOR UPDATE`, [ledger])).toHaveLength(1);
      await blocker.rollbackTransaction();
      const pid = await waitingBackend(run, `%UPDATE archived_partitions SET file%`, "transactionid");
      await canceller.query(`SELECT pg_cancel_backend($1)`, [pid]);
      await expect(run.done).rejects.toThrow(/cancel/);
    } finally {
      await blocker.rollbackTransaction().catch(() => undefined);
      await rowLock.rollbackTransaction().catch(() => undefined);
      await blocker.release();
      await rowLock.release();
      await canceller.release();
    }
    // Left: the table detached, not dropped, its checkpoint in force.
    expect(await exists(ledger)).toBe(true);
    expect(await pending(ledger)).toBeUndefined();
    expect((await sql(`SELECT dropped_at FROM archived_partitions WHERE name = $1`, [ledger]))[0].dropped_at).toBeNull();
    expect(await books(players)).toEqual(before);
    await expectAuditPasses();

    await expectFinished(month, ids, before, players);
  });
  it("writes times in ISO form in UTC whatever the connection's DateStyle and time zone", async () => {
    const month = monthStart(now, -11);
    await splitOut(month);
    const { players, ids } = await betsIn(month);
    const before = await books(players);
    const at = new Date(month.getTime() + 10 * 86_400_000); // every entry and round of the month (betsIn)
    // The same database through connections whose defaults a restore would misread.
    const [{ name }] = await sql(`SELECT current_database() AS name`);
    const url = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
    url.pathname = `/${name as string}`;
    url.searchParams.set("options", "-c DateStyle=SQL,DMY -c TimeZone=Asia/Kolkata");
    const odd = await openDatabase(url.toString(), "memory://");
    try {
      expect(await odd.run((em) => em.query(`SELECT current_setting('DateStyle') AS d, current_setting('TimeZone') AS z`))).toEqual([
        { d: "SQL, DMY", z: "Asia/Kolkata" },
      ]);
      const report = await archiveOldPartitions(odd, { afterMonths: AFTER_MONTHS, dir });
      expect(report.archived.map((a) => a.partition)).toEqual(
        expect.arrayContaining(TABLES.map((table) => `${table}_${monthName(month)}`)),
      );
    } finally {
      await odd.close();
    }
    for (const table of TABLES) {
      const { columns, rows } = await fileOf(`${table}_${monthName(month)}`);
      const times = rows.map((r) => r[columns.indexOf("created_at")]!);
      expect(times.length).toBeGreaterThan(0);
      for (const time of times) {
        expect(time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00$/);
        expect(new Date(time.replace(" ", "T").replace(/\+00$/, "Z")).getTime()).toBe(at.getTime());
      }
    }
    const manifest = JSON.parse(await readFile(join(dir, `ledger_entries_${monthName(month)}.json`), "utf8")) as { settings: unknown };
    expect(manifest.settings).toMatchObject({ DateStyle: "ISO, YMD", TimeZone: "UTC" });
    const entries = await fileOf(`ledger_entries_${monthName(month)}`);
    expect(entries.rows.map((r) => r[entries.columns.indexOf("id")])).toEqual(ids);
    expect(await books(players)).toEqual(before);
    await expectAuditPasses();
  });
});
