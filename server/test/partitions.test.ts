import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MONTHS_AHEAD, makePartitionsAhead, partitionMonthsAhead } from "../src/platform/db/partitions";
import { MIGRATIONS } from "../src/platform/db/migrations";
import { PartitionsByMonth1764100000017 } from "../src/platform/db/migrations/1764100000017-partitions-by-month";
import { startTestApp, type TestApp } from "./harness";
import { balanceOf } from "./holdem-helpers";
import { ask, joinCasino, newRequestId, waitFor } from "./room-helpers";

/**
 * The ledger and the rounds partitioned by month (migration 1764100000017, docs/scaling.md section 6):
 * a request id replayed after its answer was pruned is refused even when its entries are in an earlier
 * month's partition, whose unique index the new insert would not meet; the partitions are made ahead.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

/** The partitions of `table` in order, with their bounds. */
const partitionsOf = async (table: string): Promise<{ name: string; bound: string }[]> =>
  sql(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
    [table],
  );

/** `y2027m01` for the month `months` after the current one (UTC). */
const monthName = (months: number) => {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  return `y${at.getUTCFullYear()}m${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
};

/**
 * The ledger laid out as it is months after the migration: the previous month and this one each a
 * partition of its own (a fresh database has one partition for everything before next month). The rows
 * of the partition of before the cut are moved into the new layout.
 */
async function monthlyLedger(): Promise<void> {
  const [before] = (await partitionsOf("ledger_entries")).filter((p) => p.bound.includes("MINVALUE"));
  await t.app.services.db.transaction(async (em) => {
    await em.query(`ALTER TABLE ledger_entries DETACH PARTITION ${before!.name}`);
    await em.query(`ALTER TABLE ${before!.name} RENAME TO ledger_entries_detached`);
    const bounds: [string, string, string][] = [
      ["older", "MINVALUE", `(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')`],
      [
        monthName(-1),
        `(date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')`,
        `date_trunc('month', now() AT TIME ZONE 'UTC')`,
      ],
      [
        monthName(0),
        `date_trunc('month', now() AT TIME ZONE 'UTC')`,
        `(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month')`,
      ],
    ];
    for (const [name, from, to] of bounds) {
      // Partition bounds are constants: computed first.
      const [{ f, u }] = await em.query(
        `SELECT ${from === "MINVALUE" ? "NULL" : `to_char(${from}, 'YYYY-MM-DD')`} AS f, to_char(${to}, 'YYYY-MM-DD') AS u`,
      );
      const partition = `ledger_entries_${name}`;
      // A database migrated in an earlier month has this month's partition (or last month's) already.
      const [{ made }] = await em.query(`SELECT to_regclass($1) IS NOT NULL AS made`, [partition]);
      if (made) continue;
      await em.query(
        `CREATE TABLE ${partition} PARTITION OF ledger_entries FOR VALUES FROM (${f ? `'${f} 00:00+00'` : "MINVALUE"}) TO ('${u} 00:00+00')`,
      );
      await em.query(`CREATE UNIQUE INDEX ${partition}_player_request ON ${partition} (player_id, request_id)`);
    }
    await em.query(`INSERT INTO ledger_entries SELECT * FROM ledger_entries_detached`);
    await em.query(`DROP TABLE ledger_entries_detached`);
  });
}

