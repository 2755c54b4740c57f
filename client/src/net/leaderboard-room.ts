import { Client, type Room } from "@colyseus/sdk";
import {
  LEADERBOARD_MESSAGES,
  LEADERBOARD_ROOM,
  leaderboardDeltaMessage,
  leaderboardSnapshotMessage,
  type LeaderboardDeltaMessage,
  type LeaderboardSnapshotMessage,
} from "@casino/common/leaderboard-room";
import type { LeaderboardBoard, LeaderboardScope, LeaderboardWindow } from "@casino/common/api";
import { socketEndpoint } from "./room";

/** Which board a viewer subscribes to: the room's identity on the server (board, scope, window). */
export interface BoardSubscription {
  board: LeaderboardBoard;
  scope: LeaderboardScope;
  guildId?: string;
  instanceId?: string;
  window: LeaderboardWindow;
  page: number;
  limit: number;
}

export interface BoardListener {
  /** True while the room is joined (deltas arrive); false while the viewer must poll instead. */
  live(live: boolean): void;
  snapshot(message: LeaderboardSnapshotMessage): void;
  delta(message: LeaderboardDeltaMessage): void;
}

const REJOIN_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * A subscription to one board in the `leaderboard` room (common/leaderboard-room.ts): a snapshot on join and
 * on `view`, then deltas for the visible page and the viewer's own position. Every message is checked
 * against the schemas in common before it reaches the page. A lost room is joined again with a growing
 * delay; meanwhile `live(false)` tells the viewer to fall back to polling.
 */
export class BoardConnection {
  private readonly client: Client;
  private room: Room | null = null;
  private closed = false;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    token: string,
    private options: BoardSubscription,
    private readonly listener: BoardListener,
    endpoint: string = socketEndpoint(),
  ) {
    this.client = new Client(endpoint, { urlBuilder: (url) => url.href });
    this.client.auth.token = token;
    void this.join();
  }

  /** Shows another page (or asks for a fresh snapshot of the same one). */
  view(page: number, limit: number): void {
    this.options = { ...this.options, page, limit };
    this.room?.send(LEADERBOARD_MESSAGES.view, { page, limit });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    const room = this.room;
    this.room = null;
    void room?.leave(true).catch(() => undefined);
  }

  private async join(): Promise<void> {
    if (this.closed) return;
    try {
      const { board, scope, guildId, instanceId, window, page, limit } = this.options;
      const room = await this.client.joinOrCreate(LEADERBOARD_ROOM, { board, scope, guildId, instanceId, window, page, limit });
      if (this.closed) return void room.leave(true).catch(() => undefined);
      this.attempt = 0;
      this.attach(room);
    } catch (error) {
      console.warn("leaderboard room unavailable; polling instead", error);
      this.retry();
    }
  }

  private retry(): void {
    if (this.closed) return;
    this.listener.live(false);
    const delay = REJOIN_DELAYS_MS[Math.min(this.attempt++, REJOIN_DELAYS_MS.length - 1)];
    this.timer = setTimeout(() => void this.join(), delay);
  }

  private attach(room: Room): void {
    this.room = room;
    room.onMessage(LEADERBOARD_MESSAGES.snapshot, (body: unknown) => {
      const parsed = leaderboardSnapshotMessage.safeParse(body);
      if (parsed.success) this.listener.snapshot(parsed.data);
      else console.error("unreadable leaderboard snapshot", parsed.error);
    });
    room.onMessage(LEADERBOARD_MESSAGES.delta, (body: unknown) => {
      const parsed = leaderboardDeltaMessage.safeParse(body);
      if (parsed.success) this.listener.delta(parsed.data);
      else console.error("unreadable leaderboard delta", parsed.error);
    });
    room.onMessage(LEADERBOARD_MESSAGES.error, (body: unknown) => console.warn("leaderboard room refused a request", body));
    room.onDrop(() => this.listener.live(false));
    room.onReconnect(() => {
      this.listener.live(true);
      // Deltas may have been missed while away: start again from a snapshot.
      this.view(this.options.page, this.options.limit);
    });
    room.onLeave(() => {
      if (this.room !== room) return;
      this.room = null;
      this.retry();
    });
    this.listener.live(true);
  }
}
