/**
 * Token buckets per player, shared by all of the player's connections in this process: `perSecond`
 * bets a second on average, bursts up to twice that.
 */
export class BetRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; last: number }>();

  constructor(private readonly perSecond: number) {}

  take(playerId: string, now = Date.now()): boolean {
    const bucket = this.buckets.get(playerId) ?? { tokens: this.perSecond * 2, last: now };
    bucket.tokens = Math.min(this.perSecond * 2, bucket.tokens + ((now - bucket.last) / 1000) * this.perSecond);
    bucket.last = now;
    this.buckets.set(playerId, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    if (this.buckets.size > 10_000) this.evictIdle(now);
    return true;
  }

  /** Full buckets carry no information: drop them so the map stays small. */
  private evictIdle(now: number): void {
    for (const [id, b] of this.buckets) {
      if (b.tokens + ((now - b.last) / 1000) * this.perSecond >= this.perSecond * 2) this.buckets.delete(id);
    }
  }
}

let shared: BetRateLimiter | undefined;
export const betLimiter = (perSecond: number): BetRateLimiter => (shared ??= new BetRateLimiter(perSecond));
