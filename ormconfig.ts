import "reflect-metadata";
import { DataSource, type DataSourceOptions } from "typeorm";
import { PGliteDriver } from "typeorm-pglite";
import { join } from "node:path";
import { ENTITIES } from "./server/src/db/entities/index";
import { MIGRATIONS } from "./server/src/db/migrations/index";

/**
 * The TypeORM DataSource options, shared by the server and the migration CLI: PostgreSQL when a URL is
 * given, otherwise embedded PGlite under the data directory ("memory://" keeps it in memory).
 */
export function dataSourceOptions(databaseUrl: string | undefined, dataDir = "./data"): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
  } as const;
  if (databaseUrl) {
    return { type: "postgres", url: databaseUrl, extra: { max: 20 }, ...common };
  }
  const pgliteDir = dataDir === "memory://" ? undefined : join(dataDir, "pglite");
  return {
    type: "postgres",
    driver: new PGliteDriver(pgliteDir ? { dataDir: pgliteDir } : {}).driver,
    installExtensions: false,
    uuidExtension: "pgcrypto",
    ...common,
  } as DataSourceOptions;
}

/** For the migration CLI (`npm run migration:run`, `npm run migration:generate`). */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL, process.env.DATA_DIR ?? "./data"));
