import type { Log } from "../../platform/log";

/** The least time between the starts of two drains of one consumer. */
export const DRAIN_GAP_MS = 20;
/**
 * Runs a consumer's drain when nudged (a commit on this process) and on a timer (commits on other
 * processes, missed nudges), one drain at a time: nudges during a drain queue exactly one more.
 * Drains start at least `minGapMs` apart: a nudge after a quiet spell drains at once, while under a
 * stream of commits each drain takes what arrived in the gap, instead of one drain (and its round
 * trips to PostgreSQL and Redis) per commit. `settled()` lets a reader wait until every nudge made
 * before it has been drained, so a read on the process where a movement committed sees that movement.
 */
export class DrainLoop {
  private running: Promise<void> | null = null;
  private requested = 0;
  private completed = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private gapTimer: NodeJS.Timeout | undefined;
  private lastStart = -Infinity;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly drain: () => Promise<void>,
    private readonly intervalMs: number,
    /** Where failures go: rate-limited, so an outage is a few lines, not one stack a tick. */
    private readonly log: Pick<Log, "error">,
    private readonly minGapMs = DRAIN_GAP_MS,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.nudge(), this.intervalMs);
    this.timer.unref();
    this.nudge();
  }

  stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    if (!this.running) for (const w of this.waiters.splice(0)) w.resolve();
    return this.running ?? Promise.resolve();
  }

  nudge(): void {
    this.requested++;
    this.pump();
  }

  private pump(): void {
    if (this.running || this.stopped || this.gapTimer) return;
    const wait = this.lastStart + this.minGapMs - performance.now();
    if (wait > 0) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        this.pump();
      }, wait);
      return;
    }
    this.lastStart = performance.now();
    const upTo = this.requested;
    this.running = this.drain()
      .catch((error) => this.log.error(`drain:${this.name}`, `${this.name} failed; it retries on the next tick`, error))
      .finally(() => {
        this.running = null;
        this.completed = Math.max(this.completed, upTo);
        this.waiters = this.waiters.filter((w) => (w.upTo <= this.completed ? (w.resolve(), false) : true));
        if (this.requested > this.completed && !this.stopped) this.pump();
        else if (this.stopped) for (const w of this.waiters.splice(0)) w.resolve();
      });
  }

  /** Undefined when nothing is pending (no await needed); else resolves once the pending nudges are drained. */
  settled(): Promise<void> | undefined {
    if (this.completed >= this.requested) return undefined;
    const upTo = this.requested;
    return new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  /** Nudges and waits until that nudge is drained. */
  async catchUp(): Promise<void> {
    this.nudge();
    await this.settled();
  }
}
