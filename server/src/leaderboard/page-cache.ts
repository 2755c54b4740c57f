/** How long a cached page of a global board is served at most (see PageCache). */
export const PAGE_CACHE_MS = 1000;
/** Pages kept at most; the oldest goes first. */
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
  private readonly slots = new Map<string, Slot>();
  private generation = 0;

  constructor(
    private readonly ttlMs = PAGE_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page under `key` as `viewerId` sees it: cached, or read by `load` (once for concurrent readers). */
  async get(key: string, viewerId: string | null, load: () => Promise<CachedPage>): Promise<string> {
    const now = this.now();
    let slot = this.slots.get(key);
    if (!slot || now - slot.at >= this.ttlMs) {
      if (slot) this.slots.delete(key);
      const generation = this.generation;
      const page = load();
      slot = { at: now, page };
      this.slots.set(key, slot);
      if (this.slots.size > PAGE_CACHE_SIZE) this.slots.delete(this.slots.keys().next().value!);
      const stored = slot;
      page.then(
        () => {
          // A change came while the page was read: it may be older than the change, so it is not kept.
          if (this.generation !== generation && this.slots.get(key) === stored) this.slots.delete(key);
        },
        () => {
          if (this.slots.get(key) === stored) this.slots.delete(key);
        },
      );
    }
    const page = await slot.page;
    return viewerId !== null && page.anonymous.has(viewerId) ? page.renderFor(viewerId) : page.json;
  }

  /** Something shown on the boards changed: no page read before it is served again. */
  invalidate(): void {
    this.generation++;
    this.slots.clear();
  }

  get size(): number {
    return this.slots.size;
  }
}
