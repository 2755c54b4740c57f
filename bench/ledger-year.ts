import "reflect-metadata";
import { randomUUID } from "node:crypto";
import { statfsSync } from "node:fs";
import { loadavg, totalmem } from "node:os";
import pg from "pg";
import { GAME_IDS } from "@casino/common";
import { openDatabase, type Database } from "../server/src/platform/db/database";
import { sqlPrepared } from "../server/src/platform/db/sql";
import { historyPage, playerSummary } from "../server/src/core/players/history";
import { playerDetails } from "../server/src/admin/player-lookup";
import { LEDGER_COLUMNS, LEDGER_GAPS, LEDGER_TAIL, READ_BATCH } from "../server/src/leaderboard/consumers";
import { BUILD_SEEN, BUILD_TOP, RANGE_NEWEST, WEEK_SCAN_IDS, netWinnings } from "../server/src/leaderboard/builds";
import { DAY_MS, windowStart } from "../server/src/leaderboard/keys";
import { CONSUMER_LAG } from "../server/src/core/metrics";
import { gapParams } from "../server/src/core/events/id-tail";
import { PartitionsByMonth1764100000017 } from "../server/src/platform/db/migrations/1764100000017-partitions-by-month";
import { freshDatabase } from "./lib/database";
import { bareBetTransactions } from "./lib/pgbench";
import { machine } from "./lib/proc";
import { percentiles } from "./lib/instance-members";
import { checkDisk, ledgerYearSizes, parseLedgerYearArgs, type Layout } from "./lib/ledger-year-plan";

/**
 * `npm run bench:ledger-year -- --rows N [--players P] [--layout plain|partitioned|both]`: what a
 * year-sized ledger does to bets and history reads.
 *
 * In a database of its own (dropped at the end, also on failure or Ctrl-C) the product's migrations run
 * (the partitioning one, 1764100000017, undone again: the plain layout is the ledger of before it), then
 * `generate_series` writes N ledger entries and N/1.5 rounds (`game_sessions`) over the last 365
 * days for P players (by default a year's depth each: ENTRIES_PER_PLAYER_YEAR), with the tables'
 * indexes built after the load as a restore would. With the partitioned layout the same entries are
 * copied into a ledger partitioned by month on `created_at` (per-partition unique (player, request id):
 * a unique index of a partitioned table must contain the partition key). The layouts take turns at the
 * name `ledger_entries` (a rename), so the product's own code reads each:
 * - bets: pgbench's bet-shaped transaction (bench/lib/pgbench.ts) on an empty ledger and on each
 *   year's ledger, in alternating rounds;
 * - reads, each timed over random players with one EXPLAIN (ANALYZE, BUFFERS) printed: a history page
 *   (`historyPage`), the history's totals (`playerSummary`), the admin lookup (`playerDetails`), the
 *   leaderboard consumer's tail (`LEDGER_TAIL` at the newest entries) and the day and week boards'
 *   rebuild (`netWinnings`);
 * - bounded reads (partitioned layout): the reads that follow an id (the consumer's first read after a
 *   start, its re-read of ids it waits for, the lag metric, the build's top, hole scan and the week
 *   scan's stop check), each as it was and as it is bounded by time now: partitions read, buffers, ms;
 * - the partitioning migration's `up` (1764100000017) timed on the plain year, last (it converts it).
 */
const options = parseLedgerYearArgs(process.argv.slice(2));
const { rows: ROWS, players: PLAYERS, layouts: LAYOUTS, samples: SAMPLES } = options;
const DAY_S = 86_400;
const YEAR_S = 365 * DAY_S;
const CHUNK = 1_000_000;
const HISTORY_LIMIT = 25;
const REBUILD_SAMPLES = 5;
/** The game of the generated bets (the first of the catalogue): no read picks entries by game. */
const BET_GAME = GAME_IDS[0];

/** Where each ledger table lives while it is not the product's `ledger_entries`. */
const HOME: Record<"empty" | Layout, string> = { empty: "ledger_empty", plain: "ledger_plain", partitioned: "ledger_part" };
type Phase = keyof typeof HOME;

const f = (n: number, d = 2) => n.toFixed(d);
const int = (n: number) => Math.round(n).toLocaleString("en");
const mib = (bytes: number) => `${int(bytes / 2 ** 20)} MiB`;
const playerId = (n: string) => `md5('ledger-year-' || ${n})::uuid`;

