import { sqlRows } from "../platform/db/sql";
import type { Database } from "../platform/db/database";
import type { RetentionConfig } from "../platform/config";
import type { Ledger } from "../ledger";
import type { Log } from "../platform/log";
import { guestSql } from "../platform/db/guest-rule";
import { makePartitionsAhead } from "../platform/db/partitions";

export interface SweepReport {
  settledRounds: number;
  prunedRequests: number;
  archivedGuests: number;
  prunedTonightJoins: number;
  /** Whole months after the current one that the partitioned tables have partitions for. */
  partitionMonthsAhead: number;
}

const ROUND_BATCH = 100;
const DELETE_BATCH = 5000;
const ARCHIVE_BATCH = 1000;
/** Batches one sweep may take of each kind, so a backlog is worked off over several sweeps. */
const MAX_BATCHES = 50;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The retention rules (docs/architecture/retention.md). None of them loses a coin:
 * - An open round with no action for `abandonedRoundMinutes` is settled by its game's documented
 *   default action through the ledger (or voided with its stake refunded when the player made no
 *   decision yet), exactly once, under the player's lock.
 * - Stored answers of requests older than `processedRequestDays` are deleted. The statement that writes
 *   a batch's entries looks each request id up in the ledger's last 35 days first (`ledger_refuse_reused`,
 *   core/ledger/engine/writes.ts; the entries are partitioned by month), so a reused id within them is
 *   refused (409), never run twice.
 * - A guest with no money request or room join for `guestArchiveDays` and no open round is archived:
 *   its rows and ledger entries stay, its session stops working.
 * - The tonight boards' starting points (`tonight_joins`) of days before yesterday are deleted; the
 *   rounds they counted stay in the history.
 * - The monthly partitions of the ledger and the rounds of this month and the next two are created if
 *   missing (platform/db/partitions.ts), under an advisory lock.
 *
 * Every process runs the sweep; it is safe concurrently: rows being worked on by another transaction
 * are skipped (`SKIP LOCKED`), and a round is settled only if it is still there under the player's
 * lock.
 */
export class Retention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly rules: RetentionConfig,
    private readonly log: Pick<Log, "error">,
  ) {}

  /** Sweeps every `sweepSeconds` until stopped. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweepOnce(), this.rules.sweepSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep, unless the previous one is still running. */
  private sweepOnce(): void {
    if (this.busy) return;
    this.busy = true;
    this.running = this.sweep()
      .catch((error: unknown) => this.log.error("retention", "retention sweep failed", error))
      .finally(() => (this.busy = false));
  }

  async sweep(now = new Date()): Promise<SweepReport> {
    // First: without this month's partition every bet fails.
    const partitionMonthsAhead = await makePartitionsAhead(this.db, now);
    const settledRounds = await this.settleAbandonedRounds(now);
    const prunedRequests = await this.pruneProcessedRequests(now);
    const archivedGuests = await this.archiveIdleGuests(now);
    const prunedTonightJoins = await this.pruneTonightJoins(now);
    return { settledRounds, prunedRequests, archivedGuests, prunedTonightJoins, partitionMonthsAhead };
  }

  async settleAbandonedRounds(now = new Date()): Promise<number> {
    const idleBefore = new Date(now.getTime() - this.rules.abandonedRoundMinutes * 60_000);
    let settled = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const rounds = await this.db.run((em) =>
        sqlRows<{ id: string; player_id: string }>(
          em,
          `SELECT id, player_id FROM open_rounds WHERE last_action_at < $1 ORDER BY last_action_at LIMIT $2`,
          [idleBefore, ROUND_BATCH],
        ),
      );
      let progressed = false;
      for (const round of rounds) {
        const done = await this.ledger.settleAbandonedRound(round.player_id, round.id, idleBefore);
        // Its commit announced the new balance (reason round_settled): the player's rooms close the round.
        if (!done) continue; // settled by another process, touched since, or the player is playing now
        settled += 1;
        progressed = true;
      }
      if (rounds.length < ROUND_BATCH || !progressed) break;
    }
    return settled;
  }

  async pruneProcessedRequests(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.rules.processedRequestDays * DAY_MS);
    let pruned = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const rows = await this.db.run((em) =>
        sqlRows(
          em,
          `DELETE FROM processed_requests WHERE (player_id, request_id) IN (
             SELECT player_id, request_id FROM processed_requests WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING 1`,
          [before, DELETE_BATCH],
        ),
      );
      pruned += rows.length;
      if (rows.length < DELETE_BATCH) break;
    }
    return pruned;
  }

  /**
   * The tonight boards' starting points of days before yesterday (UTC): a board shows today only, and
   * yesterday's rows are kept for an instance still running across midnight.
   */
  async pruneTonightJoins(now = new Date()): Promise<number> {
    let pruned = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const rows = await this.db.run((em) =>
        sqlRows(
          em,
          `DELETE FROM tonight_joins WHERE (instance_id, day, player_id) IN (
             SELECT instance_id, day, player_id FROM tonight_joins WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date - 1
              LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING 1`,
          [now, DELETE_BATCH],
        ),
      );
      pruned += rows.length;
      if (rows.length < DELETE_BATCH) break;
    }
    return pruned;
  }

  async archiveIdleGuests(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.rules.guestArchiveDays * DAY_MS);
    let archived = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      // Locked in the subquery and re-checked on the row's newest version: a guest who plays (which
      // takes their row lock and moves last_seen_at) while this runs is skipped, never archived.
      // NO KEY UPDATE, like the money path's lock: archiving changes no key, so a foreign-key check
      // on the row (a progress consumer's insert holds KEY SHARE until it commits) does not make
      // the sweep skip a guest it should archive.
      const rows = await this.db.run((em) =>
        sqlRows(
          em,
          `UPDATE players SET archived_at = now()
            WHERE id IN (
              SELECT p.id FROM players p
               WHERE ${guestSql()} AND p.archived_at IS NULL AND p.last_seen_at < $1
                 AND NOT EXISTS (SELECT 1 FROM open_rounds r WHERE r.player_id = p.id)
               ORDER BY p.last_seen_at LIMIT $2 FOR NO KEY UPDATE SKIP LOCKED)
           RETURNING id`,
          [before, ARCHIVE_BATCH],
        ),
      );
      archived += rows.length;
      if (rows.length < ARCHIVE_BATCH) break;
    }
    return archived;
  }
}
