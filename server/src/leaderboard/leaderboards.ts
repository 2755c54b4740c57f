import type { Log } from "../log";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Presence } from "@colyseus/core";
import type { EntityManager } from "typeorm";
import type {
  BalanceEntry,
  BoardAnswer,
  BoardEntry,
  KillsEntry,
  LeaderboardBoard,
  LeaderboardScope,
  LeaderboardWindow,
  RankAnswer,
  SpeedEntry,
} from "@casino/common";
import { sqlPrepared, sqlRows } from "../db/sql";
import type { Database } from "../db/database";
import type { Guilds } from "../players/guilds";
import type { Instances } from "../players/instances";
import { AppError } from "../errors";
import { RANKED_PLAYER } from "../players/guest-rule";
import { DAY_MS, KEYS, NET_REASONS, boardKey, scoreOf, valueOf, windowKey, windowStart } from "./keys";
import { boardScripts, type BoardScripts } from "./scripts";
import { IdTail } from "./id-tail";
import { DrainLoop } from "./drain-loop";
import { PROFILE_COLUMNS, PROFILE_JOIN, ProfileStore, loadProfiles, presentPlayer, profileOfRow, type Profile } from "./profiles";

/** Which board, over which players, for which period. */
export interface BoardSpec {
  board: LeaderboardBoard;
  window: LeaderboardWindow;
  scope: LeaderboardScope;
  /** The guild id or instance id of a scoped board. */
  scopeId?: string;
}

/**
 * Published on the presence channel after boards change: the sorted sets that changed ("*": all), and
 * the players whose profile (name, avatar, tag, anonymous mode) changed.
 */
export interface BoardChange {
  keys: string[];
  players?: string[];
}
export const BOARD_CHANGES_CHANNEL = "leaderboard:changes";

export interface RebuildReport {
  players: number;
  ms: number;
  /** This call made the build (false: it waited for, and adopted, a build another process made meanwhile). */
  built: boolean;
}

interface LedgerRow {
  id: number;
  playerId: string;
  delta: number;
  balanceAfter: number;
  reason: string;
  createdAt: number;
  /** The player is not ranked (see RANKED): the entry moves no board. */
  unranked: boolean;
}

interface RecordRow {
  id: number;
  playerId: string;
  value: number;
  unranked: boolean;
}

export interface RankedRow {
  playerId: string;
  /** The stored score (see keys.ts); `valueOf` turns it back into the board's value. */
  score: string;
}

export interface Ranked {
  total: number;
  rows: RankedRow[];
}

const READ_BATCH = 1000;
const REBUILD_CHUNK = 50_000;
/** A build reads the week's ledger entries in ranges of this many ids (each statement well inside the statement timeout). */
const WEEK_SCAN_IDS = 100_000;
const ZADD_CHUNK = 5000;
/** Ids below the build's top that may still commit are looked for this far back. */
const HOLE_SCAN_IDS = 100_000;
const GAP_TTL_MS = 60_000;
const LOCK_MS = 120_000;
/** A build younger than this is adopted at start instead of rebuilt (a sibling process just made it). */
const FRESH_BUILD_MS = 60_000;
const REPAIR_INTERVAL_MS = 60_000;
/** How long a profile change waits for its copy on the boards before it is answered anyway. */
const PROFILE_REFRESH_WAIT_MS = 1000;

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

const RANKED = RANKED_PLAYER;

const LEDGER_COLUMNS = `e.id, e.player_id, e.delta, e.balance_after, e.reason, e.created_at, NOT (${RANKED}) AS unranked
  FROM ledger_entries e JOIN players p ON p.id = e.player_id`;

const RECORD_SOURCES = {
  speed: { table: "dots_speed_records", column: "completion_time_ms", best: "min" },
  kills: { table: "dot_battle_scores", column: "kills", best: "max" },
} as const;

