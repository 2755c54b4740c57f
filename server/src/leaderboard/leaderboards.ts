import type { Log } from "../platform/log";
import type { Redis } from "ioredis";
import type { Presence } from "@colyseus/core";
import type { BoardAnswer, BoardEntry, RankAnswer } from "@casino/common";
import type { Database } from "../platform/db/database";
import type { Guilds } from "../core/players/guilds";
import type { Instances } from "../core/players/instances";
import { KEYS } from "./keys";
import { boardScripts, type BoardScripts } from "./scripts";
import { ProfileStore, loadProfiles, type StoredProfile } from "./profiles";
import { EntryRenderer } from "./entries";
import { StandIns } from "../core/players/stand-ins";
import { BoardReads } from "./reads";
import { PAGE_CACHE_MS, PageCache } from "./page-cache";
import { BoardConsumers } from "./consumers";
import { BoardBuilds, WEEK_SCAN_IDS } from "./builds";
import { BOARD_CHANGES_CHANNEL, type BoardChange, type BoardSpec, type Ranked, type RankedRow, type RebuildReport } from "./types";

export { BOARD_CHANGES_CHANNEL, type BoardChange, type BoardSpec, type Ranked, type RankedRow, type RebuildReport } from "./types";

const REPAIR_INTERVAL_MS = 60_000;
/** How long a profile change waits for its copy on the boards before it is answered anyway. */
const PROFILE_REFRESH_WAIT_MS = 1000;

/**
 * The leaderboards: Redis sorted sets as the read path, PostgreSQL as the truth. Three parts, each a
 * module of its own: the reads (`reads.ts`: pages, ranks, positions), the consumers (`consumers.ts`:
 * the ledger and the record tables tailed onto the boards) and the builds (`builds.ts`: the boards
 * built from a snapshot of PostgreSQL, and the repair check). Every entry is shown by one renderer
 * (`entries.ts`); who is ranked is one rule (`RANKED_PLAYER`, platform/db/guest-rule.ts).
 */
export class Leaderboards {
  private readonly redis: Redis & BoardScripts;
  private readonly profiles: ProfileStore;
  private readonly reads: BoardReads;
  private readonly consumers: BoardConsumers;
  private readonly builds: BoardBuilds;
  private repairTimer: NodeJS.Timeout | undefined;
  private started = false;

  constructor(
    private readonly db: Database,
    redis: Redis,
    private readonly presence: Presence,
    guilds: Guilds,
    instances: Instances,
    badges: ReadonlyMap<string, string>,
    /** The server's token-signing secret: the key of the stand-ins of anonymous players' ids (see StandIns). */
    secret: string,
    private readonly log: Log,
    /** Ledger ids per statement when a build reads the week (tests make it small). */
    scanIds = WEEK_SCAN_IDS,
    /** The time cached pages are aged by (see PageCache); a test's clock moves it. */
    now: () => number = Date.now,
  ) {
    this.redis = boardScripts(redis);
    this.profiles = new ProfileStore(this.redis, (ids) => loadProfiles(this.db, ids));
    this.builds = new BoardBuilds(
      db,
      this.redis,
      this.profiles,
      {
        follow: (build) => {
          this.consumers.follow(build);
          this.reads.invalidatePages();
        },
        publish: (keys) => this.consumers.publish(keys),
        caughtUp: () => this.consumers.ledgerLoop.catchUp(),
      },
      log,
      scanIds,
    );
    this.consumers = new BoardConsumers(
      (work) => this.db.run(work),
      this.redis,
      presence,
      this.builds,
      log,
      () => this.reads.invalidatePages(),
    );
    this.reads = new BoardReads(
      this.redis,
      this.profiles,
      guilds,
      instances,
      new EntryRenderer(badges, new StandIns(secret, now)),
      {
        settled: () => this.consumers.ledgerLoop.settled(),
        rebuildIfMissing: () => this.builds.ensureBuilt(true),
      },
      new PageCache(PAGE_CACHE_MS, now),
    );
  }

  /** Builds the boards (or adopts a build a sibling process just made) and starts the consumers. */
  start(): Promise<void> {
    if (!this.started) {
      this.started = true;
      const built = this.builds.start();
      this.consumers.ledgerLoop.start();
      this.consumers.recordLoop.start();
      // Changes applied by other processes reach this one's cached pages through presence.
      void Promise.resolve(this.presence.subscribe(BOARD_CHANGES_CHANNEL, this.boardsChanged)).catch((error: unknown) =>
        this.log.error("leaderboard", "board changes not subscribed", error),
      );
      this.repairTimer = setInterval(
        () => void this.repair().catch((error) => this.log.error("leaderboard:repair", "leaderboard repair failed", error)),
        REPAIR_INTERVAL_MS,
      );
      this.repairTimer.unref();
      return built;
    }
    return this.builds.ensureBuilt();
  }

