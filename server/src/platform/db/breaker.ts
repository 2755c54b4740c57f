import { setTimeout as sleep } from "node:timers/promises";

/**
 * Thrown at once for a money request while the breaker is open: nothing was sent to the database, so
 * nothing happened. Reported like an outage (`unavailable` and its human text, one log line per window).
 */
export class DatabaseUnavailable extends Error {
  readonly code = BREAKER_OPEN;
  constructor(reason: string) {
    super(`database breaker open: ${reason}`);
    this.name = "DatabaseUnavailable";
  }
}

/** The error code of `DatabaseUnavailable` (an outage code, see log.ts). */
export const BREAKER_OPEN = "DB_BREAKER_OPEN";

/**
 * The database breaker: once the database has shown it does not answer (a money batch failed on a
 * timeout or a broken connection, or a health check found no answer within DB_HEALTH_TIMEOUT_MS), money
 * requests are refused at once instead of queuing behind work that is itself waiting out its timeout,
 * and the ones already queued (not yet sent) are answered the same way. While open, it probes the
 * database (`SELECT 1`, within the health timeout) every `probeEveryMs`; the first probe or health
 * check that gets an answer closes it.
 */
export class DatabaseBreaker {
  private openedAt: number | null = null;
  private reason = "";
  private probing = false;
  private readonly tripListeners = new Set<(error: DatabaseUnavailable) => void>();
  /** Told when the breaker opens or closes (the log). */
  onChange: (open: boolean, reason: string, openForMs: number) => void = () => undefined;

  constructor(
    /** One probe: true when the database answered in time. */
    private readonly probe: () => Promise<boolean>,
    private readonly probeEveryMs: number,
  ) {}

  get open(): boolean {
    return this.openedAt !== null;
  }

  /** The error to refuse a request with while open. */
  refusal(): DatabaseUnavailable {
    return new DatabaseUnavailable(this.reason);
  }

  /** Opens the breaker (if closed) and probes until the database answers. */
  trip(reason: string): void {
    if (this.openedAt !== null) return;
    this.openedAt = performance.now();
    this.reason = reason;
    this.onChange(true, reason, 0);
    const error = this.refusal();
    for (const listener of this.tripListeners) listener(error);
    void this.probeUntilAnswered();
  }

  /** The database answered (a probe or a health check): closes the breaker. */
  answered(): void {
    if (this.openedAt === null) return;
    const openForMs = performance.now() - this.openedAt;
    this.openedAt = null;
    this.onChange(false, this.reason, openForMs);
  }

  /** Calls `listener` each time the breaker opens. */
  onTrip(listener: (error: DatabaseUnavailable) => void): () => void {
    this.tripListeners.add(listener);
    return () => this.tripListeners.delete(listener);
  }

  private async probeUntilAnswered(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      while (this.open) {
        // The probe reports its own answer (Database.ping tells the breaker): an answer closes it.
        if (await this.probe().catch(() => false)) this.answered();
        if (this.open) await sleep(this.probeEveryMs, undefined, { ref: false });
      }
    } finally {
      this.probing = false;
    }
  }
}
