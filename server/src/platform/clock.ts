/**
 * Time as the shared rooms read it. The rooms' round machines are pure (they take `now` as an
 * argument); the room that carries out their effects asks this clock for the time and for its timers,
 * so a test can run a room on a ManualClock and advance time instead of waiting for it.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
}

/** A timer of a Clock: opaque to its users. */
export type ClockTimer = { readonly id: number } | NodeJS.Timeout;

/** The real time of the process. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => {
    if (timer !== undefined) clearTimeout(timer as NodeJS.Timeout);
  },
};

interface ManualTimer {
  readonly id: number;
  at: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to. `advance(ms)` runs every timer that falls due, in time order
 * (timers set by a timer that fires are run too when they fall inside the step), letting promises
 * settle between timers so the room's awaited work finishes before the next one fires.
 */
export class ManualClock implements Clock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, ManualTimer>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    const timer: ManualTimer = { id: this.nextId++, at: this.time + Math.max(0, ms), fn };
    this.timers.set(timer.id, timer);
    return { id: timer.id };
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (timer && "id" in timer && typeof timer.id === "number") this.timers.delete(timer.id);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, running each timer that falls due at its own moment. */
  async advance(ms: number): Promise<void> {
    const end = this.time + Math.max(0, ms);
    for (;;) {
      await settle();
      const due = [...this.timers.values()].filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers.delete(due.id);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = end;
    await settle();
  }
}

/** Lets queued promise callbacks (and the I/O they wait on, one turn of the event loop) run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
