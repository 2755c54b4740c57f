import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { openDatabase } from "../src/platform/db/database";

/**
 * The server tests on PostgreSQL migrate once per run: this global setup builds a database with every
 * migration applied, named after the migrations' contents, and each test file's database is a copy of
 * it (`CREATE DATABASE … TEMPLATE`, a file copy) instead of an empty one migrated again. A template of
 * the same migrations left by an earlier run is used as it is; the migrations test still migrates an
 * empty database of its own.
 */
const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let memo: string | undefined;

/** The template's name for these migrations and entities (read once per process). */
export function templateName(): string {
  if (memo) return memo;
  const folder = join(import.meta.dirname, "..", "src", "platform", "db", "migrations");
  const hash = createHash("sha256");
  for (const file of readdirSync(folder).sort()) hash.update(file).update(readFileSync(join(folder, file)));
  hash.update(readFileSync(join(import.meta.dirname, "..", "src", "platform", "db", "entities", "index.ts")));
  // The migrated layout depends on the month it was made in (migration 1764100000017 partitions the
  // ledger and the rounds from the first day of next month): a template of an earlier month is not used.
  hash.update(new Date().toISOString().slice(0, 7));
  memo = `casino_template_${hash.digest("hex").slice(0, 16)}`;
  return memo;
}

export default async function setup(): Promise<void> {
  if (process.env.TEST_DB === "pglite") return;
  const name = templateName();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const found = await admin.query(`SELECT datistemplate FROM pg_database WHERE datname = $1`, [name]);
    if (found.rows[0]?.datistemplate) {
      return;
    }
    // Built under a name of its own and renamed when complete, so a run killed half way leaves no
    // half-migrated template behind (and two runs building at once do not collide).
    const building = `${name}_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${building}`;
    const db = await openDatabase(url.toString(), "memory://");
    await db.close();
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
    } catch (error) {
      // Another run finished the same template first.
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      const again = await admin.query(`SELECT datistemplate FROM pg_database WHERE datname = $1`, [name]);
      if (!again.rows[0]?.datistemplate) throw error;
    }
  } finally {
    await admin.end();
  }
}