async function main() {
  const db = await freshDatabase("casino_ledger_year");
  const dropOnSignal = () => void db.drop().finally(() => process.exit(130));
  process.once("SIGINT", dropOnSignal);
  process.once("SIGTERM", dropOnSignal);
  const sql = new pg.Client({ connectionString: db.url });
  let database: Database | undefined;
  try {
    await sql.connect();
    const dataDir = (await sql.query(`SHOW data_directory`)).rows[0].data_directory as string;
    const disk = statfsSync(dataDir);
    const free = disk.bavail * disk.bsize;
    const sizes = ledgerYearSizes(ROWS, PLAYERS, LAYOUTS.length);
    console.log(
      `machine: ${machine()}, ${int(totalmem() / 2 ** 30)} GiB, PostgreSQL ${db.version}; load average ${loadavg()
        .map((l) => f(l, 1))
        .join(", ")}`,
    );
    console.log(
      `ledger: ${int(ROWS)} entries (${int(sizes.entriesPerDay)} a day over 365 days), ${int(sizes.rounds)} rounds, ${int(PLAYERS)} players (${int(sizes.entriesPerPlayer)} entries each); layouts: ${LAYOUTS.join(", ")}; about ${f(sizes.bytes / 2 ** 30, 1)} GiB of the ${f(free / 2 ** 30, 1)} GiB free`,
    );
    checkDisk(ROWS, LAYOUTS.length, free);

    database = await openDatabase(db.url, "memory://");
    // The plain layout is the ledger of before the product's partitioning (migration 1764100000017, undone
    // here); the partitioned layout is this bench's copy of it by month, as the migration makes it.
    const [last] = await database.dataSource.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
    if (last.name !== "PartitionsByMonth1764100000017") throw new Error(`the last migration is ${last.name}: check the plain layout`);
    await database.dataSource.undoLastMigration({ transaction: "each" });
    // Marked applied again, so the readers' pools opened below do not partition the plain layout.
    await sql.query(`INSERT INTO migrations (timestamp, name) VALUES ($1, $2)`, [1764100000017, last.name]);
    // What an operator gives a restore's index builds; the bet and read phases run with the defaults.
    await sql.query(`SET maintenance_work_mem = '1GB'`);
    await sql.query(`SET synchronous_commit = off`);
    const setup = await loadYear(sql, db.url);

    let current: Phase = "plain";
    const use = async (phase: Phase) => {
      if (phase === current) return;
      await sql.query(`ALTER TABLE ledger_entries RENAME TO ${HOME[current]}`);
      await sql.query(`ALTER TABLE ${HOME[phase]} RENAME TO ledger_entries`);
      current = phase;
    };

    // Bets: the bet-shaped transaction on each ledger, the phases alternating.
    const bettors = (await sql.query(`SELECT id FROM players ORDER BY random() LIMIT $1`, [options.clients])).rows.map(
      (r) => r.id as string,
    );
    const bets = new Map<Phase, string[]>();
    for (let round = 0; round < options.rounds; round++) {
      for (const phase of ["empty", ...LAYOUTS] as Phase[]) {
        await use(phase);
        const r = await bareBetTransactions(db.url, bettors, options.clients, options.seconds);
        const line = `${f(r.perSecond, 0)} tx/s, p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms`;
        bets.set(phase, [...(bets.get(phase) ?? []), line]);
        console.log(`bets on the ${phase === "empty" ? "empty ledger" : `${phase} year`} (${r.tool}, ${options.seconds} s): ${line}`);
      }
    }

    const summary: string[] = [...setup];
    for (const [phase, lines] of bets)
      summary.push(`bet-shaped transaction, ${phase === "empty" ? "empty ledger" : `${phase} year`}: ${lines.join("; ")}`);
    await database.close();
    database = undefined;
    for (const layout of LAYOUTS) {
      await use(layout);
      // A pool of its own for each layout, so no statement prepared on the other table is kept.
      const reader = await openDatabase(db.url, "memory://");
      try {
        summary.push(...(await reads(reader, sql, layout)));
        if (layout === "partitioned") summary.push(...(await boundedReads(sql)));
      } finally {
        await reader.close();
      }
    }
    await use("plain");
    if (LAYOUTS.includes("plain")) summary.push(await timeMigration(db.url));
    console.log(
      `\nload average after: ${loadavg()
        .map((l) => f(l, 1))
        .join(", ")}\n--- summary ---\n${summary.join("\n")}`,
    );
  } finally {
    await database?.close().catch(() => undefined);
    await sql.end().catch(() => undefined);
    await db.drop();
  }
}

