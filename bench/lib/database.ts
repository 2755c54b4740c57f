import { randomBytes } from "node:crypto";
import pg from "pg";
import { Redis } from "ioredis";

export const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A new, empty PostgreSQL database on the server `adminUrl` names; `drop()` removes it. */
export async function freshDatabase(
  prefix: string,
  adminUrl = ADMIN_URL,
): Promise<{ url: string; version: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const version = (await admin.query("SHOW server_version")).rows[0].server_version as string;
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    version,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Process ids of the PostgreSQL backends connected to the database `url` names. */
export async function backendPids(url: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    return rows.map((r) => Number(r.pid));
  } finally {
    await c.end();
  }
}

/**
 * A Redis logical database of its own for this run, leased with the same keys the test harness uses
 * (`casino-test-lease:<db>` in the base database), so a bench never shares rooms with a test run.
 */
/**
 * Transactions committed in the database `url` names, as PostgreSQL's statistics count them (every
 * backend reports its counts at least once a second while busy, so a window of several seconds is
 * counted to within about a second's worth).
 */
export async function committedTransactions(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`);
    return Number(rows[0].xact_commit);
  } finally {
    await c.end();
  }
}

export async function leaseRedis(baseUrl: string): Promise<{ url: string; release: () => Promise<void> }> {
  const coordinator = new Redis(baseUrl);
  try {
    const home = coordinator.options.db ?? 0;
    const [, count] = (await coordinator.config("GET", "databases")) as [string, string];
    const token = `bench-${process.pid}-${randomBytes(6).toString("hex")}`;
    for (let db = Number(count) - 1; db >= 0; db--) {
      if (db === home) continue;
      if ((await coordinator.set(`casino-test-lease:${db}`, token, "PX", 30 * 60_000, "NX")) !== "OK") continue;
      const url = new URL(baseUrl);
      url.pathname = `/${db}`;
      const redis = new Redis(url.toString());
      await redis.flushdb();
      redis.disconnect();
      return {
        url: url.toString(),
        release: async () => {
          const c = new Redis(baseUrl);
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
    throw new Error("no free Redis database for the bench");
  } finally {
    coordinator.disconnect();
  }
}
