import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database";
import { MIGRATIONS } from "../src/db/migrations/index";
import { TEST_DB, freshDatabaseUrl } from "./harness";

/**
 * Several server processes starting together on a database that is behind (a rolling upgrade, a
 * scaled-out start): each runs the migrations at start, and exactly one applies them.
 */
describe.runIf(TEST_DB === "postgres")("migrations at start", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const opened: Database[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await database?.drop();
  });

  it("are applied once when three processes open an empty database at the same moment", async () => {
    database = await freshDatabaseUrl({ empty: true });
    const timeouts = { connectMs: 10_000, statementMs: 10_000, queryMs: 15_000, healthMs: 1000 };
    const results = await Promise.allSettled([1, 2, 3].map(() => openDatabase(database.url, "memory://", timeouts)));
    for (const r of results) if (r.status === "fulfilled") opened.push(r.value);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "opened"))).toEqual(["opened", "opened", "opened"]);
    const applied = await opened[0]!.run((em) => em.query(`SELECT name FROM migrations ORDER BY id`));
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => new m().name));
  });
});
