import type { Redis } from "ioredis";
import type { Presence } from "@colyseus/core";
import type { EntityManager } from "typeorm";
import type { Log } from "../platform/log";
import { sqlPrepared, sqlRows } from "../platform/db/sql";
import { RANKED_PLAYER } from "../platform/db/guest-rule";
import { KEYS, NET_REASONS, scoreOf, windowKey } from "./keys";
import type { BoardScripts } from "./scripts";
import { IdTail, TailSince, gapParams, sinceAfter, tailBound } from "../core/events/id-tail";
import { DrainLoop } from "../core/events/drain-loop";
import { BOARD_CHANGES_CHANNEL, RECORD_SOURCES, type BoardChange, type BuildPositions } from "./types";

interface LedgerRow {
  id: number;
  playerId: string;
  delta: number;
  balanceAfter: number;
  reason: string;
  createdAt: number;
  /** The player is not ranked (see RANKED_PLAYER): the entry moves no board. */
  unranked: boolean;
}

interface RecordRow {
  id: number;
  playerId: string;
  value: number;
  unranked: boolean;
}

/** What the consumers need of the builds: the build they apply to, and a way to get one. */
export interface ConsumerHooks {
  readonly epoch: string | null;
  ensureBuilt(checkRedis?: boolean): Promise<void>;
}

export const READ_BATCH = 1000;
const GAP_TTL_MS = 60_000;

const ledgerRow = (r: Record<string, unknown>): LedgerRow => ({
  id: Number(r.id),
  playerId: r.player_id as string,
  delta: Number(r.delta),
  balanceAfter: Number(r.balance_after),
  reason: r.reason as string,
  createdAt: new Date(r.created_at as string).getTime(),
  unranked: r.unranked === true,
});
const recordRow = (r: Record<string, unknown>): RecordRow => ({
  id: Number(r.id),
  playerId: r.player_id as string,
  value: Number(r.value),
  unranked: r.unranked === true,
});

/** What the ledger consumer reads of an entry (and whether its player is ranked). */
export const LEDGER_COLUMNS = `e.id, e.player_id, e.delta, e.balance_after, e.reason, e.created_at, NOT (${RANKED_PLAYER}) AS unranked
  FROM ledger_entries e JOIN players p ON p.id = e.player_id`;

/**
 * The ledger consumer's read: the next entries after its position, in id order (the ledger is the
 * outbox), no older than `$3` (`TailSince`: the newest entry read less a day; until the first entry
 * after a start or a rebuild, the time of the entry at its position less a day, `sinceAfter`), so
 * PostgreSQL reads the last of the monthly partitions only.
 */
export const LEDGER_TAIL = `SELECT ${LEDGER_COLUMNS}
  WHERE e.id > $1 AND e.created_at >= ${tailBound("ledger_entries", "id", "$1::bigint", "$3::timestamptz")} ORDER BY e.id LIMIT $2`;

/**
 * The ledger consumer's read of the ids it still waits for (`$1`), no older than a day before the entry
 * below the lowest of them (`$2`, that id less one): the recent partitions only.
 */
export const LEDGER_GAPS = `SELECT ${LEDGER_COLUMNS}
  WHERE e.id = ANY($1::bigint[]) AND e.created_at >= ${sinceAfter("ledger_entries", "id", "$2::bigint")}`;

/**
 * The consumers: the ledger is the outbox. One tails `ledger_entries` by id (woken by the ledger's
 * commit hook, and by a timer for commits on other processes) and applies each entry once to the
 * balance board and to the day and week boards of net winnings; another tails `dots_speed_records` and
 * `dot_battle_scores`, whose new bests `recordBest` also applies at once.
 */
export class BoardConsumers {
  private readonly ledgerTail: IdTail<LedgerRow>;
  private readonly ledgerSince = new TailSince();
  private readonly recordTails: Record<"speed" | "kills", IdTail<RecordRow>>;
  readonly ledgerLoop: DrainLoop;
  readonly recordLoop: DrainLoop;
  /** When each consumer position (ledger, speed, kills) was last stored. */
  private readonly positionWrites = new Map<string, number>();

  constructor(
    private readonly read: <T>(work: (em: EntityManager) => Promise<T>) => Promise<T>,
    private readonly redis: Redis & BoardScripts,
    private readonly presence: Presence,
    private readonly builds: ConsumerHooks,
    log: Log,
    /**
     * Called whenever this process has written to the boards or read entries that may change them
     * (applied here or already by another process), before a read waiting for them goes on.
     */
    private readonly changed: () => void = () => undefined,
  ) {
    this.ledgerTail = new IdTail<LedgerRow>(
      (after, limit) =>
        this.read((em) => sqlPrepared(em, LEDGER_TAIL, [after, limit, this.ledgerSince.since])).then((r) => {
          const rows = r.map(ledgerRow);
          this.ledgerSince.saw(rows.map((row) => row.createdAt));
          return rows;
        }),
      (ids) => this.read((em) => sqlPrepared(em, LEDGER_GAPS, gapParams(ids))).then((r) => r.map(ledgerRow)),
      { batch: READ_BATCH, gapTtlMs: GAP_TTL_MS },
    );
    const recordTail = (board: "speed" | "kills") => {
      const { table, column } = RECORD_SOURCES[board];
      const columns = `r.id, r.player_id, r.${column} AS value, NOT (${RANKED_PLAYER}) AS unranked FROM ${table} r JOIN players p ON p.id = r.player_id`;
      return new IdTail<RecordRow>(
        (after, limit) =>
          this.read((em) => sqlRows(em, `SELECT ${columns} WHERE r.id > $1 ORDER BY r.id LIMIT $2`, [after, limit])).then((r) =>
            r.map(recordRow),
          ),
        (ids) => this.read((em) => sqlRows(em, `SELECT ${columns} WHERE r.id = ANY($1::int[])`, [ids])).then((r) => r.map(recordRow)),
        { batch: READ_BATCH, gapTtlMs: GAP_TTL_MS },
      );
    };
    this.recordTails = { speed: recordTail("speed"), kills: recordTail("kills") };
    this.ledgerLoop = new DrainLoop("leaderboard ledger consumer", () => this.drainLedger(), 1_000, log);
    this.recordLoop = new DrainLoop("leaderboard record consumer", () => this.drainRecords(), 2_000, log);
  }

