import "reflect-metadata";
import type { DataSourceOptions } from "typeorm";
import { PGliteDriver } from "typeorm-pglite";
import { PGlite } from "@electric-sql/pglite";
import { join } from "node:path";
import { ENTITIES } from "./entities/index";
import { MIGRATIONS } from "./migrations/index";

/** Bounds on database work (PostgreSQL only; embedded PGlite has no network to wait on). */
export interface DatabaseTimeouts {
  /** Establishing a connection. */
  connectMs: number;
  /** Server side: any statement running longer is cancelled (SQLSTATE 57014), and so is a transaction left idle twice as long. */
  statementMs: number;
  /** Client side: a query whose answer has not arrived by then fails, even when the server is unreachable. */
  queryMs: number;
  /** The health check's `SELECT 1`. */
  healthMs: number;
}

/** How long a transaction may sit idle (waiting for its client's next statement) before PostgreSQL ends it. */
export const idleInTransactionMs = (timeouts: DatabaseTimeouts): number => timeouts.statementMs * 2;

/**
 * How embedded PGlite runs: its own defaults (single-user mode, no worker processes), with a buffer
 * pool of 16 MB instead of PostgreSQL's 128 MB. PGlite's buffer pool lives in its WebAssembly memory,
 * which is filled in as pages are touched and never handed back, so the default pool alone held about
 * 130 MB of the idle process; the files it caches stay in the operating system's page cache anyway.
 * Only memory changes: what is written, and when it reaches the disk, is as before.
 */
export const PGLITE_START_PARAMS: string[] = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/**
 * The TypeORM DataSource options, shared by the server and the migration CLI: PostgreSQL when a URL is
 * given, otherwise embedded PGlite under the data directory ("memory://" keeps it in memory). The
 * migration CLI runs without timeouts; the server passes its configured ones and its pool size.
 * Through a transaction pooler (`pooled`) the server timeouts are not connection parameters: PgBouncer
 * refuses them, and a connection's settings would not follow its transactions anyway
 * (server/src/platform/db/pooler.ts sends them with each BEGIN instead).
 */
export function dataSourceOptions(
  databaseUrl: string | undefined,
  dataDir = "./data",
  timeouts?: DatabaseTimeouts,
  /** Connections in the pool (`DB_POOL_SIZE` for the server; the driver's default for the tools). */
  poolSize?: number,
  pooled = false,
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    // Each migration in a transaction of its own, and one that cannot run in a transaction (it builds an
    // index CONCURRENTLY) says so itself.
    migrationsTransactionMode: "each",
    synchronize: false,
    logging: false,
    // The migrations create no extension: uuid defaults are PostgreSQL's built-in gen_random_uuid().
    installExtensions: false,
    uuidExtension: "pgcrypto",
  } as const;
  if (databaseUrl) {
    const bounded = timeouts && {
      connectionTimeoutMillis: timeouts.connectMs,
      ...(pooled ? {} : { statement_timeout: timeouts.statementMs, idle_in_transaction_session_timeout: idleInTransactionMs(timeouts) }),
      query_timeout: timeouts.queryMs,
      // Finds a peer that vanished (a partition, a dead host) on idle pooled connections.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    };
    // pipeline: a query is sent at once, without waiting for the answer of the one before on the same
    // connection (the money path's transactions send BEGIN with their first statement and COMMIT with
    // their last: server/src/platform/db/pipeline.ts). Queries awaited one by one behave as without it.
    return { type: "postgres", url: databaseUrl, extra: { ...(poolSize ? { max: poolSize } : {}), pipeline: true, ...bounded }, ...common };
  }
  const pgliteDir = dataDir === "memory://" ? undefined : join(dataDir, "pglite");
  return {
    type: "postgres",
    driver: new PGliteDriver({ ...(pgliteDir ? { dataDir: pgliteDir } : {}), startParams: PGLITE_START_PARAMS }).driver,
    ...common,
  } as DataSourceOptions;
}
