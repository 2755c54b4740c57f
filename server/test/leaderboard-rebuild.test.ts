import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/platform/db/database";
import { Leaderboards } from "../src/leaderboard/leaderboards";
import { NET_REASONS, valueOf, windowKey, windowStart } from "../src/leaderboard/keys";
import { RANKED_PLAYER } from "../src/platform/db/guest-rule";
import { TEST_DB, startTestApp, type TestApp } from "./harness";

/**
 * A rebuild after Redis was lost reads the week's ledger in ranges of ids, so it succeeds under a
 * statement timeout that the same read as one statement outlives. The figures are small so the file
 * takes seconds: a statement timeout of STATEMENT_MS against PLAYERS × WEEK_BETS entries this week,
 * read WEEK_SCAN_IDS ids at a time.
 */
const PLAYERS = 2000;
const WEEK_BETS = 50;
const OLD_BETS = 20;
const GUESTS = 50;
const STATEMENT_MS = 1000;
const WEEK_SCAN_IDS = 4000;

describe.skipIf(TEST_DB === "pglite")("the leaderboard rebuild under a short statement timeout (PostgreSQL)", () => {
  let t: TestApp;
  let slow: Database;

  beforeAll(async () => {
    t = await startTestApp();
    // Only the board built below writes to Redis.
    await t.app.services.leaderboards.stop();
    // Fixtures on a connection of their own, without the service's statement timeout.
    const fixtures = new pg.Client({ connectionString: t.app.services.config.databaseUrl });
    await fixtures.connect();
    try {
      // Fixture rows only: no foreign-key triggers while they are written (they are consistent by construction).
      await fixtures.query(`SET session_replication_role = replica`);
      await fixtures.query(
        `INSERT INTO players (discord_id, username, balance)
         SELECT CASE WHEN g <= $2 THEN 'guest-rebuild-' || g ELSE 'rebuild-' || g END, 'p' || g, 1000000 FROM generate_series(1, $1::int) g`,
        [PLAYERS + GUESTS, GUESTS],
      );
      // Entries older than the week first (lower ids), then the week's, as a running service writes them.
      for (const [bets, age] of [
        [OLD_BETS, "30 days"],
        [WEEK_BETS, "0 days"],
      ] as const) {
        await fixtures.query(
          `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, created_at, account)
           SELECT p.id, CASE WHEN b % 3 = 0 THEN 7 ELSE -5 END, 1000000, CASE WHEN b % 3 = 0 THEN 'payout' ELSE 'bet' END,
                  'fixture', 'fixture-' || $2 || '-' || b, now() - $2::interval, 'house:fixture'
             FROM generate_series(1, $1::int) b, players p ORDER BY b, p.id`,
          [bets, age],
        );
      }
      await fixtures.query(`ANALYZE ledger_entries`);
    } finally {
      await fixtures.end();
    }
    slow = await openDatabase(t.app.services.config.databaseUrl, "memory://", {
      connectMs: 10_000,
      statementMs: STATEMENT_MS,
      queryMs: 30_000,
      healthMs: 10_000,
    });
  }, 120_000);

  afterAll(async () => {
    await slow?.dataSource.destroy();
    await t?.close();
  });

  it("builds the week board in ranges of ids under a short statement timeout, exactly as SQL sums it", async () => {
    const now = Date.now();
    // (Whether the week read as one statement outlives this timeout depends on the machine's speed, so
    // it is not asserted here: on a loaded 2-core machine it was cancelled, on a quiet one it was not.)

    const { services } = t.app;
    const boards = new Leaderboards(
      slow,
      services.boardsRedis,
      services.presence,
      services.guilds,
      services.instances,
      new Map(),
      "a test's secret of at least 32 characters",
      services.log,
      WEEK_SCAN_IDS,
    );
    const report = await boards.rebuild();
    expect(report).toMatchObject({ built: true, players: PLAYERS });

    const expected = await services.db.run((em) =>
      em.query(
        `SELECT e.player_id, sum(e.delta)::bigint AS week FROM ledger_entries e JOIN players p ON p.id = e.player_id
          WHERE e.created_at >= $1 AND e.reason = ANY($2::text[]) AND ${RANKED_PLAYER} GROUP BY e.player_id ORDER BY e.player_id`,
        [new Date(windowStart("week", now)), [...NET_REASONS]],
      ),
    );
    expect(expected).toHaveLength(PLAYERS);
    const stored = await services.boardsRedis.zrange(windowKey("week", now).key, 0, -1, "WITHSCORES");
    const board = new Map<string, number>();
    for (let i = 0; i < stored.length; i += 2) board.set(stored[i]!, valueOf("balance", stored[i + 1]!));
    expect(Object.fromEntries(board)).toEqual(Object.fromEntries(expected.map((r: any) => [r.player_id, Number(r.week)])));
  });
});
