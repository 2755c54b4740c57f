import { Client, type Room } from "@colyseus/sdk";
import {
  LEADERBOARD_MESSAGES,
  LEADERBOARD_REFRESH_MS,
  LEADERBOARD_ROOM,
  applyLeaderboardDelta,
  leaderboardDeltaMessage,
  leaderboardSnapshotMessage,
  type BoardAnswer,
  type BoardEntry,
  type LeaderboardBoard,
  type LeaderboardPosition,
  type LeaderboardScope,
  type LeaderboardWindow,
  type RankAnswer,
} from "@casino/common";
import { socketUrl } from "./room";
import { api } from "./session";

export interface BoardView {
  board: LeaderboardBoard;
  scope: LeaderboardScope;
  guildId?: string;
  instanceId?: string;
  window: LeaderboardWindow;
  page: number;
  limit: number;
}

export interface BoardState {
  entries: BoardEntry[];
  total: number;
  me: LeaderboardPosition;
  /** "live": pushed by the server; "polling": the spec's 5-second refresh, used when the room is unreachable. */
  mode: "live" | "polling";
}

export interface BoardWatch {
  /** Shows another page of the same board. */
  view(page: number, limit?: number): void;
  stop(): void;
}

const REST_PATHS: Record<LeaderboardBoard, string> = {
  balance: "/api/leaderboard",
  speed: "/api/game/dots/leaderboard",
  kills: "/api/game/dot-battle/leaderboard",
};

/**
 * Keeps one page of a board current: joins the `leaderboard` room and applies its snapshot and deltas;
 * if the room cannot be joined (or drops), falls back to polling the REST call every 5 seconds.
 */
export function watchBoard(token: string, playerId: string | null, initial: BoardView, onChange: (state: BoardState) => void): BoardWatch {
  let current = { ...initial };
  let room: Room | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let rows: BoardEntry[] = [];

  const poll = async () => {
    const query = new URLSearchParams({ page: String(current.page), limit: String(current.limit), scope: current.scope });
    if (current.board === "balance") query.set("window", current.window);
    if (current.guildId) query.set("guildId", current.guildId);
    if (current.instanceId) query.set("instanceId", current.instanceId);
    const page = await api<BoardAnswer<BoardEntry>>(`${REST_PATHS[current.board]}?${query}`, { token });
    const rank = playerId ? await api<RankAnswer>(`/api/player/${playerId}/rank?board=${current.board}&${query}`, { token }) : null;
    if (!stopped) onChange({ entries: page.entries, total: page.total, me: { rank: rank?.rank ?? null, value: null }, mode: "polling" });
  };
  const startPolling = () => {
    if (stopped || timer) return;
    void poll().catch(() => undefined);
    timer = setInterval(() => void poll().catch(() => undefined), LEADERBOARD_REFRESH_MS);
  };

  const client = new Client(socketUrl());
  client.auth.token = token;
  client
    .joinOrCreate(LEADERBOARD_ROOM, current)
    .then((joined) => {
      if (stopped) return void joined.leave();
      room = joined;
      joined.onMessage(LEADERBOARD_MESSAGES.snapshot, (raw: unknown) => {
        const s = leaderboardSnapshotMessage.safeParse(raw);
        if (!s.success) return;
        rows = s.data.entries;
        onChange({ entries: rows, total: s.data.total, me: s.data.me, mode: "live" });
      });
      joined.onMessage(LEADERBOARD_MESSAGES.delta, (raw: unknown) => {
        const d = leaderboardDeltaMessage.safeParse(raw);
        if (!d.success || d.data.page !== current.page) return;
        rows = applyLeaderboardDelta(rows, d.data, current.limit);
        onChange({ entries: rows, total: d.data.total, me: d.data.me, mode: "live" });
      });
      joined.onMessage(LEADERBOARD_MESSAGES.error, () => undefined);
      joined.onLeave(() => {
        room = null;
        startPolling();
      });
    })
    .catch(startPolling);

  return {
    view(page, limit = current.limit) {
      current = { ...current, page, limit };
      if (room) room.send(LEADERBOARD_MESSAGES.view, { page, limit });
      else void poll().catch(() => undefined);
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      void room?.leave();
    },
  };
}
