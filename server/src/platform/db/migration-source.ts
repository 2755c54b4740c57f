import "reflect-metadata";
import { DataSource } from "typeorm";
import { dataSourceOptions } from "./data-source";
import { directDatabaseUrl, loadConfig } from "../config";

/**
 * The data source of TypeORM's migration CLI (`npm run migration:generate`): the configured database
 * (DATABASE_DIRECT_URL or DATABASE_URL, or the embedded one under DATA_DIR), read through the server's configuration, with no
 * timeouts. Nothing else imports this file.
 */
const config = loadConfig();
export default new DataSource(dataSourceOptions(directDatabaseUrl(config), config.dataDir));
