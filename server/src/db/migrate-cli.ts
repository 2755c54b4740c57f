import { loadConfig } from "../config";
import { openDatabase } from "./database";

/** `npm run migration:run`: applies pending migrations to the configured database and exits. */
const config = loadConfig();
const db = await openDatabase(config.databaseUrl, config.dataDir);
const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
console.log(`migrations applied: ${applied.map((m: { name: string }) => m.name).join(", ")}`);
await db.close();
