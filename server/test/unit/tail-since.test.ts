import { describe, expect, it } from "vitest";
import { TailSince } from "../../src/core/events/id-tail";

describe("TailSince", () => {
  it("bounds a tail's read to a day before the newest row it has read, and knows no bound before a row or after a reset", () => {
    const since = new TailSince();
    expect(since.since).toBe("-infinity");
    const newest = Date.parse("2026-12-07T18:00:00Z");
    since.saw([newest - 5_000, newest, newest - 60_000]);
    expect(since.since).toBe("2026-12-06T18:00:00.000Z");
    // An older row read later (a hole filled) never moves the bound back.
    since.saw([newest - 3_600_000]);
    expect(since.since).toBe("2026-12-06T18:00:00.000Z");
    since.saw([]);
    expect(since.since).toBe("2026-12-06T18:00:00.000Z");
    since.reset();
    expect(since.since).toBe("-infinity");
  });
});