/**
 * Players, the year's rounds and ledger entries (and the partitioned copy), each table's indexes built
 * after its load; prints and answers the figures.
 */
async function loadYear(sql: pg.Client, url: string): Promise<string[]> {
  const out: string[] = [];
  const timed = async (what: string, rows: number, work: () => Promise<unknown>) => {
    const t0 = performance.now();
    await work();
    const s = (performance.now() - t0) / 1000;
    const line = `${what}: ${f(s, 1)} s${rows ? ` (${int(rows / s)} rows/s)` : ""}`;
    console.log(line);
    out.push(line);
  };
  const start = Math.floor(Date.now() / 1000) - YEAR_S;
  // One loading connection per core, each taking the next range of CHUNK rows (its rows stay together on disk).
  const loaders = await Promise.all(
    [1, 2].map(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`SET synchronous_commit = off`);
      return c;
    }),
  );
  const chunked = async (total: number, work: (client: pg.Client, low: number, high: number) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(
      loaders.map(async (client) => {
        for (let low = next; low < total; low = next) {
          next = low + CHUNK;
          await work(client, low, Math.min(total, low + CHUNK));
        }
      }),
    );
  };

  await timed(`players (${int(PLAYERS)})`, PLAYERS, () =>
    sql.query(
      `INSERT INTO players (id, discord_id, username, balance, created_at, last_seen_at)
       SELECT ${playerId("n")}, (100000000000000000 + n)::text, 'player' || n, 1000000, to_timestamp($2) - interval '1 day', now()
         FROM generate_series(0, $1 - 1) n`,
      [PLAYERS, start],
    ),
  );
  // The empty ledger the bets are compared with: the migrated table as it is, indexes and all.
  await sql.query(`CREATE TABLE ${HOME.empty} (LIKE ledger_entries INCLUDING ALL)`);

  const ledgerIndexes = await dropIndexes(sql, "ledger_entries");
  await timed(`ledger entries, plain table (${int(ROWS)}, no indexes yet)`, ROWS, async () => {
    await chunked(ROWS, async (client, low, high) => {
      // 1 in 100 a daily spin, the rest stakes and payouts two to one (1.5 entries a bet).
      await client.query(
        `INSERT INTO ledger_entries (id, player_id, delta, balance_after, reason, reference, request_id, created_at, nonce, account)
         OVERRIDING SYSTEM VALUE
         SELECT g, ${playerId("abs(hashint8(g)) % $3")},
                CASE WHEN g % 100 = 0 THEN 10 + g % 90 WHEN g % 3 = 0 THEN 2 + g % 200 ELSE -(1 + g % 100) END,
                abs(hashint8(g * 7)) % 100000,
                CASE WHEN g % 100 = 0 THEN 'daily_spin' WHEN g % 3 = 0 THEN 'payout' ELSE 'bet' END,
                CASE WHEN g % 100 = 0 THEN 'wheel' ELSE '${BET_GAME}' END,
                md5(g::text) || CASE WHEN g % 100 = 0 THEN '#spin' WHEN g % 3 = 0 THEN '#payout' ELSE '#stake' END,
                to_timestamp($4 + (g - 1) * $5::float8 / $6),
                CASE WHEN g % 100 = 0 THEN (g % 1000)::int END,
                CASE WHEN g % 100 = 0 THEN 'mint:daily-spin' ELSE 'house:${BET_GAME}' END
           FROM generate_series($1::bigint, $2::bigint) g`,
        [low + 1, high, PLAYERS, start, YEAR_S, ROWS],
      );
      console.log(`  entries ${int(low + 1)}-${int(high)}`);
    });
  });
  await sql.query(`ALTER TABLE ledger_entries ALTER COLUMN id RESTART WITH ${ROWS + 1}`);
  await timed("ledger indexes, plain table", ROWS, () => ledgerIndexes());

  const rounds = ledgerYearSizes(ROWS, PLAYERS, 1).rounds;
  const roundIndexes = await dropIndexes(sql, "game_sessions");
  await timed(`rounds (${int(rounds)}, no indexes yet)`, rounds, async () => {
    // Every game of the catalogue in turn: the rounds' game only spreads the index, no read picks one.
    const games = [...GAME_IDS];
    await chunked(rounds, async (client, low, high) => {
      await client.query(
        `INSERT INTO game_sessions (id, player_id, game_type, amount, bet_amount, result, payout, request_id, nonce, params, actions, outcome, created_at, seq)
         SELECT md5('round-' || k)::uuid, ${playerId("abs(hashint8(k * 3)) % $3")}, ($7::text[])[1 + k % cardinality($7::text[])], 1 + k % 100, 1 + k % 100,
                CASE WHEN k % 2 = 0 THEN 'win' ELSE 'lose' END, CASE WHEN k % 2 = 0 THEN 2 * (1 + k % 100) ELSE 0 END,
                md5('r' || k), (k % 1000)::int, ('{"target":' || (50 + k % 40) || '}')::jsonb, '[]'::jsonb,
                ('{"roll":' || (k % 100) || '}')::jsonb, to_timestamp($4 + (k - 1) * $5::float8 / $6), k
           FROM generate_series($1::bigint, $2::bigint) k`,
        [low + 1, high, PLAYERS, start, YEAR_S, rounds, games],
      );
    });
  });
  await sql.query(`ALTER TABLE game_sessions ALTER COLUMN seq RESTART WITH ${rounds + 1}`);
  await timed("round indexes", rounds, () => roundIndexes());

  if (LAYOUTS.includes("partitioned")) {
    const months = await partitionedLedger(sql, start);
    await timed(`ledger entries, partitioned copy (${months.length} monthly partitions, no indexes yet)`, ROWS, async () => {
      await chunked(ROWS, (client, low, high) =>
        client.query(`INSERT INTO ${HOME.partitioned} SELECT * FROM ledger_entries WHERE id > $1 AND id <= $2`, [low, high]),
      );
    });
    await sql.query(`SELECT setval('ledger_part_id_seq', $1)`, [ROWS]);
    await timed("ledger indexes, partitioned copy", ROWS, () => partitionedIndexes(sql, months));
  }
  await Promise.all(loaders.map((c) => c.end()));
  // What autovacuum does after a restore's inserts: the statistics, and the visibility map that lets an
  // index-only scan skip the heap.
  await timed("VACUUM (ANALYZE)", 0, () => sql.query(`VACUUM (ANALYZE)`));
  await sql.query(`CHECKPOINT`);

  const size = async (table: string) =>
    (
      await sql.query(
        `SELECT sum(pg_table_size(relid))::bigint AS heap, sum(pg_indexes_size(relid))::bigint AS indexes
           FROM (${LEAVES}) t`,
        [table],
      )
    ).rows[0] as { heap: string; indexes: string };
  const indexSizes = async (table: string) =>
    (
      await sql.query(
        `SELECT regexp_replace(i.indexrelid::regclass::text, '_y[0-9]+m[0-9]+', '') AS name, sum(pg_relation_size(i.indexrelid))::bigint AS bytes
           FROM (${LEAVES}) t JOIN pg_index i ON i.indrelid = t.relid GROUP BY 1 ORDER BY 2 DESC`,
        [table],
      )
    ).rows.map((r) => `${r.name} ${mib(Number(r.bytes))}`);
  for (const [what, table] of [
    ["plain ledger", "ledger_entries"],
    ["partitioned ledger", HOME.partitioned],
    ["rounds", "game_sessions"],
  ] as const) {
    if (table === HOME.partitioned && !LAYOUTS.includes("partitioned")) continue;
    const s = await size(table);
    const n = table === "game_sessions" ? rounds : ROWS;
    const line = `size, ${what}: heap ${mib(Number(s.heap))}, indexes ${mib(Number(s.indexes))} (${int((Number(s.heap) + Number(s.indexes)) / n)} bytes a row): ${(await indexSizes(table)).join(", ")}`;
    console.log(line);
    out.push(line);
  }
  return out;
}

