import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { gapParams } from "../src/core/events/id-tail";
import { LEDGER_GAPS, LEDGER_TAIL } from "../src/leaderboard/consumers";
import { BALANCES_GAPS, BALANCES_TAIL, ROUNDS_GAPS, ROUNDS_TAIL } from "../src/progress/progress";
import { CONSUMER_LAG } from "../src/core/metrics";
import { BUILD_SEEN, BUILD_TOP, RANGE_NEWEST } from "../src/leaderboard/builds";
import { freshDatabaseUrl } from "./harness";

/**
 * The reads of the ledger and the rounds that follow an id (the consumers' tails and their re-reads of
 * the ids they wait for, the lag metric, the boards' build) on tables of 14 monthly partitions plus the
 * months made ahead (docs/scaling.md section 6): each plan reads the last two months' partitions (and
 * the empty ones ahead), never an older month's, and answers what the same read without its time bound
 * answers, for rows in an old partition before the position and rows after it (one of them started
 * before the month began). Each read is the product's own statement text, planned both ways the product
 * may run it (a custom plan, and the generic plan a prepared statement keeps).
 */
let drop: () => Promise<void>;
let url: string;
let sql: pg.Client;
beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  url = fresh.url!;
  sql = new pg.Client({ connectionString: url });
  await sql.connect();
  await monthly("ledger_entries", true);
  await monthly("game_sessions", false);
});
afterAll(async () => {
  await sql?.end();
  await drop?.();
});

const q = async (text: string, params: unknown[] = []) => (await sql.query(text, params)).rows;

/**
 * `table` as it is a year and more after the migration: one partition per month for the last 13 months
 * and this one, one for everything older, and the months made ahead. The rows of the template's
 * partition of before the cut are moved in.
 */
async function monthly(table: string, requestIndex: boolean): Promise<void> {
  const [before] = await q(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass AND pg_get_expr(c.relpartbound, c.oid) LIKE '%MINVALUE%'`,
    [table],
  );
  await q(`ALTER TABLE ${table} DETACH PARTITION ${before!.relname}`);
  const month = (n: number) => `(date_trunc('month', now() AT TIME ZONE 'UTC') + interval '${n} month') AT TIME ZONE 'UTC'`;
  const edges: string[] = (
    await q(`SELECT ${Array.from({ length: 15 }, (_, i) => `to_char(${month(i - 13)}, 'YYYY-MM-DD') AS m${i}`).join(", ")}`)
  ).map((r) => Object.values(r) as string[])[0]!;
  const parts: [string, string, string][] = [["older", "MINVALUE", `'${edges[0]} 00:00+00'`]];
  for (let i = 0; i < 14; i++)
    parts.push([`y${edges[i]!.slice(0, 4)}m${edges[i]!.slice(5, 7)}`, `'${edges[i]} 00:00+00'`, `'${edges[i + 1]} 00:00+00'`]);
  for (const [name, from, to] of parts) {
    const partition = `${table}_${name}`;
    if ((await q(`SELECT to_regclass($1) IS NOT NULL AS made`, [partition]))[0].made) continue;
    await q(`CREATE TABLE ${partition} PARTITION OF ${table} FOR VALUES FROM (${from}) TO (${to})`);
    if (requestIndex) await q(`CREATE UNIQUE INDEX ${partition}_player_request ON ${partition} (player_id, request_id)`);
  }
  await q(`INSERT INTO ${table} SELECT * FROM ${before!.relname}`);
  await q(`DROP TABLE ${before!.relname}`);
}

/** The months, counted back from this one (0), of the partitions of `table` a plan read (ran at least once). */
async function monthsRead(table: string, text: string): Promise<number[]> {
  const [{ "QUERY PLAN": plan }] = await q(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`);
  const read = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    const name = node["Relation Name"];
    if (typeof name === "string" && name.startsWith(`${table}_`) && Number(node["Actual Loops"]) > 0) read.add(name);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(plan[0].Plan);
  const now = new Date();
  return [...read].map((name) => {
    const m = /_y(\d{4})m(\d\d)$/.exec(name);
    if (!m) return -Infinity; // the partition of everything older
    return Number(m[1]) * 12 + Number(m[2]) - 1 - (now.getUTCFullYear() * 12 + now.getUTCMonth());
  });
}

/** Both plans a read may run with: planned for its parameters, and the generic plan a prepared statement keeps. */
const PLANS = ["force_custom_plan", "force_generic_plan"];