  /** The id of the last ledger entry the consumer has read (its lag is a metric). */
  get ledgerPosition(): number {
    return this.ledgerTail.head;
  }

  /** A build was made or adopted: each consumer resumes from the build's positions. */
  follow(build: BuildPositions): void {
    this.ledgerTail.reset(build.ledger, build.holes);
    this.ledgerSince.reset();
    this.recordTails.speed.reset(build.speed);
    this.recordTails.kills.reset(build.kills);
  }

  /** Tells the rooms (through presence) which boards changed. */
  publish(keys: string[]): void {
    this.changed();
    const change: BoardChange = { keys };
    void Promise.resolve(this.presence.publish(BOARD_CHANGES_CHANNEL, change)).catch(() => undefined);
  }

  /** A new best of a player on a record board: applied at once, if it is better. */
  async recordBest(board: "speed" | "kills", playerId: string, value: number): Promise<void> {
    const [player] = await this.read((em) =>
      sqlRows(em, `SELECT NOT (${RANKED_PLAYER}) AS unranked FROM players p WHERE p.id = $1`, [playerId]),
    );
    if (!player || player.unranked === true) return;
    await this.builds.ensureBuilt();
    let result = await this.redis.applyBest(KEYS.meta, KEYS[board], this.builds.epoch!, playerId, scoreOf(board, value));
    if (result === "stale") {
      await this.builds.ensureBuilt(true);
      result = await this.redis.applyBest(KEYS.meta, KEYS[board], this.builds.epoch!, playerId, scoreOf(board, value));
    }
    this.changed();
    if (result && result !== "stale") this.publish([KEYS[board]]);
    this.recordLoop.nudge();
  }

  private async drainLedger(): Promise<void> {
    await this.builds.ensureBuilt();
    for (;;) {
      const { rows, more, ack } = await this.ledgerTail.next();
      const ranked = rows.filter((r) => !r.unranked);
      if (ranked.length > 0) {
        const args: string[] = [];
        const netReasons: readonly string[] = NET_REASONS;
        for (const r of ranked) {
          const day = windowKey("day", r.createdAt);
          const week = windowKey("week", r.createdAt);
          const net = netReasons.includes(r.reason) ? scoreOf("balance", r.delta) : "";
          args.push(
            r.playerId,
            String(r.id),
            scoreOf("balance", r.balanceAfter),
            net,
            day.key,
            String(day.expireAt),
            week.key,
            String(week.expireAt),
          );
        }
        // The cache is emptied even when the answer is lost: the script may have run all the same.
        const result = await this.redis
          .applyLedger(KEYS.meta, KEYS.applied, KEYS.balance, KEYS.holes, this.builds.epoch!, String(ranked.length), ...args)
          .finally(this.changed);
        if (result === "stale") return this.restartAfterRebuild();
        if (result) {
          const applied = new Set(result.split(","));
          const keys = new Set<string>([KEYS.balance]);
          for (const r of ranked) {
            if (applied.has(r.playerId) && netReasons.includes(r.reason)) {
              keys.add(windowKey("day", r.createdAt).key);
              keys.add(windowKey("week", r.createdAt).key);
            }
          }
          this.publish([...keys]);
        }
      }
      ack();
      await this.savePosition("position", this.ledgerTail.safePosition, !more);
      if (!more) return;
    }
  }

  private async drainRecords(): Promise<void> {
    await this.builds.ensureBuilt();
    for (const board of ["speed", "kills"] as const) {
      const tail = this.recordTails[board];
      for (;;) {
        const { rows, more, ack } = await tail.next();
        const pairs = rows.filter((r) => !r.unranked).flatMap((r) => [r.playerId, scoreOf(board, r.value)]);
        if (pairs.length > 0) {
          const result = await this.redis.applyBest(KEYS.meta, KEYS[board], this.builds.epoch!, ...pairs).finally(this.changed);
          if (result === "stale") return this.restartAfterRebuild();
          if (result) this.publish([KEYS[board]]);
        }
        ack();
        await this.savePosition(board, tail.safePosition, !more);
        if (!more) break;
      }
    }
  }

  /** Persists a consumer's safe position now and then (a restarted process resumes from it). */
  private async savePosition(field: string, position: number, caughtUp: boolean): Promise<void> {
    // Once a second while entries stream in; a consumer that caught up writes sooner (up to 5 a second).
    const now = Date.now();
    if (now - (this.positionWrites.get(field) ?? 0) < (caughtUp ? 200 : 1000)) return;
    this.positionWrites.set(field, now);
    await this.redis.raisePosition(KEYS.meta, this.builds.epoch!, field, String(position));
  }

  private async restartAfterRebuild(): Promise<void> {
    await this.builds.ensureBuilt(true);
    this.ledgerLoop.nudge();
    this.recordLoop.nudge();
  }
}
