/**
 * "Stop accepting work, finish what is in flight" for one process. HTTP requests and room messages are
 * counted while they run; once draining starts, new ones are refused and `drain` waits until the
 * count reaches zero or the time is up.
 */
export class Lifecycle {
  private inFlight = 0;
  private draining = false;
  private waiters: (() => void)[] = [];

  get accepting(): boolean {
    return !this.draining;
  }

  get pending(): number {
    return this.inFlight;
  }

  /** Counts one unit of work; call the returned function (once, extra calls are ignored) when it ends. */
  begin(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.waiters.splice(0)) wake();
    };
  }

  async track<T>(work: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Refuses new work from now on; resolves true once nothing is in flight, false if `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
