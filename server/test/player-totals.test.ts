import "reflect-metadata";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryFilter } from "@casino/common";
import { openDatabase, type Database } from "../src/platform/db/database";
import { BIGGEST_WIN, playerSummary, SUMMARY_TOTALS } from "../src/core/players/history";
import { PLAYER_SUMS, playerDetails } from "../src/admin/player-lookup";
import { freshDatabaseUrl } from "./harness";

/**
 * The history's totals and the admin lookup's sums over a player's whole history: what the rounds' and
 * entries' own rows add up to under every filter, read from the player indexes alone (index-only scans,
 * which the included columns allow), so a year of history costs the player's index pages, not a heap
 * page per round.
 */
let db: Database;
let drop: () => Promise<void>;
const player = randomUUID();
const other = randomUUID();
const GAMES = ["dice", "limbo", "keno"];
const ROUNDS = 300;
const DAY_MS = 86_400_000;
const start = Date.now() - 365 * DAY_MS;

interface Round {
  id: string;
  game_type: string;
  bet_amount: number;
  payout: number;
  result: string;
  at: number;
}

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  db = await openDatabase(fresh.url, "memory://");
  await db.run(async (em) => {
    for (const [id, n] of [
      [player, 1],
      [other, 2],
    ] as const)
      await em.query(`INSERT INTO players (id, discord_id, username, balance) VALUES ($1, $2, $3, 1000000)`, [
        id,
        `9000000000000000${n}`,
        `totals ${n}`,
      ]);
    // A year of rounds for the player, every game in turn (so the games tie on count unfiltered and the latest
    // played breaks it), wins, losses and pushes; the other player's rounds are never counted.
    for (const [id, salt] of [
      [player, 0],
      [other, 7],
    ] as const)
      await em.query(
        `INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout, created_at)
         SELECT $1, ($2::text[])[1 + k % 3], 1 + (k * 7 + $5::int) % 50,
                CASE WHEN k % 5 = 0 THEN 'push' WHEN k % 2 = 0 THEN 'win' ELSE 'lose' END,
                CASE WHEN k % 5 = 0 THEN 1 + (k * 7 + $5::int) % 50 WHEN k % 2 = 0 THEN (1 + (k * 7 + $5::int) % 50) * (2 + k % 4) ELSE 0 END,
                to_timestamp(($3::bigint + k * $4::bigint) / 1000.0)
           FROM generate_series(1, ${ROUNDS}) k`,
        [id, GAMES, start, Math.floor((365 * DAY_MS) / ROUNDS), salt],
      );
    for (const id of [player, other])
      await em.query(
        `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account)
         SELECT $1::uuid, CASE WHEN k % 3 = 0 THEN 5 + k % 40 ELSE -(1 + k % 30) END, 1000, CASE WHEN k % 3 = 0 THEN 'payout' ELSE 'bet' END,
                'dice', $1::text || '-' || k, 'house:dice'
           FROM generate_series(1, 500) k`,
        [id],
      );
  });
  // What autovacuum does after inserts: the visibility map that lets a scan answer from the index alone.
  await db.run((em) => em.query(`VACUUM (ANALYZE) game_sessions`));
  await db.run((em) => em.query(`VACUUM (ANALYZE) ledger_entries`));
});

afterAll(async () => {
  await db?.close();
  await drop?.();
});

const rounds = (): Promise<Round[]> =>
  db.run(async (em) =>
    (
      await em.query(
        `SELECT id::text AS id, game_type, bet_amount::int AS bet_amount, payout::int AS payout, result,
                (extract(epoch FROM created_at) * 1000000)::bigint::text AS at
           FROM game_sessions WHERE player_id = $1`,
        [player],
      )
    ).map((r: Round & { at: string }) => ({ ...r, at: Number(r.at) })),
  );

/** The summary worked out from the rounds themselves, as the history's filters keep them. */
function expected(all: Round[], filter: HistoryFilter) {
  const from = filter.from ? Date.parse(filter.from) * 1000 : -Infinity;
  const to = filter.to ? Date.parse(filter.to) * 1000 : Infinity;
  const kept = all.filter(
    (r) => (!filter.game || r.game_type === filter.game) && (!filter.result || r.result === filter.result) && r.at >= from && r.at < to,
  );
  const games = new Map<string, { rounds: number; last: number }>();
  for (const r of kept) {
    const g = games.get(r.game_type) ?? { rounds: 0, last: -Infinity };
    games.set(r.game_type, { rounds: g.rounds + 1, last: Math.max(g.last, r.at) });
  }
  const favourite = [...games].sort(([a, x], [b, y]) => y.rounds - x.rounds || y.last - x.last || (a < b ? -1 : 1))[0];
  const best = kept
    .filter((r) => r.payout > r.bet_amount)
    .sort((x, y) => y.payout - y.bet_amount - (x.payout - x.bet_amount) || y.at - x.at || (y.id > x.id ? 1 : -1))[0];
  return {
    rounds: kept.length,
    wagered: kept.reduce((s, r) => s + r.bet_amount, 0),
    net: kept.reduce((s, r) => s + r.payout - r.bet_amount, 0),
    favouriteGame: favourite ? { gameType: favourite[0], rounds: favourite[1].rounds } : null,
    biggestWin: best?.id ?? null,
  };
}