describe("a request id across the ledger's monthly partitions", () => {
  it("a replayed id whose first entries are in the previous month's partition is refused, not run twice", async () => {
    await monthlyLedger();
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const oldId = newRequestId();
    const bet = { requestId: oldId, game: "dice", amount: 20, params: { target: 49.5, direction: "under" } };
    expect((await ask(c.room, c.inbox, "bet", bet)).type).toBe("result");
    // Its entries as if made last month (an hour before this month began: within the lookup's 35
    // days), and its stored answer pruned, as the retention does after 7 days.
    await sql(
      `UPDATE ledger_entries SET created_at = date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 hour'
        WHERE player_id = $1 AND request_id LIKE $2 || '#%'`,
      [player.id, oldId],
    );
    await sql(`DELETE FROM processed_requests WHERE player_id = $1 AND request_id = $2`, [player.id, oldId]);
    const where = await sql(
      `SELECT DISTINCT tableoid::regclass::text AS partition FROM ledger_entries WHERE player_id = $1 AND request_id LIKE $2 || '#%'`,
      [player.id, oldId],
    );
    expect(where).toEqual([{ partition: `ledger_entries_${monthName(-1)}` }]);
    const entries = async () => Number((await sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1`, [player.id]))[0].n);
    const [balance, count] = [await balanceOf(sql, player.id), await entries()];

    c.room.send("bet", bet);
    await waitFor(() => c.inbox.messages.filter((m) => m.body?.requestId === oldId).length === 2);
    const again = c.inbox.messages.filter((m) => m.body?.requestId === oldId)[1]!;
    expect(again.type).toBe("error");
    expect(again.body.code).toBe("request_id_reused");
    expect([await balanceOf(sql, player.id), await entries()]).toEqual([balance, count]);

    // A new id still bets, into this month's partition.
    expect((await ask(c.room, c.inbox, "bet", { ...bet, requestId: newRequestId() })).type).toBe("result");
    expect(await entries()).toBeGreaterThan(count);
    await c.room.leave();
  });
});

describe("partitions made ahead", () => {
  it("the sweep makes this month's and the next two months' partitions that are missing, once however many sweep at once", async () => {
    const last = `${monthName(MONTHS_AHEAD)}`;
    for (const table of ["ledger_entries", "game_sessions"]) {
      expect((await partitionsOf(table)).map((p) => p.name)).toContain(`${table}_${last}`);
      await sql(`DROP TABLE ${table}_${last}`);
    }
    expect(await partitionMonthsAhead(t.app.services.db)).toBe(MONTHS_AHEAD - 1);

    const sweeps = await Promise.all([1, 2, 3].map(() => t.app.services.retention.sweep()));
    expect(sweeps.map((s) => s.partitionMonthsAhead)).toEqual([MONTHS_AHEAD, MONTHS_AHEAD, MONTHS_AHEAD]);
    for (const table of ["ledger_entries", "game_sessions"]) {
      const made = (await partitionsOf(table)).find((p) => p.name === `${table}_${last}`);
      expect(made?.bound).toMatch(/^FOR VALUES FROM \('[^']+'\) TO \('[^']+'\)$/);
      // Vacuumed after 1 % of new rows, so index-only reads stay index-only (PARTITION_STORAGE).
      const [{ reloptions }] = await sql(`SELECT reloptions FROM pg_class WHERE relname = $1`, [`${table}_${last}`]);
      expect(reloptions).toEqual(["autovacuum_vacuum_insert_scale_factor=0.01"]);
    }
    // The ledger's partition carries its unique (player, request id).
    const [index] = await sql(`SELECT indexdef FROM pg_indexes WHERE indexname = $1`, [`ledger_entries_${last}_player_request`]);
    expect(index.indexdef).toMatch(/CREATE UNIQUE INDEX .* \(player_id, request_id\)/);

    // A month later, the sweep makes the month after.
    const nextMonth = new Date();
    nextMonth.setUTCDate(1);
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    expect(await makePartitionsAhead(t.app.services.db, nextMonth)).toBe(MONTHS_AHEAD);
    expect((await partitionsOf("game_sessions")).map((p) => p.name)).toContain(`game_sessions_${monthName(MONTHS_AHEAD + 1)}`);
    expect(await partitionMonthsAhead(t.app.services.db)).toBe(MONTHS_AHEAD + 1);
  });
});

describe("the partitioning migration", () => {
  it("undone and applied again on a ledger with entries keeps every row; ids and round numbers go on from where they were", async () => {
    const { db, ledger } = t.app.services;
    const { player } = await t.guest();
    for (let i = 0; i < 3; i++) await ledger.placeBet(player.id, newRequestId(), "dice", 1, { target: 49.5, direction: "under" });
    const state = async () => {
      const [row] = await sql(
        `SELECT (SELECT count(*)::int FROM ledger_entries) AS entries, (SELECT max(id)::text FROM ledger_entries) AS last_id,
                (SELECT count(*)::int FROM game_sessions) AS rounds, (SELECT max(seq)::text FROM game_sessions) AS last_seq,
                (SELECT count(*)::int FROM game_plays) AS plays,
                (SELECT relkind::text FROM pg_class WHERE oid = 'ledger_entries'::regclass) AS ledger_kind,
                (SELECT relkind::text FROM pg_class WHERE oid = 'game_sessions'::regclass) AS rounds_kind`,
      );
      return row;
    };
    const before = await state();
    expect([before.ledger_kind, before.rounds_kind]).toEqual(["p", "p"]);

    // Undone down to before the partitioning: the migrations after it first, then it.
    const undo = MIGRATIONS.length - MIGRATIONS.indexOf(PartitionsByMonth1764100000017);
    for (let i = 0; i < undo; i++) await db.dataSource.undoLastMigration({ transaction: "each" });
    expect(await state()).toEqual({ ...before, ledger_kind: "r", rounds_kind: "r" });
    await db.dataSource.runMigrations({ transaction: "each" });
    expect(await state()).toEqual(before);

    await ledger.placeBet(player.id, newRequestId(), "dice", 1, { target: 49.5, direction: "under" });
    const after = await state();
    expect(BigInt(after.last_id)).toBeGreaterThan(BigInt(before.last_id));
    expect(BigInt(after.last_seq)).toBeGreaterThan(BigInt(before.last_seq));
    await t.expectLedgerInvariant();
  });
});