/** Asserts that `text` reads no partition of `table` older than last month, whichever plan runs it. */
async function expectRecentOnly(table: string, text: string, params: unknown[]): Promise<void> {
  for (const mode of PLANS) {
    await q(`SET plan_cache_mode = ${mode}`);
    // Prepared, as sqlPrepared runs it; EXPLAIN EXECUTE shows the plan the prepared statement runs.
    await q(`DEALLOCATE ALL`);
    await q(`PREPARE read AS ${text}`);
    const literal = (v: unknown) =>
      sql.escapeLiteral(Array.isArray(v) ? `{${v.join(",")}}` : v instanceof Date ? v.toISOString() : String(v));
    const months = await monthsRead(table, `EXECUTE read${params.length > 0 ? `(${params.map(literal).join(", ")})` : ""}`);
    expect({ mode, old: months.filter((m) => m < -1) }).toEqual({ mode, old: [] });
    expect(months.length).toBeGreaterThan(0);
  }
  await q(`RESET plan_cache_mode`);
  await q(`DEALLOCATE ALL`);
}

const HOUR = `interval '1 hour'`;
const player = "00000000-0000-4000-8000-00000000b0ed";

/** Writes a ledger entry and a round of `player` at `at` (SQL), in this order; answers the entry's id and the round's seq. */
async function write(at: string, tag: string): Promise<{ id: number; seq: number }> {
  const [e] = await q(
    `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account, created_at)
     VALUES ($1, -1, 0, 'bet', 'dice', $2, 'house:dice', ${at}) RETURNING id`,
    [player, `${tag}#stake`],
  );
  const [r] = await q(
    `INSERT INTO game_sessions (player_id, game_type, amount, bet_amount, result, payout, request_id, params, actions, outcome, created_at)
     VALUES ($1, 'dice', 1, 1, 'lose', 0, $2, '{}', '[]', '{}', ${at}) RETURNING seq`,
    [player, tag],
  );
  return { id: Number(e.id), seq: Number(r.seq) };
}

describe("the request-id guard's kept plan (ledger_refuse_reused)", () => {
  it("probes the partitions' unique indexes, never reads a partition whole, after the month's partition grew from nearly empty", async () => {
    const guardPlayer = "00000000-0000-4000-8000-00000000600d";
    await q(
      `INSERT INTO players (id, discord_id, username, balance, created_at, last_seen_at) VALUES ($1, 'guard-plan', 'guard', 0, now(), now())`,
      [guardPlayer],
    );
    const month = (await q(`SELECT to_char(now() AT TIME ZONE 'UTC', '"y"YYYY"m"MM') AS m`))[0].m as string;
    const current = `ledger_entries_${month}`;
    // No autovacuum during the test: an ANALYZE of the partition would make the kept plan again.
    await q(`ALTER TABLE ${current} SET (autovacuum_enabled = off)`);
    const entry = (request: string) =>
      q(
        `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account)
         VALUES ($1, -1, 0, 'bet', 'dice', $2, 'house:dice')`,
        [guardPlayer, request],
      );
    for (let i = 0; i < 3; i++) await entry(`few-${i}#stake`);
    await q(`ANALYZE ${current}`);

    // Another connection, as the service's own: the guard's plan is made at its first call there, and
    // every statement it runs is logged with its plan (auto_explain, nested statements, to the client).
    const service = new pg.Client({ connectionString: url });
    await service.connect();
    try {
      const plans: string[] = [];
      service.on("notice", (notice) => {
        if (notice.message?.includes('"Plan"')) plans.push(notice.message);
      });
      await service.query(`LOAD 'auto_explain'`);
      for (const setting of [
        "auto_explain.log_min_duration = 0",
        "auto_explain.log_nested_statements = on",
        "auto_explain.log_format = json",
        "auto_explain.log_level = notice",
      ])
        await service.query(`SET ${setting}`);
      const guard = (request: string) =>
        service.query(`SELECT ledger_refuse_reused($1::uuid[], $2::text[])`, [
          [guardPlayer, guardPlayer],
          [`${request}#stake`, `${request}#payout`],
        ]);
      await guard("first");

      // The month's partition grows, unanalyzed, as it does between two autovacuum passes.
      await q(
        `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account)
         SELECT $1, -1, 0, 'bet', 'dice', 'grown-' || g || '#stake', 'house:dice' FROM generate_series(1, 50000) g`,
        [guardPlayer],
      );
      plans.length = 0;
      await guard("second");
      await expect(guard("grown-7")).rejects.toMatchObject({ code: "23505", constraint: "ledger_entries_recent_player_request" });

      // The lookup's plan at the second call (the function's own statement, nested in the SELECT).
      const lookups = plans.map((p) => JSON.parse(p.slice(p.indexOf("{"))) as { "Query Text": string; Plan: Record<string, unknown> });
      const lookup = lookups.find((p) => p["Query Text"].includes("FROM ledger_entries e"));
      expect(lookup).toBeDefined();
      const scans: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (typeof node["Relation Name"] === "string")
          scans.push(`${node["Node Type"]} ${node["Relation Name"]} ${node["Index Name"] ?? ""}`.trim());
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(lookup!.Plan);
      expect(scans.filter((scan) => scan.startsWith("Seq Scan") || scan.startsWith("Bitmap"))).toEqual([]);
      expect(scans.filter((scan) => scan.endsWith(`${current} ${current}_player_request`))).toHaveLength(1);
    } finally {
      await service.end();
      await q(`ALTER TABLE ${current} RESET (autovacuum_enabled)`);
      await q(`DELETE FROM ledger_entries WHERE player_id = $1`, [guardPlayer]);
    }
  });
});

