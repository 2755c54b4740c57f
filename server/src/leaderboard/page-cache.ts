/** How long a cached page of a global board is served at most (see PageCache). */
export const PAGE_CACHE_MS = 1000;
/** Pages kept at most (two generations of half as many each; see PageCache). */
const PAGE_CACHE_SIZE = 2000;

/** A page as every viewer sees it, and what a viewer shown on it unmasked needs instead. */
export interface CachedPage {
  /** The page's JSON text as any viewer who is not an anonymous player on it sees it. */
  json: string;
  /** The anonymous players on the page: each sees their own entry unmasked, so their page is rendered for them. */
  anonymous: ReadonlySet<string>;
  /** Renders the page for one viewer (only called for the anonymous players on it). */
  renderFor(viewerId: string): string;
}

interface Slot {
  at: number;
  /** null: the page was asked at `at` and read, but not kept (see PageCache.get). */
  page: Promise<CachedPage> | null;
  /** The viewers given this read of the page. */
  asks: number;
}

/**
 * A short-lived cache of the pages of the global boards, shared by every viewer on this process: a page
 * is one Redis script and 25 entries pasted together, and most readers ask for the same few pages.
 * A page is kept once it is asked again within PAGE_CACHE_MS (or by a second viewer while it is read):
 * a page of the board's middle, asked once, is read for its viewer and let go, not held for a second
 * among thousands of others that nobody asks again (which the garbage collector then has to move and
 * sweep); only that it was asked is remembered.
 *
 * Freshness: every change this process applies or is told of empties the cache before it is visible
 * to a read — the consumer reading ledger entries or records (so a player's own bet, which a read waits
 * for, is never answered from a page cached before it), a build adopted, a profile change made here
 * (before it is answered) and every board change announced by another process on the presence channel.
 * A read that started before a change is not stored. What is left, a change this process is not told of
 * (a lost announcement), is served for PAGE_CACHE_MS at most.
 */
export class PageCache {
  /**
   * The slots in two generations: a page is stored in `recent`; when it is PAGE_CACHE_MS old or holds
   * PAGE_CACHE_SIZE / 2 pages, it becomes `older` and the older one is dropped whole. So no page is kept
   * much past its time (at most 2 × PAGE_CACHE_MS, and never served past PAGE_CACHE_MS), and nothing is
   * deleted one by one (a Map keeps deleted entries as holes that finding its oldest entry steps over).
   */
  private recent = new Map<string, Slot>();
  private older = new Map<string, Slot>();
  private recentSince: number;
  private generation = 0;

  constructor(
    private readonly ttlMs = PAGE_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.recentSince = now();
  }

  /** The page under `key` as `viewerId` sees it: cached, or read by `load` (once for concurrent readers). */
  async get(key: string, viewerId: string | null, load: () => Promise<CachedPage>): Promise<string> {
    const now = this.now();
    if (now - this.recentSince >= this.ttlMs || this.recent.size >= PAGE_CACHE_SIZE / 2) {
      this.older = this.recent;
      this.recent = new Map();
      this.recentSince = now;
    }
    const found = this.recent.get(key) ?? this.older.get(key);
    const live = found !== undefined && now - found.at < this.ttlMs ? found : undefined;
    let page = live?.page;
    if (live && page) live.asks++;
    else {
      const generation = this.generation;
      // Asked before within PAGE_CACHE_MS (`live` is the mark of that ask): this read is kept.
      const keep = live !== undefined;
      page = load();
      const stored: Slot = { at: now, page, asks: 1 };
      this.recent.set(key, stored);
      page.then(
        () => {
          // A change came while the page was read: it may be older than the change, so it is not kept.
          if (this.generation !== generation) this.drop(key, stored);
          else if (!keep && stored.asks === 1) this.replace(key, stored, { at: stored.at, page: null, asks: 1 });
        },
        () => this.drop(key, stored),
      );
    }
    const shown = await page;
    return viewerId !== null && shown.anonymous.has(viewerId) ? shown.renderFor(viewerId) : shown.json;
  }

  private replace(key: string, slot: Slot, by: Slot): void {
    if (this.recent.get(key) === slot) this.recent.set(key, by);
    else if (this.older.get(key) === slot) this.older.set(key, by);
  }

  private drop(key: string, slot: Slot): void {
    if (this.recent.get(key) === slot) this.recent.delete(key);
    if (this.older.get(key) === slot) this.older.delete(key);
  }

  /** Something shown on the boards changed: no page read before it is served again. */
  invalidate(): void {
    this.generation++;
    this.recent.clear();
    this.older.clear();
  }

  /** Pages held or marked as asked, including some past their time that are not served again. */
  get size(): number {
    return this.recent.size + this.older.size;
  }
}