/** The tables that hold a table's rows (`$1`): its partitions, or the table itself when it has none. */
const LEAVES = `SELECT relid FROM pg_partition_tree($1::regclass) WHERE isleaf
  UNION ALL SELECT $1::regclass WHERE NOT EXISTS (SELECT 1 FROM pg_partition_tree($1::regclass))`;

/**
 * Drops a table's indexes and its primary-key and unique constraints (a load without them is several
 * times faster); answers the function that builds them again as they were.
 */
async function dropIndexes(sql: pg.Client, table: string): Promise<() => Promise<void>> {
  const constraints = (
    await sql.query(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('p', 'u')`,
      [table],
    )
  ).rows as { conname: string; def: string }[];
  const indexes = (
    await sql.query(
      `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index
        WHERE indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = indexrelid)`,
      [table],
    )
  ).rows as { name: string; def: string }[];
  for (const c of constraints) await sql.query(`ALTER TABLE ${table} DROP CONSTRAINT ${c.conname}`);
  for (const i of indexes) await sql.query(`DROP INDEX ${i.name}`);
  return async () => {
    for (const c of constraints) await sql.query(`ALTER TABLE ${table} ADD CONSTRAINT ${c.conname} ${c.def}`);
    for (const i of indexes) await sql.query(i.def);
  };
}

/**
 * The partitioned copy of the ledger: the same columns and checks, partitioned by month (UTC) on
 * `created_at`, from the month of the first entry to the month after the current one (created ahead).
 * PostgreSQL 15 has no identity column on a partitioned table: the id comes from a sequence of its own.
 * Answers the partitions' names.
 */
async function partitionedLedger(sql: pg.Client, start: number): Promise<string[]> {
  const table = HOME.partitioned;
  await sql.query(`CREATE SEQUENCE ledger_part_id_seq AS bigint`);
  await sql.query(`CREATE TABLE ${table} (LIKE ledger_entries INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at)`);
  await sql.query(`ALTER TABLE ${table} ALTER COLUMN id SET DEFAULT nextval('ledger_part_id_seq')`);
  await sql.query(`ALTER SEQUENCE ledger_part_id_seq OWNED BY ${table}.id`);
  await sql.query(`ALTER TABLE ${table} ADD FOREIGN KEY (seed_id) REFERENCES fairness_seeds(id)`);
  const first = new Date(start * 1000);
  const now = new Date();
  const names: string[] = [];
  for (let m = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1)); ;) {
    const next = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
    const name = `${table}_y${m.getUTCFullYear()}m${String(m.getUTCMonth() + 1).padStart(2, "0")}`;
    await sql.query(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM ('${m.toISOString()}') TO ('${next.toISOString()}')`);
    names.push(name);
    if (m.getTime() > Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) break;
    m = next;
  }
  return names;
}