describe("reads that follow an id, on 14 monthly partitions", () => {
  let old: { id: number; seq: number }[];
  let position: { id: number; seq: number };
  let after: { id: number; seq: number }[];

  beforeAll(async () => {
    await q(
      `INSERT INTO players (id, discord_id, username, balance, created_at, last_seen_at) VALUES ($1, 'bounded-reads', 'bounded', 0, now() - interval '2 years', now())`,
      [player],
    );
    // Rows of six and three months ago, the position an hour ago, then rows after it: one whose
    // transaction started 20 hours ago (took its id late: last month's partition on the 1st), one now.
    old = [await write(`now() - interval '6 months'`, "old-1"), await write(`now() - interval '3 months'`, "old-2")];
    position = await write(`now() - ${HOUR}`, "position");
    after = [await write(`now() - interval '20 hours'`, "after-1"), await write(`now()`, "after-2")];
    await q(`ANALYZE ledger_entries`);
    await q(`ANALYZE game_sessions`);
    const [{ n }] = await q(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'ledger_entries'::regclass`);
    expect(n).toBeGreaterThanOrEqual(16);
  });

  const tails = [
    { name: "the leaderboard consumer's ledger tail (LEDGER_TAIL)", table: "ledger_entries", text: () => LEDGER_TAIL, key: "id" as const },
    { name: "the progress consumer's ledger tail (BALANCES_TAIL)", table: "ledger_entries", text: () => BALANCES_TAIL, key: "id" as const },
    { name: "the progress consumer's rounds tail (ROUNDS_TAIL)", table: "game_sessions", text: () => ROUNDS_TAIL, key: "seq" as const },
  ];

  for (const tail of tails) {
    it(`${tail.name}: the first read after a start reads the last partitions only, and every row after the position`, async () => {
      const params = [position[tail.key], 1000, "-infinity"];
      await expectRecentOnly(tail.table, tail.text(), params);
      const ids = (await q(tail.text(), params)).map((r) => Number(r.id));
      const unbounded = (
        await q(`SELECT ${tail.key} AS id FROM ${tail.table} WHERE ${tail.key} > $1 ORDER BY ${tail.key}`, [position[tail.key]])
      ).map((r) => Number(r.id));
      expect(ids).toEqual(unbounded);
      expect(ids).toEqual(after.map((a) => a[tail.key]));
      // From a position in an old partition (a process down for months), the rows after it are all read.
      const fromOld = (await q(tail.text(), [old[0]![tail.key], 1000, "-infinity"])).map((r) => Number(r.id));
      expect(fromOld).toEqual([old[1]![tail.key], position[tail.key], ...after.map((a) => a[tail.key])]);
    });
  }

  const gaps = [
    {
      name: "the leaderboard consumer's re-read of its gaps (LEDGER_GAPS)",
      table: "ledger_entries",
      text: () => LEDGER_GAPS,
      key: "id" as const,
    },
    {
      name: "the progress consumer's re-read of its ledger gaps (BALANCES_GAPS)",
      table: "ledger_entries",
      text: () => BALANCES_GAPS,
      key: "id" as const,
    },
    {
      name: "the progress consumer's re-read of its rounds gaps (ROUNDS_GAPS)",
      table: "game_sessions",
      text: () => ROUNDS_GAPS,
      key: "seq" as const,
    },
  ];

  for (const gap of gaps) {
    it(`${gap.name}: reads the last partitions only, and finds the ids waited for, however old their rows`, async () => {
      const waited = [after[0]![gap.key], after[1]![gap.key], after[1]![gap.key] + 50];
      await expectRecentOnly(gap.table, gap.text(), gapParams(waited));
      const found = (await q(gap.text(), gapParams(waited))).map((r) => Number(r.id)).sort((a, b) => a - b);
      expect(found).toEqual([after[0]![gap.key], after[1]![gap.key]]);
      // An id whose row is in an old partition is found too (its lower neighbour is older still).
      const oldFound = (await q(gap.text(), gapParams([old[1]![gap.key]]))).map((r) => Number(r.id));
      expect(oldFound).toEqual([old[1]![gap.key]]);
    });
  }

  it("the lag metric's query (CONSUMER_LAG) reads the last partitions only, and counts the entries after the position", async () => {
    await expectRecentOnly("ledger_entries", CONSUMER_LAG, [position.id]);
    // One transaction: both read the same now().
    await q(`BEGIN`);
    const [lag] = await q(CONSUMER_LAG, [position.id]);
    const [plain] = await q(
      `SELECT (SELECT max(id) FROM ledger_entries) - $1::bigint AS entries,
              (SELECT EXTRACT(EPOCH FROM now() - created_at) FROM ledger_entries WHERE id > $1::bigint ORDER BY id LIMIT 1) AS seconds`,
      [position.id],
    );
    await q(`COMMIT`);
    expect(lag).toEqual(plain);
    expect(Number(lag.entries)).toBe(after[1]!.id - position.id);
    expect(Number(lag.seconds)).toBeGreaterThan(19 * 3600);
    // Caught up: no entry after the position.
    const [none] = await q(CONSUMER_LAG, [after[1]!.id]);
    expect(Number(none.entries ?? 0)).toBeLessThanOrEqual(0);
    expect(none.seconds).toBeNull();
  });

  it("the boards' build: its top (BUILD_TOP) and the ids above its hole scan's start (BUILD_SEEN) read the last partitions only", async () => {
    await expectRecentOnly("ledger_entries", BUILD_TOP, []);
    const [{ top }] = await q(BUILD_TOP);
    const [{ max }] = await q(`SELECT max(id) AS max FROM ledger_entries`);
    expect(Number(top)).toBe(Number(max));

    await expectRecentOnly("ledger_entries", BUILD_SEEN, [position.id]);
    const seen = (await q(BUILD_SEEN, [position.id])).map((r) => Number(r.id));
    expect(seen).toEqual(after.map((a) => a.id));
    expect((await q(BUILD_SEEN, [old[0]!.id])).map((r) => Number(r.id))).toEqual([old[1]!.id, position.id, ...after.map((a) => a.id)]);

    // The week's scan: the newest entry of a range of ids, where the ranges near the week read only it.
    const since = new Date(Date.now() - 14 * 86_400_000);
    await expectRecentOnly("ledger_entries", RANGE_NEWEST, [position.id - 1, after[1]!.id, since]);
    const newest = async (low: number, high: number) => (await q(RANGE_NEWEST, [low, high, since]))[0].newest as Date | null;
    const plain = async (low: number, high: number) =>
      (await q(`SELECT max(created_at) AS newest FROM ledger_entries WHERE id > $1 AND id <= $2`, [low, high]))[0].newest as Date | null;
    for (const [low, high] of [
      [position.id - 1, after[1]!.id],
      [old[0]!.id - 1, old[1]!.id],
      [after[1]!.id, after[1]!.id + 10],
    ] as [number, number][]) {
      expect(await newest(low, high)).toEqual(await plain(low, high));
    }
  });

  it("the build's top, on a ledger idle for a day, is still the greatest id (every partition asked)", async () => {
    await q(`BEGIN`);
    try {
      await q(`DELETE FROM ledger_entries WHERE created_at >= now() - interval '1 day'`);
      const [{ top }] = await q(BUILD_TOP);
      const [{ max }] = await q(`SELECT max(id) AS max FROM ledger_entries`);
      expect(Number(top)).toBe(Number(max));
      expect(Number(top)).toBeGreaterThanOrEqual(old[1]!.id);
    } finally {
      await q(`ROLLBACK`);
    }
  });
});
