import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { EntityManager } from "typeorm";
import type { Log } from "../platform/log";
import { sqlRows } from "../platform/db/sql";
import type { Database } from "../platform/db/database";
import { RANKED_PLAYER } from "../platform/db/guest-rule";
import { newestId, sinceAfter } from "../core/events/id-tail";
import { DAY_MS, KEYS, NET_REASONS, scoreOf, windowKey, windowStart } from "./keys";
import type { BoardScripts } from "./scripts";
import { PROFILE_COLUMNS, PROFILE_JOIN, profileOfRow, type Profile, type ProfileStore } from "./profiles";
import { RECORD_SOURCES, unavailable, type BuildPositions, type RebuildReport } from "./types";

/** What a build tells the rest of the boards. */
export interface BuildHooks {
  /** A build was made or adopted: the consumers resume from its positions. */
  follow(build: BuildPositions): void;
  /** Boards changed ("*": all). */
  publish(keys: string[]): void;
  /** Waits until the ledger consumer applied every commit told to this process. */
  caughtUp(): Promise<void>;
}

const REBUILD_CHUNK = 50_000;
/** A build reads the week's ledger entries in ranges of this many ids (each statement well inside the statement timeout). */
export const WEEK_SCAN_IDS = 100_000;
const ZADD_CHUNK = 5000;
/** Ids below the build's top that may still commit are looked for this far back. */
const HOLE_SCAN_IDS = 100_000;
const LOCK_MS = 120_000;
/** A build younger than this is adopted at start instead of rebuilt (a sibling process just made it). */
const FRESH_BUILD_MS = 60_000;

/** A build's top: the snapshot's greatest ledger id, from the last partitions (`newestId`). */
export const BUILD_TOP = `SELECT COALESCE(${newestId("ledger_entries", "id")}, 0) AS top`;

/**
 * The ids a build's snapshot holds above `$1` (its top less HOLE_SCAN_IDS), whose missing ones are the
 * holes: no older than a day before the entry at `$1` (`sinceAfter`), so only the last partitions are read.
 */
export const BUILD_SEEN = `SELECT id FROM ledger_entries WHERE id > $1 AND created_at >= ${sinceAfter("ledger_entries", "id", "$1::bigint")} ORDER BY id`;

/**
 * The newest entry of ids `$1` < id <= `$2`, where the week's scan stops. Looked for among the entries
 * since `$3` first (a week before the stop, so the ranges near it read the week's partitions); only a
 * range with none of those (none at all, or all older) asks every partition, as before.
 */
export const RANGE_NEWEST = `SELECT COALESCE(
    (SELECT max(created_at) FROM ledger_entries WHERE id > $1 AND id <= $2 AND created_at >= $3::timestamptz),
    (SELECT max(created_at) FROM ledger_entries WHERE id > $1 AND id <= $2)) AS newest`;

/**
 * The builds: the boards are built from a consistent snapshot of PostgreSQL on start, whenever a read
 * or a consumer finds the build missing (Redis flushed or restarted), and when the periodic repair
 * check finds the balance board out of step with the players table. One process builds under a Redis
 * lock; the others adopt its build.
 */