/**
 * The partitioned ledger's indexes: those of the plain table, with the partition key added to the
 * primary key (PostgreSQL requires it); the unique (player, request id) on each partition alone, so it
 * holds within a month and not across months (docs/scaling.md says what the money path does about that).
 */
async function partitionedIndexes(sql: pg.Client, partitions: string[]): Promise<void> {
  const table = HOME.partitioned;
  await sql.query(`ALTER TABLE ${table} ADD PRIMARY KEY (id, created_at)`);
  for (const p of partitions) await sql.query(`ALTER TABLE ${p} ADD CONSTRAINT ${p}_player_request UNIQUE (player_id, request_id)`);
  await sql.query(`CREATE INDEX ledger_part_player ON ${table} (player_id, id) INCLUDE (delta)`);
  await sql.query(`CREATE INDEX ledger_part_created_brin ON ${table} USING brin (created_at)`);
  await sql.query(`CREATE INDEX ledger_part_daily_spins ON ${table} (player_id, created_at DESC, id DESC) WHERE reason = 'daily_spin'`);
}

interface Captured {
  text: string;
  values: unknown[];
}

/**
 * The statements a piece of the product's code sends while `work` runs (pg's Client.query, which
 * TypeORM and the product's prepared statements both go through).
 */
async function capture(work: () => Promise<unknown>): Promise<Captured[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const seen: Captured[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === "string") seen.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === "object" && "text" in first) {
      const q = first as { text: string; values?: unknown[] };
      seen.push({ text: q.text, values: q.values ?? [] });
    }
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return seen.filter((q) => /^\s*(WITH|SELECT)/i.test(q.text));
}

