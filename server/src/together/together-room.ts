import { CloseCode, ErrorCode, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  FEED_FLUSH_MS,
  FEED_MAX_ROWS_PER_PUSH,
  TOGETHER_MESSAGES,
  TOGETHER_PUSH,
  describeZodError,
  togetherAtMessage,
  togetherJoinOptions,
  type FeedPush,
  type FeedRow,
  type MembersPush,
} from "@casino/common";
import type { SessionClaims } from "../auth/session";
import { AppError, forbidden } from "../errors";
import { Coalescer } from "../leaderboard/coalescer";
import type { Services } from "../services";
import { FEED_GLOBAL_CHANNEL, MEMBER_REFRESH_MS, feedChannel, membersChannel } from "./together";

interface TogetherAuth extends SessionClaims {
  instanceId: string | null;
}
interface Viewer {
  playerId: string;
  game: string | null;
  /** When the last `at` was applied, and the one waiting for its turn (at most 4 a second are applied). */
  lastAt: number;
  pendingAt: ReturnType<typeof setTimeout> | null;
}
type TogetherClient = Client<{ auth: TogetherAuth; userData: Viewer }>;

const AT_MIN_INTERVAL_MS = 250;
/** Members pushes are coalesced to at most this many a second. */
const MEMBERS_PER_SECOND = 4;

/**
 * The together room type of one app: onAuth checks the session and, for an instance, that the player
 * joined it (the same rule as the instance's crash room and boards). Guests and standalone visits join
 * the one room without an instance and hear the global big wins only.
 */
export function togetherRoom(services: Services) {
  return class AppTogetherRoom extends TogetherRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<TogetherAuth> {
      try {
        const claims = await services.tokens.verify(token);
        const parsed = togetherJoinOptions.safeParse(options ?? {});
        if (!parsed.success) throw new AppError("invalid_options", 400, describeZodError(parsed.error));
        const instanceId = parsed.data.instanceId;
        if (instanceId !== null) {
          if (claims.guest) throw forbidden("Guests have no activity instance; launch the casino in Discord");
          if (!(await services.instances.admits(claims.playerId, instanceId)))
            throw forbidden("You have not joined that activity instance");
        }
        return { ...claims, instanceId };
      } catch (error) {
        if (error instanceof AppError) throw new ServerError(ErrorCode.AUTH_FAILED, error.message);
        throw error;
      }
    }
  };
}

/**
 * One room per activity instance (and one for everyone outside Discord): the instance's members with
 * the table each sits at, the instance's settled rounds as they settle, and the global big wins. Rows
 * arrive on presence channels from whichever process settled the round; the room folds them into one
 * push at most every FEED_FLUSH_MS, at most FEED_MAX_ROWS_PER_PUSH rows of each feed.
 */
