import type { Redis } from "ioredis";
import type { BoardAnswer, BoardEntry, RankAnswer } from "@casino/common";
import type { Guilds } from "../core/players/guilds";
import type { Instances } from "../core/players/instances";
import { AppError } from "../platform/errors";
import { KEYS, boardKey, valueOf } from "./keys";
import type { BoardScripts } from "./scripts";
import type { ProfileStore, StoredProfile } from "./profiles";
import type { EntryRenderer } from "./entries";
import { PageCache, type CachedPage } from "./page-cache";
import { unavailable, type BoardSpec, type Ranked, type RankedRow } from "./types";

/** What the reads need of the rest of the boards: the consumer's state and the builds. */
export interface ReadHooks {
  /** Waits while this process has told its consumer of commits it has not applied yet. */
  settled(): Promise<void> | undefined;
  /** Makes sure a build exists (looking at Redis: a read found it missing). */
  rebuildIfMissing(): Promise<void>;
}

/**
 * The reads of the boards: pages, ranks and positions, from Redis. A global board is read from its
 * sorted set; a scoped board (guild, instance) from the scope's members' scores on the global board.
 * A read that finds no build waits for one (see readOrBuild).
 */
export class BoardReads {
  constructor(
    private readonly redis: Redis & BoardScripts,
    private readonly profiles: ProfileStore,
    private readonly guilds: Guilds,
    private readonly instances: Instances,
    private readonly renderer: EntryRenderer,
    private readonly hooks: ReadHooks,
    private readonly cache = new PageCache(),
  ) {}

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
   * current balances; each entry is the renderer's text, pasted into the page.
   */
  async pageJson(spec: BoardSpec, page: number, limit: number, viewerId: string | null): Promise<string> {
    if (spec.scope !== "global") return JSON.stringify(await this.page(spec, page, limit, viewerId));
    await this.hooks.settled();
    const key = boardKey(spec.board, spec.window);
    return this.cache.get(`${spec.board}\n${key}\n${page}\n${limit}`, viewerId, () => this.readPage(spec, key, page, limit));
  }

  /** A page of a global board read from Redis, ready for every viewer (see PageCache). */
  private async readPage(spec: BoardSpec, key: string, page: number, limit: number): Promise<CachedPage> {
    const start = (page - 1) * limit;
    const windowed = spec.board === "balance" && spec.window !== "all";
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
    const anonymous = new Set<string>();
    const render = (viewerId: string | null) => {
      const entries: string[] = [];
      ids.forEach((id, n) => {
        const profile = profiles.get(id);
        if (!profile) return; // a player deleted since: not shown, like `render`
        if (profile.anonymous) anonymous.add(id);
        const i = 1 + n * step;
        const balance = windowed && lines[i + 3] ? valueOf("balance", lines[i + 3]!) : profile.balance;
        entries.push(this.renderer.json(spec, start + n + 1, id, profile, valueOf(spec.board, lines[i + 1]!), balance, viewerId));
      });
      return `{"entries":[${entries.join(",")}],"total":${Number(lines[0])},"page":${page},"limit":${limit},"scope":"global","window":"${spec.window}"}`;
    };
    const json = render(null);
    // Without anonymous players every viewer gets `json`: the rows read are not kept with the cached page.
    return { json, anonymous, renderFor: anonymous.size > 0 ? render : () => json };
  }

  /** Something shown on the boards changed: no cached page read before it is served again (see PageCache). */
  invalidatePages(): void {
    this.cache.invalidate();
  }

  /**
   * A player's rank (1-based) on a board and the board's size; null when the board does not rank them.
   * Asked by `viewerId`, another player: an anonymous player's rank is theirs to know (to anyone else it
   * would tie an id known from elsewhere to their masked row), so it is null as for an unranked player.
   * On a global board the same script returns the stored profile that says so: no further round trip.
   */
  async rank(spec: BoardSpec, playerId: string, viewerId?: string): Promise<RankAnswer & { value: number | null }> {
    await this.hooks.settled();
    const key = boardKey(spec.board, spec.window);
    const asked = viewerId !== undefined && viewerId !== playerId;
    let answer: RankAnswer & { value: number | null };
    let stored: string | undefined;
    if (spec.scope === "global") {
      const lines = (await this.scriptOrBuild(() => this.redis.readRank(KEYS.meta, key, KEYS.profiles, playerId, asked ? "1" : "0"))).split(
        "\n",
      );
      const [rank, score, total] = lines;
      stored = lines[3] || undefined;
      answer = { rank: rank ? Number(rank) + 1 : null, value: score ? valueOf(spec.board, score) : null, total: Number(total) };
    } else {
      const all = await this.scoped(spec, key);
      const index = all.findIndex((r) => r.playerId === playerId);
      answer = { rank: index < 0 ? null : index + 1, value: index < 0 ? null : valueOf(spec.board, all[index]!.score), total: all.length };
    }
    if (!asked || answer.rank === null) return answer;
    const profile = (stored ? await this.profiles.complete([playerId], [stored]) : await this.profiles.get([playerId])).get(playerId);
    return profile?.anonymous ? { rank: null, value: null, total: answer.total } : answer;
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
  render(spec: BoardSpec, rows: RankedRow[], offset: number, profiles: Map<string, StoredProfile>, viewerId: string | null): BoardEntry[] {
    const entries: BoardEntry[] = [];
    rows.forEach((row, i) => {
      const profile = profiles.get(row.playerId);
      if (!profile) return;
      entries.push(
        this.renderer.entry(spec, offset + i + 1, row.playerId, profile, valueOf(spec.board, row.score), profile.balance, viewerId),
      );
    });
    return entries;
  }

  /**
   * The profiles shown beside rows of `spec` (stored in Redis; see ProfileStore). The day and week boards also
   * show each player's balance: read from the balance board, which is current, not from the cache.
   */
  async loadProfiles(ids: readonly string[], spec?: BoardSpec): Promise<Map<string, StoredProfile>> {
    return this.withCurrentBalances(await this.profiles.get(ids), ids, spec);
  }

  private async withCurrentBalances(
    profiles: Map<string, StoredProfile>,
    ids: readonly string[],
    spec?: BoardSpec,
  ): Promise<Map<string, StoredProfile>> {
    if (!spec || spec.board !== "balance" || spec.window === "all" || ids.length === 0) return profiles;
    const scores = await this.redis.zmscore(KEYS.balance, ...ids);
    const current = new Map<string, StoredProfile>();
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
    await this.hooks.settled();
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
    await this.hooks.settled();
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
      await this.hooks.rebuildIfMissing();
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
}
