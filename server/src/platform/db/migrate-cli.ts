import { directDatabaseUrl, loadConfig, logSettings } from "../config";
import { Log } from "../log";
import { openDatabase } from "./database";

/** `npm run migration:run`: applies pending migrations to the configured database and exits. */
const config = loadConfig();
const log = new Log(logSettings(config));
const db = await openDatabase(directDatabaseUrl(config), config.dataDir);
const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
const names = applied.map((m: { name: string }) => m.name);
log.info(`${names.length} migrations applied, the last ${names.at(-1)}`, { migrations: names });
await db.close();
