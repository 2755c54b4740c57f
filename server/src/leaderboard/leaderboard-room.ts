import { ErrorCode, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import {
  LEADERBOARD_MAX_UPDATES_PER_SECOND,
  LEADERBOARD_MESSAGES,
  NOT_AN_OBJECT,
  describeZodError,
  isPlainObject,
  leaderboardRoomOptions,
  leaderboardViewMessage,
  type BoardEntry,
  type LeaderboardDeltaMessage,
  type LeaderboardPosition,
  type LeaderboardRoomOptions,
  type LeaderboardSnapshotMessage,
  type RoomErrorMessage,
} from "@casino/common";
import type { SessionClaims } from "../core/auth/session";
import type { CoreServices } from "../core/services";
import { AppError } from "../platform/errors";
import { boardKey } from "./keys";
import { BOARD_CHANGES_CHANNEL, type BoardChange, type BoardSpec, type Leaderboards, type Ranked } from "./leaderboards";
import { authorisedScope } from "./scope";
import { Coalescer } from "./coalescer";

interface Viewer {
  playerId: string;
  page: number;
  limit: number;
  rows: BoardEntry[];
  total: number;
  me: LeaderboardPosition;
  seq: number;
}

type ViewerClient = Client<{ auth: SessionClaims; userData: Viewer }>;

/** The services the room uses. */
export type LeaderboardRoomServices = Pick<CoreServices, "guilds" | "instances" | "log" | "presence" | "tokens"> & {
  leaderboards: Leaderboards;
};

/**
 * The leaderboard room type of one app: the room class with that app's services, and an onAuth that
 * checks the session and that the caller belongs to the board's scope. A refusal must be a ServerError
 * with a numeric code to reach the client as an error of the join (any other error comes back as a
 * malformed seat reservation).
 */
export function leaderboardRoom(services: LeaderboardRoomServices) {
  return class AppLeaderboardRoom extends LeaderboardRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<SessionClaims> {
      try {
        const claims = await services.tokens.verify(token);
        const parsed = leaderboardRoomOptions.safeParse(options ?? {});
        if (!parsed.success) throw new AppError("invalid_options", 400, describeZodError(parsed.error));
        await authorisedScope(services, claims, parsed.data);
        return claims;
      } catch (error) {
        if (error instanceof AppError) throw new ServerError(ErrorCode.AUTH_FAILED, error.message);
        throw error;
      }
    }
  };
}

/**
 * One room per board scope (board, scope, guild or instance, window); each client views its own page.
 * When the board changes (a presence message from whichever process applied the change), the room
 * recomputes the visible pages and the clients' positions, coalesced to at most 4 times a second, and
 * sends each client only what changed for it.
 */
export abstract class LeaderboardRoom extends Room<{ client: ViewerClient }> {
  protected abstract readonly services: LeaderboardRoomServices;
  private spec!: BoardSpec;
  private updates!: Coalescer;
  private readonly onChange = (change: BoardChange) => {
    if (change.keys.includes("*") || change.keys.includes(boardKey(this.spec.board, this.spec.window)) || change.players?.length)
      this.updates.trigger();
  };

  override async onCreate(options: unknown): Promise<void> {
    const o: LeaderboardRoomOptions = leaderboardRoomOptions.parse(options ?? {});
    this.spec = {
      board: o.board,
      window: o.window,
      scope: o.scope,
      scopeId: o.scope === "guild" ? o.guildId : o.scope === "instance" ? o.instanceId : undefined,
    };
    this.autoDispose = true;
    this.updates = new Coalescer(() => this.pushDeltas(), 1000 / LEADERBOARD_MAX_UPDATES_PER_SECOND, this.services.log);
    await this.services.presence.subscribe(BOARD_CHANGES_CHANNEL, this.onChange);
    this.onMessage(LEADERBOARD_MESSAGES.view, async (client: ViewerClient, raw: unknown) => {
      if (!isPlainObject(raw)) return this.sendError(client, { code: "invalid_message", message: NOT_AN_OBJECT });
      const parsed = leaderboardViewMessage.safeParse(raw);
      if (!parsed.success) return this.sendError(client, { code: "invalid_message", message: describeZodError(parsed.error) });
      client.userData!.page = parsed.data.page;
      client.userData!.limit = parsed.data.limit ?? client.userData!.limit;
      await this.sendSnapshot(client).catch((error) => this.failed(client, error));
    });
  }