export abstract class TogetherRoom extends Room<{ client: TogetherClient }> {
  protected abstract readonly services: Services;
  private instanceId: string | null = null;
  private instanceRows: FeedRow[] = [];
  private globalRows: FeedRow[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private membersPush!: Coalescer;
  private refreshTimer: ReturnType<typeof setInterval> | null = null;

  private readonly onInstanceRow = (row: FeedRow) => this.queue(this.instanceRows, row);
  private readonly onGlobalRow = (row: FeedRow) => this.queue(this.globalRows, row);
  private readonly onMembersChanged = () => this.membersPush.trigger();

  override async onCreate(options: unknown): Promise<void> {
    this.instanceId = togetherJoinOptions.parse(options ?? {}).instanceId;
    this.autoDispose = true;
    this.maxMessagesPerSecond = this.services.config.roomMaxMessagesPerSecond;
    this.membersPush = new Coalescer(() => this.pushMembers(), 1000 / MEMBERS_PER_SECOND, this.services.log);
    const presence = this.services.presence;
    await presence.subscribe(FEED_GLOBAL_CHANNEL, this.onGlobalRow);
    if (this.instanceId) {
      await presence.subscribe(feedChannel(this.instanceId), this.onInstanceRow);
      await presence.subscribe(membersChannel(this.instanceId), this.onMembersChanged);
      this.refreshTimer = setInterval(() => void this.refreshEntries(), MEMBER_REFRESH_MS);
    }
    this.onMessage(TOGETHER_MESSAGES.at, (client: TogetherClient, raw: unknown) => this.onAt(client, raw));
  }

  override async onJoin(client: TogetherClient): Promise<void> {
    client.userData = { playerId: client.auth!.playerId, game: null, lastAt: 0, pendingAt: null };
    if (!this.instanceId) return;
    const together = this.services.together;
    await together.enter(this.instanceId, client.auth!.playerId);
    // The change above reaches the instance's other rooms; this client gets its list now.
    const members = await together.members(this.instanceId, client.auth!.playerId);
    client.send(TOGETHER_PUSH.members, { instanceId: this.instanceId, members } satisfies MembersPush);
  }

  override async onDrop(client: TogetherClient, code?: number): Promise<void> {
    if (code === CloseCode.WITH_ERROR || code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // A phone drops its socket without a close: the player stays listed for a while (no flicker).
    await this.allowReconnection(client, 30);
  }

  override async onLeave(client: TogetherClient): Promise<void> {
    const viewer = client.userData;
    if (viewer?.pendingAt) clearTimeout(viewer.pendingAt);
    if (!this.instanceId || !viewer) return;
    // Another connection of the same player (a second tab) keeps the entry.
    if (this.clients.some((c) => c !== client && c.userData?.playerId === viewer.playerId)) return;
    await this.services.together
      .leave(this.instanceId, viewer.playerId)
      .catch((error) => this.services.log.error("together:leave", "leave not recorded", error));
  }

  override onDispose(): void {
    this.membersPush.dispose();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    const presence = this.services.presence;
    void Promise.resolve(presence.unsubscribe(FEED_GLOBAL_CHANNEL, this.onGlobalRow)).catch(() => undefined);
    if (this.instanceId) {
      void Promise.resolve(presence.unsubscribe(feedChannel(this.instanceId), this.onInstanceRow)).catch(() => undefined);
      void Promise.resolve(presence.unsubscribe(membersChannel(this.instanceId), this.onMembersChanged)).catch(() => undefined);
    }
  }

  private onAt(client: TogetherClient, raw: unknown): void {
    const parsed = togetherAtMessage.safeParse(raw);
    if (!parsed.success) {
      client.send(TOGETHER_PUSH.error, { code: "invalid_message", message: describeZodError(parsed.error) });
      return;
    }
    const viewer = client.userData!;
    viewer.game = parsed.data.game;
    if (!this.instanceId || viewer.pendingAt) return;
    const wait = viewer.lastAt + AT_MIN_INTERVAL_MS - Date.now();
    const apply = () => {
      viewer.pendingAt = null;
      viewer.lastAt = Date.now();
      void this.services.together
        .at(this.instanceId!, viewer.playerId, viewer.game)
        .catch((error) => this.services.log.error("together:at", "table not recorded", error));
    };
    if (wait <= 0) apply();
    else viewer.pendingAt = setTimeout(apply, wait);
  }

  private queue(rows: FeedRow[], row: FeedRow): void {
    rows.push(row);
    if (rows.length > FEED_MAX_ROWS_PER_PUSH) rows.splice(0, rows.length - FEED_MAX_ROWS_PER_PUSH);
    this.flushTimer ??= setTimeout(() => this.flush(), FEED_FLUSH_MS);
  }

  private flush(): void {
    this.flushTimer = null;
    const push: FeedPush = { instance: this.instanceRows, global: this.globalRows };
    this.instanceRows = [];
    this.globalRows = [];
    if (push.instance.length === 0 && push.global.length === 0) return;
    this.broadcast(TOGETHER_PUSH.feed, push);
  }

  private async pushMembers(): Promise<void> {
    if (!this.instanceId) return;
    const viewers = this.clients.filter((c) => c.userData).map((c) => c.userData!.playerId);
    if (viewers.length === 0) return;
    const lists = await this.services.together.membersFor(this.instanceId, [...new Set(viewers)]);
    for (const client of this.clients) {
      const members = client.userData && lists.get(client.userData.playerId);
      if (members) client.send(TOGETHER_PUSH.members, { instanceId: this.instanceId, members } satisfies MembersPush);
    }
  }

  private async refreshEntries(): Promise<void> {
    const entries = new Map(this.clients.filter((c) => c.userData).map((c) => [c.userData!.playerId, c.userData!.game]));
    await this.services.together
      .refresh(this.instanceId!, entries)
      .catch((error) => this.services.log.error("together:refresh", "presence not refreshed", error));
  }
}