export class BoardBuilds {
  /** The build this process follows (null until it made or adopted one). */
  epoch: string | null = null;
  private building: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly redis: Redis & BoardScripts,
    private readonly profiles: ProfileStore,
    private readonly hooks: BuildHooks,
    private readonly log: Log,
    /** Ledger ids per statement when a build reads the week (WEEK_SCAN_IDS; tests make it small). */
    private readonly scanIds = WEEK_SCAN_IDS,
  ) {}

  /** Builds the boards on start, or adopts a build a sibling process just made. */
  start(): Promise<void> {
    this.building = this.buildOnStart().finally(() => (this.building = null));
    this.building.catch((error) => this.log.error("leaderboard:build", "leaderboard build failed; the consumers retry it", error));
    return this.ensureBuilt();
  }

  /** Waits for a build under way, whatever its outcome. */
  async settle(): Promise<void> {
    await this.building?.catch(() => undefined);
  }

  /**
   * Makes sure a build exists and this process follows it. `checkRedis` looks at Redis even when this
   * process believes it knows the build (a read or a script found it missing or replaced).
   */
  ensureBuilt(checkRedis = false): Promise<void> {
    if (this.building) return this.building;
    if (this.epoch && !checkRedis) return Promise.resolve();
    this.building = (async () => {
      const meta = await this.redis.hgetall(KEYS.meta);
      if (meta.epoch) return this.adopt(meta);
      await this.buildOrWait();
    })().finally(() => (this.building = null));
    return this.building;
  }

  private async buildOnStart(): Promise<void> {
    const meta = await this.redis.hgetall(KEYS.meta);
    if (meta.epoch && Date.now() - Number(meta.builtAt ?? 0) < FRESH_BUILD_MS) return this.adopt(meta);
    await this.buildOrWait(Date.now());
  }

  /** Follows the build in Redis: its epoch, and each consumer resumes from the build's stored positions. */
  private async adopt(meta: Record<string, string>): Promise<void> {
    if (meta.epoch === this.epoch) return;
    const holes = (await this.redis.smembers(KEYS.holes)).map(Number);
    this.epoch = meta.epoch!;
    this.hooks.follow({
      epoch: this.epoch,
      ledger: Number(meta.position ?? 0),
      holes,
      speed: Number(meta.speed ?? 0),
      kills: Number(meta.kills ?? 0),
    });
  }

  /**
   * One process builds (a Redis lock) and answers how many players it ranked; the others wait for
   * that build, adopt it, and answer null. `since` ignores builds made before it (a forced rebuild).
   */
  private async buildOrWait(since = 0): Promise<number | null> {
    const token = randomUUID();
    if ((await this.redis.set(KEYS.rebuildLock, token, "PX", LOCK_MS, "NX")) === "OK") {
      try {
        return await this.build();
      } finally {
        await this.redis.eval(
          `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
          1,
          KEYS.rebuildLock,
          token,
        );
      }
    }
    const deadline = Date.now() + LOCK_MS;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const meta = await this.redis.hgetall(KEYS.meta);
      if (meta.epoch && Number(meta.builtAt ?? 0) >= since) {
        await this.adopt(meta);
        return null;
      }
      if (!(await this.redis.exists(KEYS.rebuildLock))) return this.buildOrWait(since);
    }
    throw unavailable();
  }

  /** Rebuilds every board from PostgreSQL now; reads keep answering from the previous build meanwhile. */
  async rebuild(): Promise<RebuildReport> {
    await this.building?.catch(() => undefined);
    const started = performance.now();
    const since = Date.now();
    let players: number | null = null;
    this.building = this.buildOrWait(since)
      .then((count) => void (players = count))
      .finally(() => (this.building = null));
    await this.building;
    return { players: players ?? (await this.redis.zcard(KEYS.balance)), ms: performance.now() - started, built: players !== null };
  }

  /**
   * Reads a consistent snapshot of PostgreSQL into fresh keys, then swaps them in with one MULTI. The
   * snapshot's top ledger id and its holes (ids taken by transactions still in flight) go into the
   * build, so entries committed during or after the build are applied exactly once on top of it.
   */
  private async build(): Promise<number> {
    const epoch = randomUUID();
    const temp = (name: string) => `${KEYS.buildPrefix}${epoch}:${name}`;
    const now = Date.now();
    const day = windowKey("day", now);
    const week = windowKey("week", now);
    const written = new Set<string>();
    const zadd = async (key: string, pairs: string[]) => {
      if (pairs.length === 0) return;
      const pipe = this.redis.pipeline();
      for (let i = 0; i < pairs.length; i += ZADD_CHUNK * 2) pipe.zadd(key, ...pairs.slice(i, i + ZADD_CHUNK * 2));
      for (const [error] of (await pipe.exec()) ?? []) if (error) throw error;
      written.add(key);
    };

    // Profiles read by the snapshot reflect every commit before this moment (see ProfileStore).
    const readAt = Date.now();
    const snapshot = await this.db.transaction(async (em) => {
      await sqlRows(em, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
      const [{ top }] = await sqlRows(em, BUILD_TOP);
      const topId = Number(top);
      const seen = await sqlRows<{ id: string }>(em, BUILD_SEEN, [Math.max(0, topId - HOLE_SCAN_IDS)]);
      const holes: number[] = [];
      let expected = Math.max(0, topId - HOLE_SCAN_IDS) + 1;
      for (const { id } of seen) {
        for (let missing = expected; missing < Number(id); missing++) holes.push(missing);
        expected = Number(id) + 1;
      }

      // One sequential scan through a cursor; each chunk goes to Redis while the next one is fetched.
      let players = 0;
      let writing: Promise<void> = Promise.resolve();
      await sqlRows(
        em,
        `DECLARE lb_players NO SCROLL CURSOR FOR SELECT ${PROFILE_COLUMNS} FROM players p ${PROFILE_JOIN} WHERE ${RANKED_PLAYER}`,
      );
      for (;;) {
        const rows = await sqlRows(em, `FETCH ${REBUILD_CHUNK} FROM lb_players`);
        await writing;
        if (rows.length === 0) break;
        players += rows.length;
        const pairs: string[] = new Array(rows.length * 2);
        const profiles = rows.map(profileOfRow);
        profiles.forEach((p, i) => {
          pairs[i * 2] = scoreOf("balance", p.balance);
          pairs[i * 2 + 1] = p.id;
        });
        writing = Promise.all([zadd(temp("balance"), pairs), this.storeProfiles(profiles, readAt)]).then(() => undefined);
      }
      await sqlRows(em, `CLOSE lb_players`);

      const nets = await netWinnings(em, topId, now, this.scanIds);
      await zadd(
        temp("week"),
        [...nets].flatMap(([id, net]) => [scoreOf("balance", net.week), id]),
      );
      await zadd(
        temp("day"),
        [...nets].filter(([, net]) => net.day !== null).flatMap(([id, net]) => [scoreOf("balance", net.day!), id]),
      );

      const recordTops: Record<string, number> = {};
      for (const board of ["speed", "kills"] as const) {
        const { table, column, best } = RECORD_SOURCES[board];
        const rows = await sqlRows(
          em,
          `SELECT r.player_id, ${best}(r.${column}) AS value FROM ${table} r JOIN players p ON p.id = r.player_id
            WHERE ${RANKED_PLAYER} GROUP BY r.player_id`,
        );
        await zadd(
          temp(board),
          rows.flatMap((r) => [scoreOf(board, Number(r.value)), r.player_id as string]),
        );
        const [{ top: recordTop }] = await sqlRows(em, `SELECT COALESCE(max(id), 0) AS top FROM ${table}`);
        // Records are bests, so reading a few again is harmless: start a little before the top.
        recordTops[board] = Math.max(0, Number(recordTop) - 1000);
      }
      return { topId, holes, players, recordTops };
    });

    const swap = this.redis.multi();
    const place = (name: string, live: string) => (written.has(temp(name)) ? swap.rename(temp(name), live) : swap.del(live));
    place("balance", KEYS.balance);
    place("speed", KEYS.speed);
    place("kills", KEYS.kills);
    place("day", day.key);
    place("week", week.key);
    swap.expireat(day.key, day.expireAt).expireat(week.key, week.expireAt);
    swap.del(KEYS.applied, KEYS.holes, KEYS.meta);
    if (snapshot.holes.length > 0) swap.sadd(KEYS.holes, ...snapshot.holes.map(String));
    const position = snapshot.holes.length > 0 ? Math.min(...snapshot.holes) - 1 : snapshot.topId;
    swap.hset(KEYS.meta, {
      epoch,
      top: String(snapshot.topId),
      position: String(position),
      speed: String(snapshot.recordTops.speed),
      kills: String(snapshot.recordTops.kills),
      builtAt: String(Date.now()),
    });
    for (const [error] of (await swap.exec()) ?? []) if (error) throw error;

    this.epoch = epoch;
    this.hooks.follow({
      epoch,
      ledger: snapshot.topId,
      holes: snapshot.holes,
      speed: snapshot.recordTops.speed!,
      kills: snapshot.recordTops.kills!,
    });
    this.hooks.publish(["*"]);
    return snapshot.players;
  }

  /** Stores a build's profiles in chunks (each chunk is one script run, so Redis stays responsive). */
  private async storeProfiles(profiles: Profile[], readAt: number): Promise<void> {
    for (let i = 0; i < profiles.length; i += ZADD_CHUNK) await this.profiles.store(profiles.slice(i, i + ZADD_CHUNK), readAt);
  }

  /**
   * The repair check: every ranked player older than `settleMs` must be on the balance board, and
   * nobody else. A board out of step (an update lost in a way the consumers cannot see) is rebuilt.
   */
  async repair(settleMs = 30_000): Promise<boolean> {
    await this.ensureBuilt(true);
    await this.hooks.caughtUp();
    const [counts] = await this.read((em) =>
      sqlRows<{ total: number; settled: number }>(
        em,
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE created_at <= now() - ($1::int * interval '1 millisecond'))::int AS settled
           FROM players p WHERE ${RANKED_PLAYER}`,
        [settleMs],
      ),
    );
    const onBoard = await this.redis.zcard(KEYS.balance);
    if (onBoard >= counts.settled && onBoard <= counts.total) return false;
    this.log.warn(
      "leaderboard:repair",
      `leaderboard out of step (${onBoard} ranked, ${counts.settled}–${counts.total} expected); rebuilding`,
    );
    await this.rebuild();
    return true;
  }

  private read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.db.run(work);
  }
}