/** Times each read over random players (and the tail and the rebuild as they run), printing one EXPLAIN of each. */
async function reads(database: Database, sql: pg.Client, layout: Layout): Promise<string[]> {
  const top = Number((await sql.query(`SELECT max(id) AS top FROM ledger_entries`)).rows[0].top);
  // The tail's bound on created_at (TailSince): the time of the entry it has read last, less a day.
  const tailSince = (
    await sql.query(`SELECT (created_at - interval '1 day')::text AS since FROM ledger_entries WHERE id = $1`, [top - READ_BATCH])
  ).rows[0].since as string;
  const randomPlayer = async () =>
    (await sql.query(`SELECT ${playerId("$1::int")} AS id`, [Math.floor(Math.random() * PLAYERS)])).rows[0].id as string;
  const kinds: [string, () => Promise<() => Promise<unknown>>, number][] = [
    [
      `history page (${HISTORY_LIMIT} rows)`,
      async () => {
        const id = await randomPlayer();
        return () => historyPage(database, id, { limit: HISTORY_LIMIT });
      },
      SAMPLES,
    ],
    [
      "history totals (playerSummary)",
      async () => {
        const id = await randomPlayer();
        return () => playerSummary(database, id);
      },
      SAMPLES,
    ],
    [
      "admin lookup (playerDetails, 20 + 20)",
      async () => {
        const id = await randomPlayer();
        return () => playerDetails(database, id, { ledger: 20, rounds: 20 });
      },
      SAMPLES,
    ],
    [
      // The money path's lookup of a new bet's entries (`<request id>#bet`, `#payout`) over the last 35 days,
      // which keeps a request id unique across the monthly partitions (docs/scaling.md): the query of
      // `ledger_refuse_reused` (migration 1764100000017), which the statement writing a batch's rows calls;
      // here alone, as its own statement, so the plain layout (where that function is undone) runs it too.
      "request id lookup (player, new request id, 35 days)",
      async () => {
        const id = await randomPlayer();
        return () => {
          const request = randomUUID();
          return database.run((em) =>
            sqlPrepared(
              em,
              `SELECT 1 FROM unnest($1::uuid[], $2::text[]) AS v(player_id, request_id)
                WHERE EXISTS (SELECT 1 FROM ledger_entries e WHERE e.player_id = v.player_id AND e.request_id = v.request_id
                                AND e.created_at >= now() - interval '35 days' AND e.created_at <= now()) LIMIT 1`,
              [
                [id, id],
                [`${request}#bet`, `${request}#payout`],
              ],
            ),
          );
        };
      },
      SAMPLES,
    ],
    [
      `leaderboard consumer's tail (${READ_BATCH} after the newest ${READ_BATCH})`,
      async () => {
        return () => database.run((em) => sqlPrepared(em, LEDGER_TAIL, [top - READ_BATCH, READ_BATCH, tailSince]));
      },
      SAMPLES,
    ],
    [
      "day and week boards' rebuild (netWinnings)",
      async () => {
        return () => database.run((em) => netWinnings(em, top, Date.now()));
      },
      REBUILD_SAMPLES,
    ],
  ];
  const out: string[] = [];
  for (const [name, prepare, samples] of kinds) {
    const statements = await capture(await prepare());
    console.log(`\n=== ${layout}: ${name}: EXPLAIN (ANALYZE, BUFFERS) of its ${statements.length} statement(s)`);
    for (const q of statements.slice(0, 4)) {
      const plan = await sql.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values);
      console.log(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"));
    }
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const run = await prepare();
      const t0 = performance.now();
      await run();
      times.push(performance.now() - t0);
    }
    const p = percentiles(times)!;
    const line = `reads, ${layout} year, ${name}: p50 ${f(p.p50)} ms, p99 ${f(p.p99)} ms, max ${f(p.max)} ms over ${samples}`;
    console.log(line);
    out.push(line);
  }
  return out;
}

/**
 * The reads that follow an id, on the partitioned year, as they were (no time bound: one probe of every
 * partition) and as the product runs them now (bounded by time, docs/scaling.md section 6): the
 * partitions each plan read, its shared buffers and its execution time, the third of three runs.
 */
