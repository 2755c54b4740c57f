import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, sqlState } from "../src/platform/db/database";
import { MIGRATIONS } from "../src/platform/db/migrations/index";
import { sqlRows } from "../src/platform/db/sql";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startPgBouncer, type PgBouncer } from "./pgbouncer";
import { auditDatabase, guestOn, joinOn } from "./process-helpers";
import { newRequestId, waitFor } from "./room-helpers";
import { startServerProcess, type ServerProcess } from "./server-process";

/**
 * Two server processes reaching PostgreSQL through a real PgBouncer in transaction pooling mode, whose
 * few connections to PostgreSQL serve every transaction of both (docs/operations.md, "Behind
 * PgBouncer"): the migrations go straight to PostgreSQL, the money path's pipelined transactions keep
 * their locks and timeouts, and no statement relies on a connection keeping anything between
 * transactions.
 */
describe.runIf(TEST_DB === "postgres")("the server behind PgBouncer in transaction pooling mode", () => {
  /** PgBouncer's connections to PostgreSQL, fewer than either process's own pool. */
  const POOLER_CONNECTIONS = 4;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let pooler: PgBouncer;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;
  let a: ServerProcess;
  let b: ServerProcess;

  /** A query on PostgreSQL itself, past the pooler. */
  const direct = async <T>(text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    pooler = await startPgBouncer(database.url!, { poolSize: POOLER_CONNECTIONS });
    redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    const env = {
      DATABASE_URL: pooler.url,
      DATABASE_POOLER: "transaction",
      DATABASE_DIRECT_URL: database.url!,
      DB_POOL_SIZE: "10",
      REDIS_URL: redis.url!,
      BET_RATE_PER_SECOND: "100",
    };
    a = await startServerProcess({ env, name: "a" });
    b = await startServerProcess({ env, name: "b" });
  });

  afterAll(async () => {
    const started = Boolean(a && b);
    const exits = await Promise.all([a?.stop(), b?.stop()]);
    if (database?.url) {
      const audit = await auditDatabase(database.url);
      expect(audit.mismatches).toEqual([]);
    }
    await pooler?.stop();
    await database?.drop();
    await redis?.release();
    if (started)
      expect(exits).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
  });

  it("runs the migrations on the direct URL, never through the pooler, and leaves no advisory lock behind", async () => {
    // The direct URL names an empty database here, so that where the migrations ran shows.
    const empty = await freshDatabaseUrl({ empty: true });
    try {
      const timeouts = { connectMs: 5000, statementMs: 5000, queryMs: 10_000, healthMs: 1000 };
      const db = await openDatabase(pooler.url, "memory://", timeouts, 2, { directUrl: empty.url! });
      await db.close();
      const client = new pg.Client({ connectionString: empty.url });
      await client.connect();
      const applied = await client.query(`SELECT name FROM migrations ORDER BY id`).finally(() => client.end());
      expect(applied.rows.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => new m().name));
    } finally {
      await empty.drop();
    }
    // Through the pooler, the migrations' lock could stay on one of its connections after the unlock
    // ran on another, and every later start would wait for it forever.
    const locks = await direct(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks).toEqual([]);
  });

  it("settles racing bets of one player from both processes exactly once each, on the pooler's few connections", async () => {
    const { token, player } = await guestOn(a);
    const onA = await joinOn(a, token);
    const onB = await joinOn(b, token);
    const sent = Array.from({ length: 24 }, (_, i) => ({ requestId: newRequestId(), via: i % 2 ? onA : onB }));
    for (const { requestId, via } of sent) via.room.send("bet", { requestId, game: "coin-flip", amount: 10, params: { side: "heads" } });
    const answers = await Promise.all(sent.map(({ requestId, via }) => via.inbox.answer(requestId)));
    expect(answers.filter((m) => m.type !== "result").map((m) => m.body)).toEqual([]);

    const expected = 1000 + answers.reduce((sum, m) => sum + (m.body.payout as number) - (m.body.stake as number), 0);
    // The bet that committed last answered the final balance.
    expect(answers.map((m) => m.body.balance)).toContain(expected);
    const [stored] = await direct<{ balance: string }>(`SELECT balance FROM players WHERE id = '${player.id}'`);
    expect(Number(stored!.balance)).toBe(expected);
    await waitFor(() => (onA.room.state as any).balance === expected && (onB.room.state as any).balance === expected);

    // Both processes' pools (10 each) were served by PgBouncer's connections alone.
    const backends = await direct(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    expect(backends.length).toBeLessThanOrEqual(POOLER_CONNECTIONS);
    await onA.room.leave();
    await onB.room.leave();
  });

  it("cancels a transaction's statement that runs past the statement timeout, and leaves the pooled connection without it", async () => {
    const timeouts = { connectMs: 5000, statementMs: 300, queryMs: 10_000, healthMs: 1000 };
    const db = await openDatabase(pooler.url, "memory://", timeouts, 2, { directUrl: database.url! });
    try {
      const inside = await db.transaction((em) => sqlRows<{ statement_timeout: string }>(em, `SHOW statement_timeout`));
      expect(inside).toEqual([{ statement_timeout: "300ms" }]);
      // The setting ended with its transaction: the next client of that connection starts without it.
      const outside = await db.run((em) => sqlRows<{ statement_timeout: string }>(em, `SHOW statement_timeout`));
      expect(outside).toEqual([{ statement_timeout: "0" }]);

      const started = Date.now();
      const slow = await db.transaction((em) => sqlRows(em, `SELECT pg_sleep(5)`)).catch((error: unknown) => error);
      expect(sqlState(slow)).toBe("57014");
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await db.close();
    }
  });
});
