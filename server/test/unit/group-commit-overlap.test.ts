import { afterEach, describe, expect, it, vi } from "vitest";
import type { EntityManager } from "typeorm";
import type { Database } from "../../src/platform/db/database";
import { DatabaseBreaker } from "../../src/platform/db/breaker";
import { GroupCommit, type MemberOutcome } from "../../src/core/ledger/engine/group-commit";

/**
 * When the group commit lets a batch start beside a running one (`overlapAfterMs`): the scheduling
 * alone, over a stand-in for the database whose transactions end when the test says so. The money
 * path's batches on PostgreSQL and PGlite are tested in group-commit.test.ts.
 */
const fakeDb = {
  transaction: <T>(work: (em: EntityManager) => Promise<T>) => work({} as EntityManager),
  breaker: new DatabaseBreaker(async () => true, 500),
  healthTimeoutMs: 1000,
  ping: async () => true,
} as unknown as Database;

/** A group commit whose batches are recorded and finish when released, in any order. */
function scheduler(overlapAfterMs: number) {
  const batches: { members: string[]; release: () => void }[] = [];
  const group = new GroupCommit<string, string>(
    fakeDb,
    (_em, members) =>
      new Promise<MemberOutcome<string>[]>((resolve) =>
        batches.push({ members, release: () => resolve(members.map((m) => ({ ok: true, value: m }))) }),
      ),
    { maxBatch: 10, maxInFlight: 3, overlapAfterMs, keyOf: (m) => m.split(":")[0]! },
  );
  return { group, batches };
}

const tick = () => vi.advanceTimersByTimeAsync(0);

afterEach(() => {
  vi.useRealTimers();
});

describe("batches beside a running one", () => {
  it("wait for the overlap delay after the last start, then start, up to maxInFlight; a commit starts the next at once", async () => {
    vi.useFakeTimers();
    const { group, batches } = scheduler(25);
    const answers: Promise<MemberOutcome<string>>[] = [group.submit("a:1"), group.submit("b:1")];
    await tick();
    expect(batches.map((b) => b.members)).toEqual([["a:1", "b:1"]]);

    // Arrivals while the first batch runs wait for it, or for 25 ms since it started.
    answers.push(group.submit("c:1"));
    await vi.advanceTimersByTimeAsync(24);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches.map((b) => b.members)).toEqual([["a:1", "b:1"], ["c:1"]]);

    // The third waits 25 ms after the second's start; the fourth would exceed maxInFlight (3).
    answers.push(group.submit("d:1"));
    await vi.advanceTimersByTimeAsync(25);
    expect(batches).toHaveLength(3);
    answers.push(group.submit("e:1"));
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toHaveLength(3);

    // A commit frees a place: the waiting member starts at once, the overlap delay having passed.
    batches[0]!.release();
    await tick();
    expect(batches.map((b) => b.members)).toEqual([["a:1", "b:1"], ["c:1"], ["d:1"], ["e:1"]]);
    for (const b of batches) b.release();
    expect((await Promise.all(answers)).map((o) => (o.ok ? o.value : null))).toEqual(["a:1", "b:1", "c:1", "d:1", "e:1"]);
  });

  it("with one batch committing quickly, every arrival joins the next batch after it, and no timer is left", async () => {
    vi.useFakeTimers();
    const { group, batches } = scheduler(25);
    const answers = [group.submit("a:1")];
    await tick();
    answers.push(group.submit("b:1"), group.submit("a:2"), group.submit("c:1"));
    await vi.advanceTimersByTimeAsync(5);
    batches[0]!.release();
    await tick();
    // One batch after the first, with everything that arrived meanwhile.
    expect(batches.map((b) => b.members)).toEqual([["a:1"], ["b:1", "a:2", "c:1"]]);
    batches[1]!.release();
    await Promise.all(answers);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("with no overlap delay, starts a batch beside a running one at once", async () => {
    vi.useFakeTimers();
    const { group, batches } = scheduler(0);
    const answers = [group.submit("a:1")];
    await tick();
    answers.push(group.submit("b:1"));
    await tick();
    expect(batches.map((b) => b.members)).toEqual([["a:1"], ["b:1"]]);
    for (const b of batches) b.release();
    await Promise.all(answers);
  });
});