/**
 * A build's net winnings per ranked player since the start of the UTC week (and of the day), read in
 * ranges of ledger ids from the snapshot's top downwards, so no statement grows with the week: one
 * GROUP BY over a whole week (a million players betting five times) outlived the service's statement
 * timeout, and the boards stayed unavailable after Redis was lost. An entry's `created_at` is its
 * transaction's start, so ids and times are only nearly in the same order: the scan stops at the first
 * range whose newest entry is older than a day before the week began (no transaction lasts a day).
 * `topId` is the snapshot's newest ledger id; run it inside that snapshot's transaction.
 */
export async function netWinnings(
  em: EntityManager,
  topId: number,
  now: number,
  scanIds = WEEK_SCAN_IDS,
): Promise<Map<string, { week: number; day: number | null }>> {
  const weekStart = new Date(windowStart("week", now));
  const dayStart = new Date(windowStart("day", now));
  const stopBefore = weekStart.getTime() - DAY_MS;
  const nets = new Map<string, { week: number; day: number | null }>();
  for (let high = topId; high > 0; high -= scanIds) {
    const low = Math.max(0, high - scanIds);
    const rows = await sqlRows(
      em,
      `SELECT e.player_id, sum(e.delta) AS week, sum(e.delta) FILTER (WHERE e.created_at >= $4) AS day
         FROM ledger_entries e JOIN players p ON p.id = e.player_id
        WHERE e.id > $1 AND e.id <= $2 AND e.created_at >= $3 AND e.reason = ANY($5::text[]) AND ${RANKED_PLAYER}
        GROUP BY e.player_id`,
      [low, high, weekStart, dayStart, [...NET_REASONS]],
    );
    for (const r of rows) {
      const net = nets.get(r.player_id as string) ?? { week: 0, day: null };
      net.week += Number(r.week);
      if (r.day !== null) net.day = (net.day ?? 0) + Number(r.day);
      nets.set(r.player_id as string, net);
    }
    const [{ newest }] = await sqlRows(em, RANGE_NEWEST, [low, high, new Date(stopBefore - 7 * DAY_MS)]);
    if (newest !== null && new Date(newest as string).getTime() < stopBefore) break;
  }
  return nets;
}
