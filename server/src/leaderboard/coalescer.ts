import type { Log } from "../platform/log";

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Runs `run` after a trigger, at most once per `minIntervalMs`: triggers that arrive while a run is
 * waiting or going are folded into the next run. Runs never overlap.
 */
export class Coalescer {
  private timer: unknown = null;
  private last = -Infinity;
  private running = false;
  private pending = false;
  private disposed = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly minIntervalMs: number,
    private readonly log: Pick<Log, "error">,
    private readonly clock: Clock = realClock,
  ) {}

  trigger(): void {
    if (this.disposed) return;
    if (this.timer !== null || this.running) {
      this.pending = true;
      return;
    }
    const wait = Math.max(0, this.last + this.minIntervalMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => void this.fire(), wait);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private async fire(): Promise<void> {
    this.timer = null;
    this.last = this.clock.now();
    this.running = true;
    this.pending = false;
    try {
      await this.run();
    } catch (error) {
      this.log.error("coalesced-update", "coalesced update failed", error);
    } finally {
      this.running = false;
      if (this.pending) {
        this.pending = false;
        this.trigger();
      }
    }
  }
}