  override async onJoin(client: ViewerClient, options: unknown): Promise<void> {
    const o = leaderboardRoomOptions.parse(options ?? {});
    client.userData = {
      playerId: client.auth!.playerId,
      page: o.page,
      limit: o.limit,
      rows: [],
      total: 0,
      me: { rank: null, value: null },
      seq: 0,
    };
    await this.sendSnapshot(client);
  }

  override onDispose(): void {
    this.updates.dispose();
    void this.services.presence.unsubscribe(BOARD_CHANGES_CHANNEL, this.onChange);
  }

  private async sendSnapshot(client: ViewerClient): Promise<void> {
    const viewer = client.userData!;
    const [page] = (await this.pages([viewer])).values();
    const me = (await this.services.leaderboards.positions(this.spec, [viewer.playerId])).get(viewer.playerId)!;
    const rows = this.rowsFor(page!, viewer);
    Object.assign(viewer, { rows, total: page!.ranked.total, me, seq: viewer.seq + 1 });
    const message: LeaderboardSnapshotMessage = {
      board: this.spec.board,
      scope: this.spec.scope,
      window: this.spec.window,
      page: viewer.page,
      limit: viewer.limit,
      total: viewer.total,
      entries: rows,
      me,
      seq: viewer.seq,
    };
    client.send(LEADERBOARD_MESSAGES.snapshot, message);
  }

  /** After a change: each client's page and position again, and a delta to those for whom anything moved. */
  private async pushDeltas(): Promise<void> {
    const viewers = this.clients.filter((c) => c.userData).map((c) => c.userData!);
    if (viewers.length === 0) return;
    const pages = await this.pages(viewers);
    const positions = await this.services.leaderboards.positions(this.spec, [...new Set(viewers.map((v) => v.playerId))]);
    for (const client of this.clients) {
      const viewer = client.userData;
      if (!viewer) continue;
      const page = pages.get(pageKey(viewer));
      if (!page) continue; // the client switched pages meanwhile; its snapshot is on the way
      const rows = this.rowsFor(page, viewer);
      const me = positions.get(viewer.playerId)!;
      const changed = rows.filter((row, i) => JSON.stringify(row) !== JSON.stringify(viewer.rows[i]));
      const meMoved = me.rank !== viewer.me.rank || me.value !== viewer.me.value;
      if (changed.length === 0 && rows.length === viewer.rows.length && page.ranked.total === viewer.total && !meMoved) continue;
      Object.assign(viewer, { rows, total: page.ranked.total, me, seq: viewer.seq + 1 });
      const delta: LeaderboardDeltaMessage = { page: viewer.page, total: viewer.total, size: rows.length, changed, me, seq: viewer.seq };
      client.send(LEADERBOARD_MESSAGES.delta, delta);
    }
  }

  /** The distinct pages the viewers look at: their rows and the profiles of the players on them. */
  private async pages(viewers: Viewer[]) {
    const lb = this.services.leaderboards;
    const pages = new Map<string, { ranked: Ranked; offset: number; profiles: Awaited<ReturnType<typeof lb.loadProfiles>> }>();
    for (const viewer of viewers) {
      const key = pageKey(viewer);
      if (pages.has(key)) continue;
      const offset = (viewer.page - 1) * viewer.limit;
      const ranked = await lb.ranked(this.spec, offset, offset + viewer.limit - 1);
      pages.set(key, {
        ranked,
        offset,
        profiles: await lb.loadProfiles(
          ranked.rows.map((r) => r.playerId),
          this.spec,
        ),
      });
    }
    return pages;
  }

  private rowsFor(page: { ranked: Ranked; offset: number; profiles: Parameters<Leaderboards["render"]>[3] }, viewer: Viewer): BoardEntry[] {
    return this.services.leaderboards.render(this.spec, page.ranked.rows, page.offset, page.profiles, viewer.playerId);
  }

  private failed(client: ViewerClient, error: unknown): void {
    if (error instanceof AppError) return this.sendError(client, { code: error.code, message: error.message });
    this.services.log.error("leaderboard-room", "leaderboard room failed", error);
    this.sendError(client, { code: "internal", message: "Something went wrong; try again" });
  }

  private sendError(client: ViewerClient, error: RoomErrorMessage): void {
    client.send(LEADERBOARD_MESSAGES.error, error);
  }
}

const pageKey = (v: { page: number; limit: number }) => `${v.page}:${v.limit}`;
