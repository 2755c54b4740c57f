/**
 * A token bucket: `perSecond` on average, bursts up to `burst`. `take()` resolves when a token is free,
 * so a caller that awaits it never exceeds the rate. A disabled bucket never waits.
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly enabled = true,
  ) {
    this.tokens = burst;
  }

  async take(): Promise<void> {
    if (!this.enabled) return;
    for (;;) {
      const now = performance.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
