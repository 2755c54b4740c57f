import { describe, expect, it } from "vitest";
import { PAGE_CACHE_MS, PageCache, type CachedPage } from "../../src/leaderboard/page-cache";

/** A cache on a clock the test moves, and a loader that counts its reads of each key. */
function setup() {
  let now = 1_000_000;
  const cache = new PageCache(PAGE_CACHE_MS, () => now);
  const reads = new Map<string, number>();
  const get = (key: string) =>
    cache.get(key, null, async (): Promise<CachedPage> => {
      const n = (reads.get(key) ?? 0) + 1;
      reads.set(key, n);
      return { json: `${key}#${n}`, anonymous: new Set(), renderFor: () => `${key}#${n}` };
    });
  return { cache, get, reads, advance: (ms: number) => (now += ms) };
}

describe("the page cache", () => {
  it("keeps a page from its second ask within PAGE_CACHE_MS, or from a second viewer while it is read", async () => {
    const { get, advance } = setup();
    expect(await get("a")).toBe("a#1");
    expect(await get("a")).toBe("a#2");
    expect(await get("a")).toBe("a#2");
    // Asked once, then again only after PAGE_CACHE_MS: read each time, never kept.
    expect(await get("b")).toBe("b#1");
    advance(PAGE_CACHE_MS);
    expect(await get("b")).toBe("b#2");
    // Two viewers at once share one read, which is kept.
    advance(PAGE_CACHE_MS);
    expect(await Promise.all([get("c"), get("c")])).toEqual(["c#1", "c#1"]);
    expect(await get("c")).toBe("c#1");
  });

  it("serves a kept page within PAGE_CACHE_MS, whichever generation holds it, and reads it again after", async () => {
    const { get, advance } = setup();
    await get("a");
    expect(await get("a")).toBe("a#2");
    advance(PAGE_CACHE_MS / 2);
    await get("b");
    expect(await get("b")).toBe("b#2");
    // The generation that holds "a" has become the older one: "a" is still served from it.
    advance(PAGE_CACHE_MS / 2 - 1);
    expect(await get("a")).toBe("a#2");
    advance(1);
    expect(await get("b")).toBe("b#2");
    expect(await get("a")).toBe("a#3");
    // "b" sits in the older generation, PAGE_CACHE_MS - 1 old: served; 1 ms later: read again.
    advance(PAGE_CACHE_MS / 2 - 1);
    expect(await get("b")).toBe("b#2");
    advance(1);
    expect(await get("b")).toBe("b#3");
  });

  it("holds a bounded number of pages however many distinct pages are asked within PAGE_CACHE_MS", async () => {
    const { cache, get, reads } = setup();
    for (let i = 0; i < 5000; i++) {
      await get(`page ${i}`);
      await get(`page ${i}`);
    }
    expect(cache.size).toBeLessThanOrEqual(2000);
    // The latest pages are still served without a read; the first ones were dropped and are read again.
    expect(await get("page 4999")).toBe("page 4999#2");
    expect(await get("page 0")).toBe("page 0#3");
    expect(reads.get("page 4999")).toBe(2);
  });

  it("serves nothing read before an invalidation, from either generation", async () => {
    const { cache, get, advance } = setup();
    await get("a");
    await get("a");
    advance(PAGE_CACHE_MS / 2);
    await get("b");
    await get("b");
    cache.invalidate();
    expect(cache.size).toBe(0);
    expect(await get("a")).toBe("a#3");
    expect(await get("b")).toBe("b#3");
  });
});