/**
 * The leaderboards: Redis sorted sets as the read path, PostgreSQL as the truth.
 *
 * The ledger is the outbox: a consumer tails `ledger_entries` by id (woken by the ledger's commit hook,
 * and by a timer for commits on other processes) and applies each entry once to the balance board
 * and to the day and week boards of net winnings. Records are tailed the same way from
 * `dots_speed_records` and `dot_battle_scores`, and applied at once by `recordSpeed`/`recordKills`.
 * A board is built from a consistent snapshot of PostgreSQL on start, whenever it is found missing
 * (Redis flushed or restarted), and when a periodic check finds it out of step with the players table.
 */
export class Leaderboards {
  private readonly redis: Redis & BoardScripts;
  private epoch: string | null = null;
  private building: Promise<void> | null = null;
  private readonly ledgerTail: IdTail<LedgerRow>;
  private readonly recordTails: Record<"speed" | "kills", IdTail<RecordRow>>;
  private readonly ledgerLoop: DrainLoop;
  private readonly recordLoop: DrainLoop;
  private repairTimer: NodeJS.Timeout | undefined;
  /** When each consumer position (ledger, speed, kills) was last stored. */
  private readonly positionWrites = new Map<string, number>();
  private started = false;
  private readonly profiles: ProfileStore;
  /** SPECIAL_BADGES: Discord id → the badge as JSON, for pages pasted together as text. */
  private readonly badgeJsons: ReadonlyMap<string, string>;

  constructor(
    private readonly db: Database,
    redis: Redis,
    private readonly presence: Presence,
    private readonly guilds: Guilds,
    private readonly instances: Instances,
    private readonly badges: ReadonlyMap<string, string>,
    private readonly log: Log,
    /** Ledger ids per statement when a build reads the week (WEEK_SCAN_IDS; tests make it small). */
    private readonly scanIds = WEEK_SCAN_IDS,
  ) {
    this.badgeJsons = new Map([...badges].map(([id, badge]) => [id, JSON.stringify(badge)]));
    this.redis = boardScripts(redis);
    this.profiles = new ProfileStore(this.redis, (ids) => loadProfiles(this.db, ids));
    this.ledgerTail = new IdTail<LedgerRow>(
      (after, limit) =>
        this.read((em) => sqlPrepared(em, `SELECT ${LEDGER_COLUMNS} WHERE e.id > $1 ORDER BY e.id LIMIT $2`, [after, limit])).then((r) =>
          r.map(ledgerRow),
        ),
      (ids) =>
        this.read((em) => sqlRows(em, `SELECT ${LEDGER_COLUMNS} WHERE e.id = ANY($1::bigint[])`, [ids])).then((r) => r.map(ledgerRow)),
      { batch: READ_BATCH, gapTtlMs: GAP_TTL_MS },
    );
    const recordTail = (board: "speed" | "kills") => {
      const { table, column } = RECORD_SOURCES[board];
      const columns = `r.id, r.player_id, r.${column} AS value, NOT (${RANKED}) AS unranked FROM ${table} r JOIN players p ON p.id = r.player_id`;
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

  /** Builds the boards (or adopts a build a sibling process just made) and starts the consumers. */
  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.building = this.buildOnStart().finally(() => (this.building = null));
      this.building.catch((error) => this.log.error("leaderboard:build", "leaderboard build failed; the consumers retry it", error));
      this.ledgerLoop.start();
      this.recordLoop.start();
      this.repairTimer = setInterval(
        () => void this.repair().catch((error) => this.log.error("leaderboard:repair", "leaderboard repair failed", error)),
        REPAIR_INTERVAL_MS,
      );
      this.repairTimer.unref();
    }
    return this.ensureBuilt();
  }

  async stop(): Promise<void> {
    clearInterval(this.repairTimer);
    await Promise.all([this.ledgerLoop.stop(), this.recordLoop.stop(), this.building?.catch(() => undefined)]);
  }

