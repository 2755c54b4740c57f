import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HistoryPage } from "@casino/common";
import { archiveCandidates, archiveOldPartitions } from "../src/ops/archive";
import { auditLedger } from "../src/ops/audit-ledger";
import { accountBalances, mintedBySource } from "../src/core/economy";
import { playerDetails } from "../src/admin/player-lookup";
import { partitionsOf } from "../src/platform/db/partitions";
import { expectBalancedEconomy } from "./ledger-audit";
import { startTestApp, TEST_DB, type TestApp } from "./harness";
import { balanceOf } from "./holdem-helpers";
import { ask, joinCasino, newRequestId } from "./room-helpers";

/**
 * The archival of old monthly partitions (server/src/ops/archive.ts, docs/scaling.md section 6): bets
 * placed through the money path, some of their entries and rounds moved into a month fourteen months
 * back, that month (and the empty partition of everything before it) archived: the partitions are gone,
 * the files hold exactly their rows, the audit still proves every balance and the economy's zero sum
 * through the checkpoints, and a second run does nothing. A run that fails half-way changes nothing.
 * On PGlite too, where the detach is a plain one.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
  dir = await mkdtemp(join(tmpdir(), "casino-archive-"));
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);
const AFTER_MONTHS = 2;
const now = new Date();
/** The month archived: fourteen months before the current one. */
const oldStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 14, 1));
const oldEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 13, 1));
const oldAt = new Date(oldStart.getTime() + 10 * 86_400_000);
const oldName = `y${oldStart.getUTCFullYear()}m${String(oldStart.getUTCMonth() + 1).padStart(2, "0")}`;
const TABLES = ["ledger_entries", "game_sessions"] as const;

/**
 * The layout of a database partitioned long ago: each table's partition of everything before the
 * partitioning's cut becomes one of everything before the old month (`_older`), the old month's, and
 * one from the month after it to the cut (`_recent`, this month included), its rows moved across.
 */