  async stop(): Promise<void> {
    clearInterval(this.repairTimer);
    if (this.started) void Promise.resolve(this.presence.unsubscribe(BOARD_CHANGES_CHANNEL, this.boardsChanged)).catch(() => undefined);
    await Promise.all([this.consumers.ledgerLoop.stop(), this.consumers.recordLoop.stop(), this.builds.settle()]);
  }

  private readonly boardsChanged = (): void => this.reads.invalidatePages();

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
      () => {
        this.reads.invalidatePages();
        return true;
      },
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
    this.reads.invalidatePages();
    const change: BoardChange = { keys: [], players: [playerId] };
    void Promise.resolve(this.presence.publish(BOARD_CHANGES_CHANNEL, change)).catch(() => undefined);
  };

  /**
   * Removes the player's stored profile (name, avatar, Discord id) from Redis: an erased player's must
   * not outlive the erasure there. A build stores profiles of ranked players only, so it never comes back.
   */
  async forgetProfile(playerId: string): Promise<void> {
    await this.redis.hdel(KEYS.profiles, playerId);
    this.reads.invalidatePages();
  }

  /** The id of the last ledger entry the consumer has read (its lag is a metric). */
  get ledgerConsumerPosition(): number {
    return this.consumers.ledgerPosition;
  }

  /** The ledger's commit hook: a hint to read the new entries now. */
  readonly onCommitted = (): void => this.consumers.ledgerLoop.nudge();

  /** Waits until every commit and record told to this process so far is on the boards. */
  async catchUp(): Promise<void> {
    await this.builds.ensureBuilt();
    await Promise.all([this.consumers.ledgerLoop.catchUp(), this.consumers.recordLoop.catchUp()]);
  }

  /** A Connect the Dots time was stored: the player's best time on the speed board, if it is better. */
  recordSpeed(playerId: string, completionTimeMs: number): Promise<void> {
    return this.consumers.recordBest("speed", playerId, completionTimeMs);
  }

  /** A Dot Battle score was stored: the player's best kills on the kills board, if it is better. */
  recordKills(playerId: string, kills: number): Promise<void> {
    return this.consumers.recordBest("kills", playerId, kills);
  }

  /** One page of a board, shown as `viewerId` may see it (see BoardReads). */
  page(spec: BoardSpec, page: number, limit: number, viewerId: string | null): Promise<BoardAnswer<BoardEntry>> {
    return this.reads.page(spec, page, limit, viewerId);
  }

  /** The same page as `page`, as JSON text (the cheap path on a global board). */
  pageJson(spec: BoardSpec, page: number, limit: number, viewerId: string | null): Promise<string> {
    return this.reads.pageJson(spec, page, limit, viewerId);
  }

  /**
   * A player's rank (1-based) on a board and the board's size; null when the board does not rank them,
   * and when `viewerId`, another player, asks for an anonymous player's (see BoardReads.rank).
   */
  rank(spec: BoardSpec, playerId: string, viewerId?: string): Promise<RankAnswer & { value: number | null }> {
    return this.reads.rank(spec, playerId, viewerId);
  }

  /** The rows for any number of viewers: profiles are read once (`loadProfiles`), then each viewer's rows are rendered. */
  render(spec: BoardSpec, rows: RankedRow[], offset: number, profiles: Map<string, StoredProfile>, viewerId: string | null): BoardEntry[] {
    return this.reads.render(spec, rows, offset, profiles, viewerId);
  }

  /** The profiles shown beside rows of `spec`, with current balances on the day and week boards. */
  loadProfiles(ids: readonly string[], spec?: BoardSpec): Promise<Map<string, StoredProfile>> {
    return this.reads.loadProfiles(ids, spec);
  }

  /** Several players' ranks and values on one board, in one round trip. */
  positions(spec: BoardSpec, playerIds: readonly string[]): Promise<Map<string, { rank: number | null; value: number | null }>> {
    return this.reads.positions(spec, playerIds);
  }

  /** Rows `start`..`stop` (0-based, inclusive) of a board and its size. */
  ranked(spec: BoardSpec, start: number, stop: number): Promise<Ranked> {
    return this.reads.ranked(spec, start, stop);
  }

  /** Rebuilds every board from PostgreSQL now; reads keep answering from the previous build meanwhile. */
  rebuild(): Promise<RebuildReport> {
    return this.builds.rebuild();
  }

  /** The repair check (see BoardBuilds.repair): a board out of step with the players table is rebuilt. */
  repair(settleMs?: number): Promise<boolean> {
    return this.builds.repair(settleMs);
  }
}