  /**
   * A player's name, avatar, tag or anonymous mode changed: the stored profile is read again (before
   * the change is answered, so the next page shows it), then the rooms showing them send the new rows.
   * When Redis fails the copy stays as it was until its time limit (PROFILE_TTL_MS); the change stands.
   * The change waits for the copy at most PROFILE_REFRESH_WAIT_MS.
   */
  readonly profileChanged = async (playerId: string): Promise<void> => {
    // A Redis that does not answer (down, reconnecting) holds the change's answer for a second at most;
    // the refresh goes on in the background.
    let timer: NodeJS.Timeout | undefined;
    const refreshed = this.profiles.refresh(playerId).then(
      () => true,
      (error: unknown) => {
        this.log.warn("leaderboard", `profile of ${playerId} not refreshed on the boards: ${String(error)}`);
        return true;
      },
    );
    const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PROFILE_REFRESH_WAIT_MS)));
    if (!(await Promise.race([refreshed, waited]))) {
      this.log.warn("leaderboard", `profile of ${playerId} still being refreshed on the boards after ${PROFILE_REFRESH_WAIT_MS} ms`);
    }
    clearTimeout(timer);
    const change: BoardChange = { keys: [], players: [playerId] };
    void Promise.resolve(this.presence.publish(BOARD_CHANGES_CHANNEL, change)).catch(() => undefined);
  };

  /**
   * Removes the player's stored profile (name, avatar, Discord id) from Redis: an erased player's must
   * not outlive the erasure there. A build stores profiles of ranked players only, so it never comes back.
   */
  async forgetProfile(playerId: string): Promise<void> {
    await this.redis.hdel(KEYS.profiles, playerId);
  }

  /** The id of the last ledger entry the consumer has read (its lag is a metric). */
  get ledgerConsumerPosition(): number {
    return this.ledgerTail.head;
  }

  /** The ledger's commit hook: a hint to read the new entries now. */
  readonly onCommitted = (): void => this.ledgerLoop.nudge();

  /** Waits until every commit and record told to this process so far is on the boards. */
  async catchUp(): Promise<void> {
    await this.ensureBuilt();
    await Promise.all([this.ledgerLoop.catchUp(), this.recordLoop.catchUp()]);
  }

  /** A Connect the Dots time was stored: the player's best time on the speed board, if it is better. */
  recordSpeed(playerId: string, completionTimeMs: number): Promise<void> {
    return this.recordBest("speed", playerId, completionTimeMs);
  }

  /** A Dot Battle score was stored: the player's best kills on the kills board, if it is better. */
  recordKills(playerId: string, kills: number): Promise<void> {
    return this.recordBest("kills", playerId, kills);
  }

  /* ------------------------------------------------------------------ reads */

  /** One page of a board, shown as `viewerId` may see it. A page beyond the end is empty. */
  async page(spec: BoardSpec, page: number, limit: number, viewerId: string | null): Promise<BoardAnswer<BoardEntry>> {
    const start = (page - 1) * limit;
    const ranked = await this.ranked(spec, start, start + limit - 1);
    return {
      entries: await this.entries(spec, ranked.rows, start, viewerId),
      total: ranked.total,
      page,
      limit,
      scope: spec.scope,
      window: spec.window,
    };
  }

  /**
   * The same page as `page`, as JSON text. On a global board (the one every player reads) this is the
   * cheap path: one script returns the rows, the stored profiles and, for the day and week boards, the
   * current balances; each entry is pasted together from the stored JSON members. The shapes are
   * pinned to `page`'s by a test.
   */
  async pageJson(spec: BoardSpec, page: number, limit: number, viewerId: string | null): Promise<string> {
    if (spec.scope !== "global") return JSON.stringify(await this.page(spec, page, limit, viewerId));
    await this.settled();
    const start = (page - 1) * limit;
    const windowed = spec.board === "balance" && spec.window !== "all";
    const key = boardKey(spec.board, spec.window);
    const text = await this.scriptOrBuild(() =>
      this.redis.readPage(KEYS.meta, key, KEYS.profiles, KEYS.balance, String(start), String(start + limit - 1), windowed ? "1" : "0"),
    );
    const lines = text.split("\n");
    const step = windowed ? 4 : 3;
    const ids: string[] = [];
    const stored: string[] = [];
    for (let i = 1; i + step <= lines.length; i += step) {
      ids.push(lines[i]!);
      stored.push(lines[i + 2]!);
    }
    const profiles = await this.profiles.complete(ids, stored);
    const entries: string[] = [];
    ids.forEach((id, n) => {
      const profile = profiles.get(id);
      if (!profile) return; // a player deleted since: not shown, like `render`
      const i = 1 + n * step;
      const value = valueOf(spec.board, lines[i + 1]!);
      const masked = profile.anonymous && id !== viewerId;
      const who = masked
        ? `"playerId":"${id}","username":"Anonymous","avatarUrl":null,"anonymousMode":true,"badge":null`
        : `${profile.membersJson},"badge":${this.badgeJson(profile.discordId)}`;
      const tag = masked ? "null" : profile.tagJson;
      let shown: string;
      if (spec.board === "speed") shown = `"activeTag":${tag},"completionTimeMs":${value}`;
      else if (spec.board === "kills") shown = `"kills":${value}`;
      else if (!windowed) shown = `"activeTag":${tag},"balance":${value}`;
      else {
        const balance = lines[i + 3] ? valueOf("balance", lines[i + 3]!) : profile.balance;
        shown = `"activeTag":${tag},"balance":${balance},"net":${value}`;
      }
      entries.push(`{"rank":${start + n + 1},${who},${shown}}`);
    });
    return `{"entries":[${entries.join(",")}],"total":${Number(lines[0])},"page":${page},"limit":${limit},"scope":"global","window":"${spec.window}"}`;
  }

  private badgeJson(discordId: string): string {
    return this.badgeJsons.get(discordId) ?? "null";
  }

  /** A player's rank (1-based) on a board and the board's size; null when the board does not rank them. */
  async rank(spec: BoardSpec, playerId: string): Promise<RankAnswer & { value: number | null }> {
    await this.settled();
    const key = boardKey(spec.board, spec.window);
    if (spec.scope === "global") {
      const [rank, score, total] = (await this.scriptOrBuild(() => this.redis.readRank(KEYS.meta, key, playerId))).split("\n");
      return {
        rank: rank ? Number(rank) + 1 : null,
        value: score ? valueOf(spec.board, score) : null,
        total: Number(total),
      };
    }
    const all = await this.scoped(spec, key);
    const index = all.findIndex((r) => r.playerId === playerId);
    return { rank: index < 0 ? null : index + 1, value: index < 0 ? null : valueOf(spec.board, all[index]!.score), total: all.length };
  }

  /** Entries of rows that start at 0-based position `offset`, as `viewerId` may see them. */
  async entries(spec: BoardSpec, rows: RankedRow[], offset: number, viewerId: string | null): Promise<BoardEntry[]> {
    return this.render(
      spec,
      rows,
      offset,
      await this.loadProfiles(
        rows.map((r) => r.playerId),
        spec,
      ),
      viewerId,
    );
  }

  /** The same rows for any number of viewers: profiles are read once, then each viewer's rows are rendered. */
  render(spec: BoardSpec, rows: RankedRow[], offset: number, profiles: Map<string, Profile>, viewerId: string | null): BoardEntry[] {
    const entries: BoardEntry[] = [];
    rows.forEach((row, i) => {
      const profile = profiles.get(row.playerId);
      if (!profile) return;
      const base = presentPlayer(profile, offset + i + 1, viewerId, this.badges);
      const value = valueOf(spec.board, row.score);
      if (spec.board === "speed") entries.push({ ...base, completionTimeMs: value } satisfies SpeedEntry);
      else if (spec.board === "kills") {
        const { activeTag: _tag, ...rest } = base;
        entries.push({ ...rest, kills: value } satisfies KillsEntry);
      } else if (spec.window === "all") entries.push({ ...base, balance: value } satisfies BalanceEntry);
      else entries.push({ ...base, balance: profile.balance, net: value } satisfies BalanceEntry);
    });
    return entries;
  }

  /**
   * The profiles shown beside rows of `spec` (stored in Redis; see ProfileStore). The day and week boards also
   * show each player's balance: read from the balance board, which is current, not from the cache.
   */
  async loadProfiles(ids: readonly string[], spec?: BoardSpec): Promise<Map<string, Profile>> {
    return this.withCurrentBalances(await this.profiles.get(ids), ids, spec);
  }

  private async withCurrentBalances(
    profiles: Map<string, Profile>,
    ids: readonly string[],
    spec?: BoardSpec,
  ): Promise<Map<string, Profile>> {
    if (!spec || spec.board !== "balance" || spec.window === "all" || ids.length === 0) return profiles;
    const scores = await this.redis.zmscore(KEYS.balance, ...ids);
    const current = new Map<string, Profile>();
    ids.forEach((id, i) => {
      const profile = profiles.get(id);
      const score = scores[i];
      if (profile) current.set(id, score === null || score === undefined ? profile : { ...profile, balance: valueOf("balance", score) });
    });
    return current;
  }

  /** Several players' ranks and values on one board, in one round trip. */
  async positions(spec: BoardSpec, playerIds: readonly string[]): Promise<Map<string, { rank: number | null; value: number | null }>> {
    const positions = new Map<string, { rank: number | null; value: number | null }>();
    if (playerIds.length === 0) return positions;
    await this.settled();
    const key = boardKey(spec.board, spec.window);
    if (spec.scope === "global") {
      const results = await this.execOrBuild(() => {
        const multi = this.redis.multi().hget(KEYS.meta, "epoch");
        for (const id of playerIds) multi.zrank(key, id).zscore(key, id);
        return multi.exec();
      });
      playerIds.forEach((id, i) => {
        const rank = results[1 + i * 2] as number | null;
        const score = results[2 + i * 2] as string | null;
        positions.set(id, { rank: rank === null ? null : Number(rank) + 1, value: score === null ? null : valueOf(spec.board, score) });
      });
      return positions;
    }
    const all = await this.scoped(spec, key);
    const index = new Map(all.map((r, i) => [r.playerId, i]));
    for (const id of playerIds) {
      const i = index.get(id);
      positions.set(id, i === undefined ? { rank: null, value: null } : { rank: i + 1, value: valueOf(spec.board, all[i]!.score) });
    }
    return positions;
  }

  /** Rows `start`..`stop` (0-based, inclusive) of a board and its size. */
  async ranked(spec: BoardSpec, start: number, stop: number): Promise<Ranked> {
    await this.settled();
    const key = boardKey(spec.board, spec.window);
    if (spec.scope === "global") {
      const [, total, flat] = await this.execOrBuild(() =>
        this.redis.multi().hget(KEYS.meta, "epoch").zcard(key).zrange(key, start, stop, "WITHSCORES").exec(),
      );
      const pairs = flat as string[];
      const rows: Ranked["rows"] = [];
      for (let i = 0; i < pairs.length; i += 2) rows.push({ playerId: pairs[i]!, score: pairs[i + 1]! });
      return { total: Number(total), rows };
    }
    const all = await this.scoped(spec, key);
    return { total: all.length, rows: all.slice(start, stop + 1) };
  }

  /**
   * A scoped board: the scope's members (PostgreSQL) with their scores on the global board, in board
   * order. Cost grows with the scope's size; instances hold a voice channel, guilds our players in it.
   */
  private async scoped(spec: BoardSpec, key: string): Promise<RankedRow[]> {
    if (!spec.scopeId) throw new AppError("invalid_request", 400, "A scoped board needs its guild or instance id");
    const members = spec.scope === "guild" ? await this.guilds.members(spec.scopeId) : await this.instances.members(spec.scopeId);
    if (members.length === 0) return [];
    const ranked: RankedRow[] = [];
    for (let i = 0; i < members.length; i += 1000) {
      const chunk = members.slice(i, i + 1000);
      const [, scores] = await this.execOrBuild(() =>
        this.redis
          .multi()
          .hget(KEYS.meta, "epoch")
          .zmscore(key, ...chunk)
          .exec(),
      );
      (scores as (string | null)[]).forEach((score, j) => {
        if (score !== null) ranked.push({ playerId: chunk[j]!, score });
      });
    }
    return ranked.sort((a, b) => Number(a.score) - Number(b.score) || (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0));
  }

  /** Runs a read that answers null when no build exists; a missing build is rebuilt, then it runs once more. */
  private async readOrBuild<T>(read: () => Promise<T | null>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const result = await read();
      if (result !== null) return result;
      if (attempt > 0) throw unavailable();
      await this.ensureBuilt(true);
    }
  }

  /** Runs a MULTI whose first command reads the build epoch (see readOrBuild). */
  private execOrBuild(run: () => Promise<[Error | null, unknown][] | null>): Promise<unknown[]> {
    return this.readOrBuild(async () => {
      const results = await run();
      if (!results) throw unavailable();
      const failed = results.find(([error]) => error);
      if (failed) throw failed[0];
      return results[0]![1] ? results.map(([, value]) => value) : null;
    });
  }

  /** Runs a read script that answers "" when no build exists (see readOrBuild). */
  private scriptOrBuild(run: () => Promise<string>): Promise<string> {
    return this.readOrBuild(async () => {
      const result = await run();
      return result === "" ? null : result;
    });
  }

  /** Reads wait for the consumer when this process has told it of commits it has not applied yet. */
  private settled(): Promise<void> | undefined {
    return this.ledgerLoop.settled();
  }

  /* ------------------------------------------------------------------ consumers */

  private async drainLedger(): Promise<void> {
    await this.ensureBuilt();
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
        const result = await this.redis.applyLedger(
          KEYS.meta,
          KEYS.applied,
          KEYS.balance,
          KEYS.holes,
          this.epoch!,
          String(ranked.length),
          ...args,
        );
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
    await this.ensureBuilt();
    for (const board of ["speed", "kills"] as const) {
      const tail = this.recordTails[board];
      for (;;) {
        const { rows, more, ack } = await tail.next();
        const pairs = rows.filter((r) => !r.unranked).flatMap((r) => [r.playerId, scoreOf(board, r.value)]);
        if (pairs.length > 0) {
          const result = await this.redis.applyBest(KEYS.meta, KEYS[board], this.epoch!, ...pairs);
          if (result === "stale") return this.restartAfterRebuild();
          if (result) this.publish([KEYS[board]]);
        }
        ack();
        await this.savePosition(board, tail.safePosition, !more);
        if (!more) break;
      }
    }
  }

  private async recordBest(board: "speed" | "kills", playerId: string, value: number): Promise<void> {
    const [player] = await this.read((em) => sqlRows(em, `SELECT NOT (${RANKED}) AS unranked FROM players p WHERE p.id = $1`, [playerId]));
    if (!player || player.unranked === true) return;
    await this.ensureBuilt();
    let result = await this.redis.applyBest(KEYS.meta, KEYS[board], this.epoch!, playerId, scoreOf(board, value));
    if (result === "stale") {
      await this.ensureBuilt(true);
      result = await this.redis.applyBest(KEYS.meta, KEYS[board], this.epoch!, playerId, scoreOf(board, value));
    }
    if (result && result !== "stale") this.publish([KEYS[board]]);
    this.recordLoop.nudge();
  }

  /** Persists a consumer's safe position now and then (a restarted process resumes from it). */
  private async savePosition(field: string, position: number, caughtUp: boolean): Promise<void> {
    // Once a second while entries stream in; a consumer that caught up writes sooner (up to 5 a second).
    const now = Date.now();
    if (now - (this.positionWrites.get(field) ?? 0) < (caughtUp ? 200 : 1000)) return;
    this.positionWrites.set(field, now);
    await this.redis.raisePosition(KEYS.meta, this.epoch!, field, String(position));
  }

  private async restartAfterRebuild(): Promise<void> {
    await this.ensureBuilt(true);
    this.ledgerLoop.nudge();
    this.recordLoop.nudge();
  }

  private publish(keys: string[]): void {
    const change: BoardChange = { keys };
    void Promise.resolve(this.presence.publish(BOARD_CHANGES_CHANNEL, change)).catch(() => undefined);
  }

  /* ------------------------------------------------------------------ builds */

  /**
   * Makes sure a build exists and this process follows it. `checkRedis` looks at Redis even when this
   * process believes it knows the build (a read or a script found it missing or replaced).
   */
  private ensureBuilt(checkRedis = false): Promise<void> {
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
    this.ledgerTail.reset(Number(meta.position ?? 0), holes);
    this.recordTails.speed.reset(Number(meta.speed ?? 0));
    this.recordTails.kills.reset(Number(meta.kills ?? 0));
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
      const [{ top }] = await sqlRows(em, `SELECT COALESCE(max(id), 0) AS top FROM ledger_entries`);
      const topId = Number(top);
      const seen = await sqlRows<{ id: string }>(em, `SELECT id FROM ledger_entries WHERE id > $1 ORDER BY id`, [
        Math.max(0, topId - HOLE_SCAN_IDS),
      ]);
      const holes: number[] = [];
      let expected = Math.max(0, topId - HOLE_SCAN_IDS) + 1;
      for (const { id } of seen) {
        for (let missing = expected; missing < Number(id); missing++) holes.push(missing);
        expected = Number(id) + 1;
      }

      // One sequential scan through a cursor; each chunk goes to Redis while the next one is fetched.
      let players = 0;
      let writing: Promise<void> = Promise.resolve();
      await sqlRows(em, `DECLARE lb_players NO SCROLL CURSOR FOR SELECT ${PROFILE_COLUMNS} FROM players p ${PROFILE_JOIN} WHERE ${RANKED}`);
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

      const nets = await this.netWinnings(em, topId, now);
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
            WHERE ${RANKED} GROUP BY r.player_id`,
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
    this.ledgerTail.reset(snapshot.topId, snapshot.holes);
    this.recordTails.speed.reset(snapshot.recordTops.speed!);
    this.recordTails.kills.reset(snapshot.recordTops.kills!);
    this.publish(["*"]);
    return snapshot.players;
  }

  /**
   * A build's net winnings per ranked player since the start of the UTC week (and of the day), read in
   * ranges of ledger ids from the snapshot's top downwards, so no statement grows with the week: one
   * GROUP BY over a whole week (a million players betting five times) outlived the service's statement
   * timeout, and the boards stayed unavailable after Redis was lost. An entry's `created_at` is its
   * transaction's start, so ids and times are only nearly in the same order: the scan stops at the first
   * range whose newest entry is older than a day before the week began (no transaction lasts a day).
   */
  private async netWinnings(em: EntityManager, topId: number, now: number): Promise<Map<string, { week: number; day: number | null }>> {
    const weekStart = new Date(windowStart("week", now));
    const dayStart = new Date(windowStart("day", now));
    const stopBefore = weekStart.getTime() - DAY_MS;
    const nets = new Map<string, { week: number; day: number | null }>();
    for (let high = topId; high > 0; high -= this.scanIds) {
      const low = Math.max(0, high - this.scanIds);
      const rows = await sqlRows(
        em,
        `SELECT e.player_id, sum(e.delta) AS week, sum(e.delta) FILTER (WHERE e.created_at >= $4) AS day
           FROM ledger_entries e JOIN players p ON p.id = e.player_id
          WHERE e.id > $1 AND e.id <= $2 AND e.created_at >= $3 AND e.reason = ANY($5::text[]) AND ${RANKED}
          GROUP BY e.player_id`,
        [low, high, weekStart, dayStart, [...NET_REASONS]],
      );
      for (const r of rows) {
        const net = nets.get(r.player_id as string) ?? { week: 0, day: null };
        net.week += Number(r.week);
        if (r.day !== null) net.day = (net.day ?? 0) + Number(r.day);
        nets.set(r.player_id as string, net);
      }
      const [{ newest }] = await sqlRows(em, `SELECT max(created_at) AS newest FROM ledger_entries WHERE id > $1 AND id <= $2`, [
        low,
        high,
      ]);
      if (newest !== null && new Date(newest as string).getTime() < stopBefore) break;
    }
    return nets;
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
    await this.ledgerLoop.catchUp();
    const [counts] = await this.read((em) =>
      sqlRows<{ total: number; settled: number }>(
        em,
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE created_at <= now() - ($1::int * interval '1 millisecond'))::int AS settled
           FROM players p WHERE ${RANKED}`,
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

const unavailable = () => new AppError("leaderboard_unavailable", 503, "The leaderboard is being rebuilt; try again in a moment");
