import "reflect-metadata";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { expect } from "vitest";
import { Client as SdkClient } from "@colyseus/sdk";
import { Redis } from "ioredis";
import type { Clock } from "../src/platform/clock";
import { loadConfig } from "../src/platform/config";
import { createApp, type App } from "../src/app";
import { auditLedger } from "../src/ops/audit-ledger";
import { startFakeDiscord, type FakeDiscord } from "./fake-discord";
import { requestAt, type ApiAnswer, type RequestOptions } from "./http-request";
import { expectBalancedEconomy } from "./ledger-audit";
import { templateName } from "./template-database";

/** Which database this test project runs against: the real PostgreSQL of the machine, or PGlite. */
export const TEST_DB = process.env.TEST_DB === "pglite" ? "pglite" : "postgres";
const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestApp {
  app: App;
  baseUrl: string;
  wsUrl: string;
  discord: FakeDiscord;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiAnswer>;
  /** A query on the app's database, for what a test reads back or plants there. */
  sql(text: string, params?: unknown[]): Promise<any[]>;
  /** The player's balance as the database holds it. */
  balanceOf(playerId: string): Promise<number>;
  guest(username?: string): Promise<{ token: string; player: any }>;
  sdk(token: string): SdkClient;
  expectLedgerInvariant(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh database for this test file: its own PostgreSQL database (migrated, or `empty`), or an
 * in-memory PGlite.
 */
export async function freshDatabaseUrl(options: { empty?: boolean } = {}): Promise<{ url?: string; drop: () => Promise<void> }> {
  if (TEST_DB === "pglite") return { url: undefined, drop: async () => undefined };
  const name = `casino_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    // A copy of the run's migrated template (template-database.ts) where there is one; else an empty
    // database that the app migrates when it opens it.
    const template = templateName();
    const found = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate`, [template]);
    await admin.query(found.rows.length > 0 && !options.empty ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * On the PostgreSQL project the real Redis is used too (presence, driver, leaderboards). Each test file
 * leases a logical database of its own, so files running in parallel, and several test runs on one
 * Redis, never see each other's rooms. The leases live in the database `REDIS_URL` names (the local
 * server's database 0 by default, as `DATABASE_URL` defaults to the local PostgreSQL), which is never
 * flushed; every other database of the server is in the pool.
 */
const LEASE_MS = 15 * 60_000;

export async function leaseRedisDb(
  base = TEST_DB === "pglite" ? undefined : (process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
): Promise<{ url?: string; release: () => Promise<void> }> {
  if (!base) return { release: async () => undefined };
  const coordinator = new Redis(base);
  try {
    const home = coordinator.options.db ?? 0;
    const [, count] = (await coordinator.config("GET", "databases")) as [string, string];
    const pool = Array.from({ length: Number(count) }, (_, i) => i).filter((db) => db !== home);
    const token = `${process.pid}-${randomBytes(6).toString("hex")}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      for (const db of pool) {
        if ((await coordinator.set(`casino-test-lease:${db}`, token, "PX", LEASE_MS, "NX")) !== "OK") continue;
        const url = new URL(base);
        url.pathname = `/${db}`;
        const redis = new Redis(url.toString());
        await redis.flushdb();
        redis.disconnect();
        return {
          url: url.toString(),
          release: async () => {
            const c = new Redis(base);
            // Only our own lease: a lease that expired and was taken by another run stays theirs.
            await c.eval(
              `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`,
              1,
              `casino-test-lease:${db}`,
              token,
            );
            c.disconnect();
          },
        };
      }
      if (Date.now() > deadline) throw new Error(`no free Redis database among ${pool.length} for this test file`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    coordinator.disconnect();
  }
}

/**
 * An app in this process on a fresh database and Redis database of its own; with `on`, on those of
 * another server instead (a process started again on the same data), which close() leaves in place.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { redis?: boolean; clock?: Clock; on?: { databaseUrl: string; redisUrl: string } } = {},
): Promise<TestApp> {
  const discord = await startFakeDiscord();
  const database = options.on ? { url: options.on.databaseUrl, drop: async () => undefined } : await freshDatabaseUrl();
  const redisLease = options.on
    ? { url: options.on.redisUrl, release: async () => undefined }
    : options.redis === false
      ? { release: async () => undefined }
      : await leaseRedisDb();
  const redisUrl = redisLease.url;
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: "memory://",
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123456789",
    DISCORD_CLIENT_ID: "client-id",
    DISCORD_CLIENT_SECRET: "client-secret",
    DISCORD_API_BASE: discord.url,
    CLIENT_DIST: "client/dist-none",
    // The health check's own limit is tested on its own; elsewhere a busy machine must not read as "down".
    DB_HEALTH_TIMEOUT_MS: "10000",
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
  const app = await createApp(config, undefined, options.clock);
  const port = await app.listen();
  // @colyseus/testing reads the port from the server; it was bound to a free one.
  (app.server as unknown as { port: number }).port = port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const request: TestApp["request"] = (method, path, options) => requestAt(baseUrl, method, path, options);
  return {
    app,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}`,
    discord,
    request,
    sql: (text, params = []) => app.services.db.run((em) => em.query(text, params)) as Promise<any[]>,
    balanceOf: async (playerId) =>
      Number((await app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE id = $1`, [playerId])))[0].balance),
    async guest(username?: string) {
      const res = await request("POST", "/api/guest", { body: username ? { username } : {} });
      expect(res.status).toBe(201);
      return { token: res.body.session_token as string, player: res.body.player };
    },
    sdk(token: string) {
      const client = new SdkClient(`ws://127.0.0.1:${port}`);
      client.auth.token = token;
      return client;
    },
    async expectLedgerInvariant() {
      const audit = await auditLedger(app.services.db);
      expect(audit.mismatches).toEqual([]);
      expect(audit.missingReferences).toEqual([]);
      expectBalancedEconomy(audit);
    },
    async close() {
      await app.close();
      await discord.close();
      await database.drop();
      await redisLease.release();
    },
  };
}
