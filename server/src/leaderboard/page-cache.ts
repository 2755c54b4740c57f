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
  page: Promise<CachedPage>;
}

/**
 * A short-lived cache of the pages of the global boards, shared by every viewer on this process: a page
 * is one Redis script and 25 entries pasted together, and most readers ask for the same few pages.
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
    let slot = this.recent.get(key) ?? this.older.get(key);
    if (!slot || now - slot.at >= this.ttlMs) {
      const generation = this.generation;
      const page = load();
      const stored: Slot = { at: now, page };
      slot = stored;
      this.recent.set(key, stored);
      page.then(
        () => {
          // A change came while the page was read: it may be older than the change, so it is not kept.
          if (this.generation !== generation) this.drop(key, stored);
        },
        () => this.drop(key, stored),
      );
    }
    const page = await slot.page;
    return viewerId !== null && page.anonymous.has(viewerId) ? page.renderFor(viewerId) : page.json;
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

  /** Pages held, including some past their time that are not served again. */
  get size(): number {
    return this.recent.size + this.older.size;
  }
}