async function boundedReads(sql: pg.Client): Promise<string[]> {
  const top = Number((await sql.query(`SELECT max(id) AS top FROM ledger_entries`)).rows[0].top);
  const position = top - READ_BATCH;
  const waited = Array.from({ length: 20 }, (_, i) => position + 25 * i);
  const low = Math.max(0, top - WEEK_SCAN_IDS);
  const stopBefore = windowStart("week", Date.now()) - DAY_MS;
  const reads: [string, string, string, unknown[], unknown[]][] = [
    [
      `leaderboard consumer's first read after a start (${READ_BATCH} after the newest ${READ_BATCH})`,
      `SELECT ${LEDGER_COLUMNS} WHERE e.id > $1 AND e.created_at >= $3::timestamptz ORDER BY e.id LIMIT $2`,
      LEDGER_TAIL,
      [position, READ_BATCH, "-infinity"],
      [position, READ_BATCH, "-infinity"],
    ],
    [
      `leaderboard consumer's re-read of ${waited.length} ids it waits for`,
      `SELECT ${LEDGER_COLUMNS} WHERE e.id = ANY($1::bigint[])`,
      LEDGER_GAPS,
      [waited],
      gapParams(waited),
    ],
    [
      "lag metric (entries and seconds after the position)",
      `SELECT (SELECT max(id) FROM ledger_entries) - $1::bigint AS entries,
              (SELECT EXTRACT(EPOCH FROM now() - created_at) FROM ledger_entries WHERE id > $1::bigint ORDER BY id LIMIT 1) AS seconds`,
      CONSUMER_LAG,
      [position],
      [position],
    ],
    ["build's top (greatest id)", `SELECT COALESCE(max(id), 0) AS top FROM ledger_entries`, BUILD_TOP, [], []],
    [
      `build's hole scan (ids above top less ${WEEK_SCAN_IDS})`,
      `SELECT id FROM ledger_entries WHERE id > $1 ORDER BY id`,
      BUILD_SEEN,
      [low],
      [low],
    ],
    [
      "week scan's stop check (newest entry of the first range)",
      `SELECT max(created_at) AS newest FROM ledger_entries WHERE id > $1 AND id <= $2`,
      RANGE_NEWEST,
      [low, top],
      [low, top, new Date(stopBefore - 7 * DAY_MS)],
    ],
  ];
  const measure = async (text: string, params: unknown[]) => {
    let plan: Record<string, unknown> = {};
    for (let i = 0; i < 3; i++)
      plan = (await sql.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, params)).rows[0]["QUERY PLAN"][0];
    const partitions = new Set<string>();
    const walk = (node: Record<string, unknown>) => {
      const name = node["Relation Name"];
      if (typeof name === "string" && name.startsWith(`${HOME.partitioned}_`) && Number(node["Actual Loops"]) > 0) partitions.add(name);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    const root = plan.Plan as Record<string, unknown>;
    walk(root);
    const buffers = Number(root["Shared Hit Blocks"] ?? 0) + Number(root["Shared Read Blocks"] ?? 0);
    return `${partitions.size} partitions, ${int(buffers)} buffers, ${f(Number(plan["Execution Time"]))} ms`;
  };
  const [{ n }] = (await sql.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'ledger_entries'::regclass`)).rows;
  const out: string[] = [];
  for (const [name, before, after, beforeParams, afterParams] of reads) {
    const line = `bounded reads, partitioned year (${n} partitions), ${name}: before ${await measure(before, beforeParams)}; now ${await measure(after, afterParams)}`;
    console.log(line);
    out.push(line);
  }
  return out;
}

/**
 * Times the partitioning migration's `up` on the plain year (ledger and rounds), in one transaction as
 * the migrations run, on a connection with the server's default settings. Last: it converts the tables.
 */
async function timeMigration(url: string): Promise<string> {
  const database = await openDatabase(url, "memory://");
  const runner = database.dataSource.createQueryRunner();
  try {
    const [{ entries }] = await runner.query(`SELECT count(*)::bigint AS entries FROM ledger_entries`);
    const [{ rounds }] = await runner.query(`SELECT count(*)::bigint AS rounds FROM game_sessions`);
    const t0 = performance.now();
    await runner.startTransaction();
    await new PartitionsByMonth1764100000017().up(runner);
    await runner.commitTransaction();
    const line = `migration 1764100000017 up on the plain year (${int(Number(entries))} entries, ${int(Number(rounds))} rounds): ${f((performance.now() - t0) / 1000, 1)} s`;
    console.log(line);
    return line;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    return `migration 1764100000017 up on the plain year: failed (${(error as Error).message})`;
  } finally {
    await runner.release();
    await database.close();
  }
}

await main();
process.exit(0);
