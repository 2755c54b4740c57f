import "reflect-metadata";
import { setTimeout as sleep } from "node:timers/promises";
import { keepsNamedStatements, markEmbedded, markPooled, sqlRows } from "./sql";
import { pooledBegin, type TransactionPooler } from "./pooler";
import { PgTransaction, SequentialTransaction, type Pipe } from "./pipeline";
import { mkdirSync } from "node:fs";
import { DataSource, type EntityManager, type QueryRunner } from "typeorm";
import { dataSourceOptions, type DatabaseTimeouts } from "./data-source";
import { DatabaseBreaker } from "./breaker";
import { IN_MEMORY } from "../config";

export type { DatabaseTimeouts };

/** Tries of one transaction that PostgreSQL aborted for a deadlock (40P01) or a serialisation failure (40001). */
export const TRANSACTION_TRIES = 3;

/**
 * The data source plus the one rule that makes embedded PGlite safe: it is a single shared session, so
 * concurrent transactions there are not isolated. On PGlite every unit of work goes through one queue;
 * on PostgreSQL units run concurrently, each in its own transaction.
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();
  /** The `SELECT 1` of a health check or probe still waiting for its answer (shared, never piled up). */
  private pinging: Promise<boolean> | undefined;
  /**
   * Opens when the database stops answering (a money batch timed out, a health check got no answer);
   * money requests are then refused at once until a probe is answered (breaker.ts).
   */
  readonly breaker: DatabaseBreaker;

  constructor(
    readonly dataSource: DataSource,
    readonly embedded: boolean,
    readonly healthTimeoutMs = 1000,
    /** What opens each transaction on PostgreSQL (behind a transaction pooler, BEGIN with the timeouts: pooler.ts). */
    private readonly begin = "BEGIN",
  ) {
    if (embedded) markEmbedded(dataSource);
    this.breaker = new DatabaseBreaker(() => this.ping(), Math.min(healthTimeoutMs, 500));
  }

  /**
   * One database transaction. A deadlock or serialisation failure rolls it back and runs the whole
   * unit again (a few times, after a short random pause); the work must therefore only touch the
   * database, which every ledger unit does.
   *
   * The work gets the transaction's entity manager and its `Pipe`: statements sent through the pipe go
   * out without waiting for the answers of earlier ones (on PostgreSQL), and the work may commit
   * through it, right behind its last write, instead of leaving the commit to this method. BEGIN
   * leaves with the first statement either way.
   */
  async transaction<T>(work: (em: EntityManager, pipe: Pipe) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.serialised(() => this.once(work));
      } catch (error) {
        if (attempt >= TRANSACTION_TRIES || !isRetryable(error)) throw error;
        await sleep(5 + Math.random() * 20 * attempt);
      }
    }
  }

  /** Reads (and single-statement writes) outside an explicit transaction. */
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.serialised(() => work(this.dataSource.manager));
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    if (!this.embedded) return work();
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * BEGIN … COMMIT on one pooled connection. A connection that timed out or broke mid-transaction is
   * discarded rather than rolled back and reused: its state is unknown, and a rollback would wait on it.
   *
   * On PostgreSQL the transaction is driven by its own BEGIN and COMMIT on the connection (`PgTransaction`),
   * with the query runner marked as in a transaction, so the entity manager's own methods never open
   * another. On PGlite the query runner's transaction is used, and the pipe waits for each answer.
   */
  private async once<T>(work: (em: EntityManager, pipe: Pipe) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    let broken: unknown;
    try {
      if (this.embedded) return await this.onceEmbedded(runner, work);
      const client = (await runner.connect()) as ConstructorParameters<typeof PgTransaction>[0];
      const tx = new PgTransaction(client, this.begin, keepsNamedStatements(this.dataSource));
      // TypeORM's flag (read-only in its types): its own methods (save, …) then open no transaction of theirs.
      const flags = runner as { isTransactionActive: boolean };
      flags.isTransactionActive = true;
      try {
        const result = await work(runner.manager, tx);
        await tx.commit();
        return result;
      } catch (error) {
        if (isConnectionTrouble(error)) broken = error;
        else await tx.rollback().catch((rollbackError: unknown) => (broken = rollbackError));
        throw error;
      } finally {
        flags.isTransactionActive = false;
      }
    } catch (error) {
      if (isConnectionTrouble(error)) broken ??= error;
      throw error;
    } finally {
      await release(runner, broken);
    }
  }

  private async onceEmbedded<T>(runner: QueryRunner, work: (em: EntityManager, pipe: Pipe) => Promise<T>): Promise<T> {
    await runner.startTransaction();
    const tx = new SequentialTransaction(runner);
    try {
      const result = await work(runner.manager, tx);
      await tx.commit();
      return result;
    } catch (error) {
      if (tx.committed) await tx.commit().catch(() => undefined); // let a commit the work asked for finish first
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  }

  /**
   * `SELECT 1` within the health timeout; a database that does not answer in time is down. The answer
   * (or its absence) is told to the breaker. A check made while an earlier one still waits for its
   * answer waits for that one rather than sending another, so a database that hangs never collects
   * a pile of checks on the pool's connections.
   */
  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.healthTimeoutMs)));
    if (!this.pinging) {
      const answer = this.run((em) => sqlRows(em, "SELECT 1")).then(
        () => true,
        () => false,
      );
      this.pinging = answer;
      void answer.then(() => {
        if (this.pinging === answer) this.pinging = undefined;
      });
    }
    try {
      let ok = await Promise.race([this.pinging, timeout]);
      // After a stall of the event loop the timer runs before the answer that arrived meanwhile is read:
      // one turn later (past the I/O phase) that answer counts.
      if (!ok) ok = await Promise.race([this.pinging, new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
      if (this.embedded) return ok; // in-process: there is no connection that could hang
      if (ok) this.breaker.answered();
      else this.breaker.trip("the health check got no answer in time");
      return ok;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.dataSource.destroy();
  }
}

async function release(runner: QueryRunner, broken: unknown): Promise<void> {
  const pooled = runner as QueryRunner & { releasePostgresConnection?: (error?: unknown) => Promise<void> };
  // Handing the error to the pool makes it close that connection instead of reusing it.
  if (broken && pooled.releasePostgresConnection) await pooled.releasePostgresConnection(broken);
  else await runner.release();
}

const driverError = (error: unknown) => {
  const e = error as { code?: unknown; message?: unknown; driverError?: { code?: unknown; message?: unknown } } | null;
  return e?.driverError ?? e ?? {};
};

/** The SQLSTATE of a database error (TypeORM wraps the driver's error), if any. */
export function sqlState(error: unknown): string | undefined {
  const code = driverError(error).code;
  return typeof code === "string" ? code : undefined;
}

/** A unique violation (SQLSTATE 23505): a row that another request inserted first. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === "23505";
}

/** The constraint a PostgreSQL error names (unique violations name their index), if any. */
export function constraintOf(error: unknown): string | undefined {
  const e = error as { constraint?: unknown; driverError?: { constraint?: unknown } } | null;
  const name = e?.driverError?.constraint ?? e?.constraint;
  return typeof name === "string" ? name : undefined;
}

/** Deadlock detected, or a serialisation failure: the transaction can simply run again. */
export const isRetryable = (error: unknown): boolean => ["40P01", "40001"].includes(sqlState(error) ?? "");

const TIMEOUT_STATES = new Set([
  "57014", // query_canceled: statement_timeout
  "55P03", // lock_not_available: lock_timeout
  "25P03", // idle_in_transaction_session_timeout
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);
const CONNECTION_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
const CONNECTION_MESSAGES =
  /query read timeout|timeout exceeded when trying to connect|connection terminated|connection timeout|connection ended|not queryable/i;

/**
 * The database did not answer in time, or the connection to it broke: whether the work committed is not
 * known to this process. (For money requests that is safe to retry: requests are idempotent by id.)
 */
export function isConnectionTrouble(error: unknown): boolean {
  const e = driverError(error);
  const state = typeof e.code === "string" ? e.code : "";
  if (TIMEOUT_STATES.has(state) || state.startsWith("08") || CONNECTION_CODES.has(state)) return true;
  return typeof e.message === "string" && CONNECTION_MESSAGES.test(e.message);
}

/**
 * No connection to the database could be made: nothing was sent, so nothing happened. (The caller
 * tells the player the casino is unavailable rather than that the outcome is unknown.)
 */
export function isConnectFailure(error: unknown): boolean {
  const e = driverError(error);
  const state = typeof e.code === "string" ? e.code : "";
  if (["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "57P03"].includes(state)) return true;
  return typeof e.message === "string" && /timeout exceeded when trying to connect|connect ECONNREFUSED/i.test(e.message);
}

/**
 * Connects, runs pending migrations, and hands back the database. `pooler`: `databaseUrl` leads through
 * a transaction pooler (pooler.ts), and the migrations run on its direct URL.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  timeouts?: DatabaseTimeouts,
  poolSize?: number,
  pooler?: TransactionPooler,
): Promise<Database> {
  if (!databaseUrl && dataDir !== IN_MEMORY) mkdirSync(dataDir, { recursive: true });
  if (databaseUrl && (timeouts || pooler)) {
    // Migrations may take longer than a statement of the running service is allowed to: they run
    // first, on a connection without the service's timeouts (and straight to PostgreSQL: their
    // advisory lock would be lost in a transaction pooler).
    const migrator = new DataSource(dataSourceOptions(pooler?.directUrl ?? databaseUrl, dataDir));
    await migrator.initialize();
    try {
      await runMigrations(migrator);
    } finally {
      await migrator.destroy();
    }
    const dataSource = new DataSource(dataSourceOptions(databaseUrl, dataDir, timeouts, poolSize, pooler !== undefined));
    await dataSource.initialize();
    if (!pooler) return new Database(dataSource, false, timeouts?.healthMs);
    markPooled(dataSource);
    return new Database(dataSource, false, timeouts?.healthMs, timeouts ? pooledBegin(timeouts) : "BEGIN");
  }
  const dataSource = new DataSource(dataSourceOptions(databaseUrl, dataDir, timeouts, poolSize));
  await dataSource.initialize();
  await runMigrations(dataSource);
  return new Database(dataSource, !databaseUrl, timeouts?.healthMs);
}

/** The advisory lock only migrations take (any constant: PostgreSQL's advisory locks are keyed by a bigint). */
const MIGRATION_LOCK = 7_152_301_488;

/**
 * Runs the pending migrations, each in a transaction of its own. On PostgreSQL under an advisory lock:
 * TypeORM takes none, and processes started together on a database that is behind would each run the
 * same migration (all but one then fail on "already exists"); with it the first migrates and the others
 * wait, then find nothing left to do. PGlite is one process's database.
 */
async function runMigrations(dataSource: DataSource): Promise<void> {
  if (!(dataSource.options as { url?: string }).url) {
    await dataSource.runMigrations({ transaction: "each" });
    return;
  }
  const lock = dataSource.createQueryRunner();
  try {
    // Asked again and again rather than waited for: a session waiting inside pg_advisory_lock holds a
    // transaction open, which a migration building an index CONCURRENTLY would wait for in turn.
    while (!(await lock.query(`SELECT pg_try_advisory_lock($1) AS locked`, [MIGRATION_LOCK]))[0].locked) {
      await sleep(100 + Math.random() * 100);
    }
    try {
      await dataSource.runMigrations({ transaction: "each" });
    } finally {
      await lock.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK]);
    }
  } finally {
    await lock.release();
  }
}
