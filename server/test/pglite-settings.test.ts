import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, TEST_DB, type TestApp } from "./harness";

/**
 * Embedded PGlite runs with a buffer pool of 16 MB (platform/db/data-source.ts, PGLITE_START_PARAMS: the default
 * 128 MB was most of the idle process's memory) and nothing else changed: commits are as durable as
 * PGlite's own defaults make them, fsync off among them (docs/operations.md, "Durability of the
 * embedded default": what that trade keeps and what it does not).
 */
describe.runIf(TEST_DB === "pglite")("the embedded database's settings", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { redis: false });
  });
  afterAll(async () => t?.close());

  const show = async (name: string) =>
    Object.values((await t.app.services.db.run((em) => em.query(`SHOW ${name}`)))[0] as Record<string, string>)[0];

  it("has the small buffer pool, and PostgreSQL's commit settings as PGlite's defaults leave them", async () => {
    expect(await show("shared_buffers")).toBe("16MB");
    expect(await show("synchronous_commit")).toBe("on");
    expect(await show("fsync")).toBe("off");
    expect(await show("full_page_writes")).toBe("on");
    expect(await show("wal_level")).toBe("replica");
  });
});
