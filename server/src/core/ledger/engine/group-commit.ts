import type { EntityManager } from "typeorm";
import { isConnectFailure, isConnectionTrouble, sqlState, type Database } from "../../../platform/db/database";
import type { Pipe } from "../../../platform/db/pipeline";
import { countGroupCommit } from "../../metrics";

/** What a batch's caller is told of one member: its answer, or the error that member alone met. */
export type MemberOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/** Counters of what the group commit did, since the process started (read by tests and diagnostics). */
export interface GroupCommitStats {
  /** Batches run (each one transaction and one commit, whatever its tries). */
  batches: number;
  /** Tries of batches: more than `batches` when a deadlock made a batch run again. */
  tries: number;
  /** Members submitted to batches. */
  members: number;
  /** Members that shared their batch with at least one other. */
  shared: number;
  /** The largest batch. */
  largest: number;
  /** Batches that committed. */
  committed: number;
}

export interface GroupCommitOptions<M> {
  /** The most members one batch takes; later arrivals wait for the next batch. */
  maxBatch: number;
  /** Batches that may run at once (each on its own connection). */
  maxInFlight: number;
  /**
   * A new batch starts beside running ones only once this long has passed since the last batch
   * started (0: at once, up to `maxInFlight`). One batch at a time makes the largest batches and the
   * fewest commits; a batch that stalls (a lock wait, a slow commit) still lets the next ones start
   * after this delay instead of holding them.
   */
  overlapAfterMs?: number;
  /**
   * Members of the same key (a player) never run in two batches at once: one that arrives while its key
   * is in a running batch waits for the batch after it, where it sees what the earlier one committed.
   */
  keyOf: (member: M) => string;
}

/**
 * The database did not answer at all (no connection, a client-side timeout, a broken connection), as
 * opposed to answering with an error of its own (a SQLSTATE: a statement or lock timeout, a deadlock).
 */
const noAnswer = (error: unknown): boolean =>
  isConnectFailure(error) || (isConnectionTrouble(error) && !/^[0-9A-Z]{5}$/.test(sqlState(error) ?? ""));

/** Thrown by `execute` to roll the batch back and run it once more at once, told that it is a second run. */
export class RunAgain extends Error {}

/**
 * Group commit: work that arrives together shares one transaction and one COMMIT. A batch takes
 * everything waiting when it starts (up to `maxBatch`); while batches run, new arrivals wait and become
 * the next batch as soon as one of them has committed (no artificial delay: the busier the database,
 * the larger the batches). Up to `maxInFlight` batches run at once, each on its own connection, a new
 * one beside running ones only `overlapAfterMs` after the last one started, and never two with the
 * same key: a key's later members wait for its running batch.
 *
 * `execute` runs the members inside the batch's transaction and answers one outcome per member, in
 * order; isolating one member's failure from the others (savepoints) is its business. Callers are
 * answered only once the transaction has committed. If it does not (the commit, or anything that
 * aborts the whole transaction, fails), every member is answered with that error, and nothing of the
 * batch was applied. A deadlock or serialisation failure runs the whole batch again
 * (`Database.transaction`); since the failed try was rolled back as a whole, nothing is applied twice.
 */
export class GroupCommit<M, R> {
  readonly stats: GroupCommitStats = { batches: 0, tries: 0, members: 0, shared: 0, largest: 0, committed: 0 };
  private waiting: { member: M; settle: (outcome: MemberOutcome<R>) => void; fail: (error: unknown) => void }[] = [];
  private inFlight = 0;
  private pumpQueued = false;
  /** Keys of the members of running batches. */
  private readonly busy = new Set<string>();
  /** When the last batch started (performance.now()). */
  private lastStart = -Infinity;
  /** Set while waiters wait only for `overlapAfterMs` to pass since the last start. */
  private overlapTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    /**
     * Runs the members in the batch's transaction; `again` is true on the run after a `RunAgain`. It may
     * commit through `pipe` right behind its last write; otherwise the transaction commits once it returns.
     */
    private readonly execute: (em: EntityManager, members: M[], again: boolean, pipe: Pipe) => Promise<MemberOutcome<R>[]>,
    private readonly options: GroupCommitOptions<M>,
  ) {
    // The members still waiting were never sent: when the breaker opens, they are refused at once
    // rather than left behind a batch that waits out its timeout.
    db.breaker.onTrip((error) => {
      const refused = this.waiting;
      this.waiting = [];
      for (const w of refused) w.fail(error);
    });
  }

  /**
   * Runs `member` in the next batch; resolves with its outcome once the batch committed, rejects if it
   * did not. Refused at once while the database breaker is open.
   */
  submit(member: M): Promise<MemberOutcome<R>> {
    if (this.db.breaker.open) return Promise.reject(this.db.breaker.refusal());
    return new Promise((settle, fail) => {
      this.waiting.push({ member, settle, fail });
      // Everything submitted in the same turn of the event loop joins the same batch.
      if (!this.pumpQueued) {
        this.pumpQueued = true;
        queueMicrotask(() => {
          this.pumpQueued = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.inFlight < this.options.maxInFlight) {
      if (this.inFlight > 0) {
        const wait = this.lastStart + (this.options.overlapAfterMs ?? 0) - performance.now();
        if (wait > 0) {
          this.overlapTimer ??= setTimeout(() => {
            this.overlapTimer = undefined;
            this.pump();
          }, wait);
          return;
        }
      }
      const batch: typeof this.waiting = [];
      const later: typeof this.waiting = [];
      for (const w of this.waiting) {
        if (batch.length < this.options.maxBatch && !this.busy.has(this.options.keyOf(w.member))) batch.push(w);
        else later.push(w);
      }
      if (batch.length === 0) return;
      this.waiting = later;
      const keys = new Set(batch.map((w) => this.options.keyOf(w.member)));
      for (const key of keys) this.busy.add(key);
      this.inFlight++;
      this.lastStart = performance.now();
      void this.run(batch).finally(() => {
        for (const key of keys) this.busy.delete(key);
        this.inFlight--;
        if (this.inFlight === 0) {
          clearTimeout(this.overlapTimer);
          this.overlapTimer = undefined;
        }
        this.pump();
      });
    }
  }

  private async run(batch: GroupCommit<M, R>["waiting"]): Promise<void> {
    const s = this.stats;
    s.batches++;
    s.members += batch.length;
    if (batch.length > 1) s.shared += batch.length;
    s.largest = Math.max(s.largest, batch.length);
    const members = batch.map((w) => w.member);
    let outcomes: MemberOutcome<R>[];
    // A batch still running after the health timeout may be waiting on a database that does not
    // answer: a health check then tells (and, with no answer, opens the breaker).
    const stalled = this.db.embedded ? undefined : setTimeout(() => void this.db.ping(), this.db.healthTimeoutMs);
    try {
      for (let again = false; ; again = true) {
        try {
          outcomes = await this.db.transaction((em, pipe) => {
            s.tries++;
            return this.execute(em, members, again, pipe);
          });
          break;
        } catch (error) {
          if (error instanceof RunAgain && !again) continue;
          if (noAnswer(error)) this.db.breaker.trip("a batch of money requests got no answer in time");
          countGroupCommit(batch.length, false);
          for (const w of batch) w.fail(error);
          return;
        }
      }
    } finally {
      clearTimeout(stalled);
    }
    s.committed++;
    countGroupCommit(batch.length, true);
    batch.forEach((w, i) => w.settle(outcomes[i] ?? { ok: false, error: new Error("no outcome for a member of the batch") }));
  }
}