/** The plan of a statement, with sequential and bitmap scans off so the choice is between the index scans alone. */
async function plan(text: string, params: unknown[]): Promise<string> {
  return db.transaction(async (em) => {
    await em.query(`SET LOCAL enable_seqscan = off`);
    await em.query(`SET LOCAL enable_bitmapscan = off`);
    const rows: Record<string, string>[] = await em.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${text}`, params);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

/**
 * The index and, on a table partitioned by month (migration 1764100000017), each partition's part of it:
 * a plan names the part it scans.
 */
async function indexAndParts(index: string): Promise<string[]> {
  const parts: { name: string }[] = await db.run((em) =>
    em.query(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, [index]),
  );
  return [index, ...parts.map((p) => p.name)];
}

/** Every scan of `index` (or of a partition's part of it) in the plan is index-only and went to the heap for no row. */
async function readsIndexOnly(text: string, index: string) {
  const names = await indexAndParts(index);
  const scans = text.split("\n").filter((line) => names.some((name) => line.includes(` using ${name} `)));
  expect(scans.length, text).toBeGreaterThan(0);
  for (const scan of scans) expect(scan, text).toMatch(/Index Only Scan/);
  expect(text).not.toMatch(/Heap Fetches: [1-9]/);
}

describe("a player's totals", () => {
  it("are what the player's rounds add up to, under each of the history's filters", async () => {
    const all = await rounds();
    expect(all).toHaveLength(ROUNDS);
    const middle = new Date(start + 120 * DAY_MS).toISOString();
    const later = new Date(start + 250 * DAY_MS).toISOString();
    const filters: HistoryFilter[] = [
      {},
      { game: "dice" },
      { game: "limbo" },
      { result: "win" },
      { result: "lose" },
      { result: "push" },
      { from: middle },
      { to: middle },
      { from: middle, to: later },
      { game: "keno", result: "win", from: middle, to: later },
      { game: "daily-spin" },
      { from: later, to: middle },
    ];
    for (const filter of filters) {
      const summary = await playerSummary(db, player, filter);
      const want = expected(all, filter);
      const label = JSON.stringify(filter);
      expect({ ...summary, biggestWin: summary.biggestWin?.id ?? null }, label).toEqual(want);
      if (summary.biggestWin) {
        const row = all.find((r) => r.id === summary.biggestWin!.id)!;
        expect(summary.biggestWin, label).toMatchObject({ gameType: row.game_type, betAmount: row.bet_amount, payout: row.payout });
      }
    }
    // The unfiltered games tie on count: the latest played is the favourite.
    expect((await playerSummary(db, player)).favouriteGame).toEqual({ gameType: GAMES[ROUNDS % 3], rounds: ROUNDS / 3 });
  });

  it("are read from the rounds' player index alone", async () => {
    const filters: unknown[][] = [
      [player, null, null, null, null],
      [player, "dice", "win", new Date(start + 100 * DAY_MS).toISOString(), new Date(start + 200 * DAY_MS).toISOString()],
    ];
    for (const params of filters) {
      await readsIndexOnly(await plan(SUMMARY_TOTALS, params), "idx_game_sessions_player");
      // The largest win is found in the index; only its one row is read from the table (by its primary key).
      const best = await plan(BIGGEST_WIN, params);
      await readsIndexOnly(best, "idx_game_sessions_player");
      expect(best).toMatch(/Index Scan using game_sessions_\w*pkey/);
    }
  });
});

describe("the admin lookup's sums", () => {
  it("are the player's ledger entries' sum and count and their rounds' count", async () => {
    const details = await playerDetails(db, player, { ledger: 5, rounds: 5 });
    const [want] = await db.run((em) =>
      em.query(
        `SELECT (SELECT sum(delta)::int FROM ledger_entries WHERE player_id = $1) AS sum,
                (SELECT count(*)::int FROM ledger_entries WHERE player_id = $1) AS entries`,
        [player],
      ),
    );
    expect(want.entries).toBe(500);
    expect(details).toMatchObject({ ledgerSum: want.sum, ledgerEntries: 500, rounds: ROUNDS });
  });

  it("are read from the player indexes alone", async () => {
    const text = await plan(PLAYER_SUMS, [player]);
    await readsIndexOnly(text, "idx_ledger_player");
    await readsIndexOnly(text, "idx_game_sessions_player");
  });
});
