import "reflect-metadata";
import { sqlRows } from "./sql";
import { mkdirSync } from "node:fs";
import { DataSource, type EntityManager } from "typeorm";
import { dataSourceOptions } from "../../../ormconfig";
import { IN_MEMORY } from "../config";

/**
 * The data source plus the one rule that makes embedded PGlite safe: it is a single shared session, so
 * concurrent transactions there are not isolated. On PGlite every unit of work goes through one queue;
 * on PostgreSQL units run concurrently, each in its own transaction.
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dataSource: DataSource,
    readonly embedded: boolean,
  ) {}

  /** One database transaction. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.serialised(() => this.dataSource.transaction(work));
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

  async ping(): Promise<boolean> {
    try {
      await this.run((em) => sqlRows(em, "SELECT 1"));
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.dataSource.destroy();
  }
}

/** Connects, runs pending migrations, and hands back the database. */
export async function openDatabase(databaseUrl: string | undefined, dataDir: string): Promise<Database> {
  if (!databaseUrl && dataDir !== IN_MEMORY) mkdirSync(dataDir, { recursive: true });
  const dataSource = new DataSource(dataSourceOptions(databaseUrl, dataDir));
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: "each" });
  return new Database(dataSource, !databaseUrl);
}