async function layOut(): Promise<void> {
  await t.app.services.db.transaction(async (em) => {
    for (const table of TABLES) {
      const before = (await partitionsOf(em, table)).find((p) => p.from === null)!;
      await em.query(`ALTER TABLE ${table} DETACH PARTITION ${before.name}`);
      await em.query(`ALTER TABLE ${before.name} RENAME TO ${table}_moved`);
      const ranges: [string, Date | null, Date][] = [
        ["older", null, oldStart],
        [oldName, oldStart, oldEnd],
        ["recent", oldEnd, before.to],
      ];
      for (const [suffix, from, to] of ranges) {
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

const dice = { target: 49.5, direction: "under" };
const exists = async (name: string) => (await sql(`SELECT to_regclass($1) IS NOT NULL AS made`, [name]))[0].made as boolean;
const count = async (text: string, params: unknown[] = []) => Number((await sql(text, params))[0].n);

/** What the books say, which an archival must not change. */
async function books(players: string[]) {
  const db = t.app.services.db;
  const details = await Promise.all(players.map((p) => playerDetails(db, p, { ledger: 1, rounds: 1 })));
  return {
    balances: await Promise.all(players.map((p) => balanceOf(sql, p))),
    ledgerSums: details.map((d) => d.ledgerSum),
    ledgerEntries: details.map((d) => d.ledgerEntries),
    accounts: await db.run((em) => accountBalances(em)),
    minted: await mintedBySource(db),
  };
}

/** The file's rows as objects of its manifest's columns (COPY text format: `\N` is null, fields unescaped). */
async function rowsOf(partition: string): Promise<Record<string, string | null>[]> {
  const manifest = JSON.parse(await readFile(join(dir, `${partition}.json`), "utf8")) as { columns: string[]; rows: number };
  const text = gunzipSync(await readFile(join(dir, `${partition}.copy.gz`))).toString("utf8");
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  expect(lines).toHaveLength(manifest.rows);
  return lines.map((line) => {
    const fields = line.split("\t");
    expect(fields).toHaveLength(manifest.columns.length);
    return Object.fromEntries(
      manifest.columns.map((column, i) => [column, fields[i] === "\\N" ? null : fields[i]!.replace(/\\(.)/g, (_, c: string) => c)]),
    );
  });
}

/** The player's history page (`GET /api/player/:id/history`, the last page: every test player's fits in one). */
async function historyOf(playerId: string, token: string, query = ""): Promise<HistoryPage> {
  const res = await t.request("GET", `/api/player/${playerId}/history?limit=50${query ? `&${query}` : ""}`, { token });
  expect(res.status).toBe(200);
  return res.body as HistoryPage;
}

describe("archiving old monthly partitions", () => {
  it("moves a month's entries and rounds into files and checkpoints; the books and the audit stay as they were", async () => {
    const { ledger } = t.app.services;
    // Bets through the room and through the ledger, for three players.
    const a = await t.guest();
    const c = await joinCasino(t, a.token);
    for (let i = 0; i < 3; i++) {
      expect((await ask(c.room, c.inbox, "bet", { requestId: newRequestId(), game: "dice", amount: 10, params: dice })).type).toBe(
        "result",
      );
    }
    await c.room.leave();
    const b = (await t.guest()).player.id as string;
    const otherGuest = await t.guest();
    const other = otherGuest.player.id as string;
    for (let i = 0; i < 4; i++) await ledger.placeBet(b, newRequestId(), "dice", 5, dice);
    await ledger.placeBet(other, newRequestId(), "dice", 7, dice);
    const players = [a.player.id as string, b, other];

    await layOut();
    // All of the first player's entries and rounds, and the second's first two entries and first
    // round, as if made in the old month (the oldest by id, as time and ids go together).
    await sql(`UPDATE ledger_entries SET created_at = $2 WHERE player_id = $1`, [players[0], oldAt]);
    await sql(`UPDATE game_sessions SET created_at = $2 WHERE player_id = $1`, [players[0], oldAt]);
    await sql(
      `UPDATE ledger_entries SET created_at = $2 WHERE player_id = $1 AND id IN (SELECT id FROM ledger_entries WHERE player_id = $1 ORDER BY id LIMIT 2)`,
      [b, oldAt],
    );
    await sql(
      `UPDATE game_sessions SET created_at = $2 WHERE player_id = $1 AND seq = (SELECT min(seq) FROM game_sessions WHERE player_id = $1)`,
      [b, oldAt],
    );
    const oldLedger = `ledger_entries_${oldName}`;
    const oldRounds = `game_sessions_${oldName}`;
    const archivedIds = (await sql(`SELECT e.id::text AS id FROM ${oldLedger} e ORDER BY e.id`)).map((r) => r.id as string);
    const archivedRounds = (await sql(`SELECT id::text AS id FROM ${oldRounds}`)).map((r) => r.id as string).sort();
    expect(archivedIds.length).toBeGreaterThanOrEqual(5); // the first player's grant and three bets' entries, the second's two
    expect(archivedRounds).toHaveLength(4);
    const oldSums = await sql(
      `SELECT player_id, sum(delta)::text AS total, count(*)::int AS n FROM ${oldLedger} GROUP BY player_id ORDER BY 1`,
    );
    const keptEntries = await count(`SELECT count(*) AS n FROM ledger_entries WHERE created_at >= $1`, [oldEnd]);
    await t.expectLedgerInvariant();
    const before = await books(players);
    expect(await historyOf(a.player.id as string, a.token)).not.toHaveProperty("archivedBefore");

    // Due: the empty partition of everything before the old month and the old month's, of both tables,
    // the ledger's before the rounds'; not the partitions that end after the cutoff.
    const due = await archiveCandidates(t.app.services.db, AFTER_MONTHS);
    expect(due.map((d) => d.name)).toEqual(["ledger_entries_older", "game_sessions_older", oldLedger, oldRounds]);

    // A run whose archive directory cannot be made (a file is in the way) fails and changes nothing.
    const blocker = join(dir, "not-a-directory");
    await writeFile(blocker, "");
    await expect(archiveOldPartitions(t.app.services.db, { afterMonths: AFTER_MONTHS, dir: join(blocker, "archive") })).rejects.toThrow();
    for (const partition of [oldLedger, oldRounds]) expect(await exists(partition)).toBe(true);
    expect((await archiveCandidates(t.app.services.db, AFTER_MONTHS)).map((d) => d.name)).toEqual(due.map((d) => d.name));
    expect(await count(`SELECT count(*) AS n FROM archived_partitions`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM ledger_checkpoints`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM ${oldLedger}`)).toBe(archivedIds.length);
    expect(await books(players)).toEqual(before);
    await rm(blocker);

    // While another process holds the archival's lock, a run does nothing (PostgreSQL; PGlite is one process).
    if (TEST_DB === "postgres") {
      const holder = t.app.services.db.dataSource.createQueryRunner();
      try {
        expect((await holder.query(`SELECT pg_try_advisory_lock(7152301490) AS locked`))[0].locked).toBe(true);
        expect(await archiveOldPartitions(t.app.services.db, { afterMonths: AFTER_MONTHS, dir })).toEqual({ archived: [], busy: true });
        expect(await exists(oldLedger)).toBe(true);
        expect(await count(`SELECT count(*) AS n FROM archived_partitions`)).toBe(0);
      } finally {
        await holder.query(`SELECT pg_advisory_unlock(7152301490)`);
        await holder.release();
      }
    }

    // Two runs at once in this process: one archives, the other finds the work taken.
    const runs = await Promise.all([1, 2].map(() => archiveOldPartitions(t.app.services.db, { afterMonths: AFTER_MONTHS, dir })));
    const archived = runs.flatMap((r) => r.archived);
    expect(archived.map((r) => r.partition)).toEqual(due.map((d) => d.name));
    expect(archived.map((r) => r.rows)).toEqual([0, 0, archivedIds.length, archivedRounds.length]);

    // The partitions are gone; the kept ones hold what they held.
    for (const table of TABLES) {
      expect(await exists(`${table}_older`)).toBe(false);
      expect(await exists(`${table}_${oldName}`)).toBe(false);
      expect((await t.app.services.db.run((em) => partitionsOf(em, table))).map((p) => p.name)).toContain(`${table}_recent`);
    }
    expect(await count(`SELECT count(*) AS n FROM ledger_entries`)).toBe(keptEntries);
    expect(await count(`SELECT count(*) AS n FROM ledger_entries WHERE player_id = $1`, [players[0]])).toBe(0);

    // The files hold exactly the archived rows: the same ids, and the same sums and counts per player.
    const entries = await rowsOf(oldLedger);
    expect(entries.map((r) => r.id)).toEqual(archivedIds);
    const fileSums = new Map<string, { total: bigint; n: number }>();
    for (const r of entries) {
      const was = fileSums.get(r.player_id!) ?? { total: 0n, n: 0 };
      fileSums.set(r.player_id!, { total: was.total + BigInt(r.delta!), n: was.n + 1 });
    }
    expect(
      [...fileSums.entries()]
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([player_id, s]) => ({ player_id, total: String(s.total), n: s.n })),
    ).toEqual(oldSums.map((s) => ({ player_id: s.player_id, total: String(s.total), n: Number(s.n) })));
    expect((await rowsOf(oldRounds)).map((r) => r.id).sort()).toEqual(archivedRounds);
    expect(await rowsOf("ledger_entries_older")).toEqual([]);

    // The checkpoints carry the books: balances, sums, accounts and mint unchanged; the audit passes.
    expect(await books(players)).toEqual(before);
    const audit = await auditLedger(t.app.services.db);
    expect(audit.mismatches).toEqual([]);
    expectBalancedEconomy(audit);
    const marked = await sql(`SELECT name, dropped_at IS NOT NULL AS dropped, sha256 FROM archived_partitions ORDER BY name`);
    expect(marked.every((m) => m.dropped && /^[0-9a-f]{64}$/.test(m.sha256 as string))).toBe(true);

    // The history of a player with entries in the archived month says where it was cut, on its last
    // page, unless the asked span begins after it; a player with none there is told nothing.
    const cut = await historyOf(a.player.id as string, a.token);
    expect(cut.items).toEqual([]);
    expect(cut).toMatchObject({ nextBefore: null, archivedBefore: oldEnd.toISOString() });
    expect(await historyOf(a.player.id as string, a.token, `from=${encodeURIComponent(oldEnd.toISOString())}`)).not.toHaveProperty(
      "archivedBefore",
    );
    expect(await historyOf(a.player.id as string, a.token, "kind=holdem_hand")).not.toHaveProperty("archivedBefore");
    expect(await historyOf(other, otherGuest.token)).not.toHaveProperty("archivedBefore");

    // A second run has nothing to do and leaves the files alone.
    const files = await readdir(dir);
    const modified = await Promise.all(files.map(async (f) => (await stat(join(dir, f))).mtimeMs));
    expect(await archiveOldPartitions(t.app.services.db, { afterMonths: AFTER_MONTHS, dir })).toEqual({ archived: [], busy: false });
    expect(await readdir(dir)).toEqual(files);
    expect(await Promise.all(files.map(async (f) => (await stat(join(dir, f))).mtimeMs))).toEqual(modified);

    // The player whose whole history was archived bets on from the checkpoint's balance.
    const [first] = players;
    const balance = await balanceOf(sql, first!);
    const answer = await ledger.placeBet(first!, newRequestId(), "dice", 10, dice);
    expect(answer.balance).toBe(balance - 10 + answer.payout);
    expect(await balanceOf(sql, first!)).toBe(answer.balance);
  });

  it("is refused for fewer than two months kept", async () => {
    await expect(archiveCandidates(t.app.services.db, 1)).rejects.toThrow(/at least the current and the previous month/);
  });
});
