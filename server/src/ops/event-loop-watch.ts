import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import type { Log } from "../platform/log";

/** A blocked event loop worth a line in the log: every room and request on the process waited this long. */
export const EVENT_LOOP_WARN_MS = 200;
/** How often the delays measured since the last look are read. */
const CHECK_EVERY_MS = 10_000;

/**
 * Watches the event loop's delay (node's own histogram, sampled every 20 ms) and logs a warning when
 * it was blocked for `warnMs` or more since the last look: the one place an operator (or a bench's
 * server output) learns that every player on the process waited, and for how long.
 */
export class EventLoopWatch {
  private histogram: IntervalHistogram | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Pick<Log, "warn">,
    private readonly warnMs = EVENT_LOOP_WARN_MS,
    private readonly checkEveryMs = CHECK_EVERY_MS,
  ) {}

  start(): void {
    if (this.histogram) return;
    const histogram = monitorEventLoopDelay({ resolution: 20 });
    histogram.enable();
    this.histogram = histogram;
    this.timer = setInterval(() => this.check(), this.checkEveryMs);
    this.timer.unref();
  }

  /** How many delays were sampled since the last look (one per 20 ms of a free loop). */
  get samples(): number {
    return this.histogram?.count ?? 0;
  }

  /** Reads and resets the delays measured since the last look; warns when the longest reached `warnMs`. */
  check(): void {
    const histogram = this.histogram;
    if (!histogram || histogram.count === 0) return;
    // The histogram counts in nanoseconds, from the sampling timer's due time (its 20 ms included).
    const worstMs = Math.max(0, histogram.max / 1e6 - 20);
    const p99Ms = Math.max(0, histogram.percentile(99) / 1e6 - 20);
    histogram.reset();
    if (worstMs >= this.warnMs) {
      this.log.warn(
        "event-loop",
        `the event loop was blocked for up to ${Math.round(worstMs)} ms in the last ${this.checkEveryMs / 1000} s (p99 of its delays ${Math.round(p99Ms)} ms)`,
      );
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram?.disable();
    this.histogram = undefined;
  }
}
