import { useEffect, useRef, useState } from "react";
import { LEADERBOARD_REFRESH_MS } from "@casino/common/constants";
import type { BoardAnswer, BoardEntry, LeaderboardBoard, LeaderboardWindow, RankAnswer } from "@casino/common/api";
import { applyLeaderboardDelta, type LeaderboardPosition } from "@casino/common/leaderboard-room";
import { api, seg } from "../../net/api";
import { useLeaderboard, type ScopeParams } from "../../store/leaderboard";
import { useSession } from "../../store/session";
import { BOARD_PATHS, boardQuery } from "./board-query";

export type BoardLink = "connecting" | "live" | "polling";

export interface LiveBoard<E extends BoardEntry> {
  /** The page the entries belong to (the server's answer, which may lag a page switch). */
  page: number;
  entries: E[];
  total: number;
  /** The viewer's own place; null until known. */
  me: LeaderboardPosition | null;
  loading: boolean;
  error: unknown;
  /** live: the `leaderboard` room pushes changes; polling: the room is unreachable, REST every 5 s. */
  link: BoardLink;
}

/** A join that has not succeeded by then starts the polling fallback (the join keeps trying). */
const JOIN_GRACE_MS = 3_000;

interface Known<E> {
  identity: string;
  shown: Shown<E> | null;
  error: unknown;
  link: BoardLink;
}

const fresh = <E>(identity: string): Known<E> => ({ identity, shown: null, error: undefined, link: "connecting" });

interface Shown<E> {
  page: number;
  limit: number;
  entries: E[];
  total: number;
  me: LeaderboardPosition | null;
}

/**
 * One page of a board, kept current. The `leaderboard` room sends a snapshot, then deltas for the
 * visible page and the viewer's position (at most 4 a second); a page switch or a known change asks
 * the room for a fresh snapshot. Only while the room cannot be reached does the page poll REST
 * every 5 seconds (the spec's refresh), and REST answers never overwrite what the room said.
 */
export function useLiveBoard<E extends BoardEntry>(
  board: LeaderboardBoard,
  scope: ScopeParams,
  window: LeaderboardWindow,
  page: number,
  limit: number,
): LiveBoard<E> {
  const token = useSession((s) => s.token);
  const playerId = useSession((s) => s.player?.id ?? null);
  const version = useLeaderboard((s) => s.version);
  const profileVersion = useLeaderboard((s) => s.profileVersion);
  const identity = `${board}|${scope.scope}|${scope.guildId ?? ""}|${scope.instanceId ?? ""}|${window}|${token ?? ""}`;
  // What is known of the board, tagged with the board it belongs to: another board starts afresh.
  const [state, setState] = useState<Known<E>>(() => fresh(identity));
  const known = state.identity === identity ? state : fresh<E>(identity);
  const update = (id: string, change: (k: Known<E>) => Partial<Known<E>>) =>
    setState((s) => {
      const base = s.identity === id ? s : fresh<E>(id);
      return { ...base, ...change(base) };
    });
  const connection = useRef<import("../../net/leaderboard-room").BoardConnection | null>(null);
  const view = useRef({ page, limit });
  /** The sequence number of the last room message applied. */
  const seq = useRef(0);
  useEffect(() => {
    view.current = { page, limit };
  }, [page, limit]);

  // The room: one subscription per board identity; pages are switched inside it.
  useEffect(() => {
    if (!token) return;
    let alive = true;
    const id = identity;
    seq.current = 0;
    const grace = setTimeout(() => alive && update(id, (k) => ({ link: k.link === "connecting" ? "polling" : k.link })), JOIN_GRACE_MS);
    void import("../../net/leaderboard-room")
      .then(({ BoardConnection }) => {
        if (!alive) return;
        connection.current = new BoardConnection(
          token,
          { board, ...scope, window, ...view.current },
          {
            live: (live) => alive && update(id, () => ({ link: live ? "live" : "polling" })),
            snapshot: (m) => {
              if (!alive) return;
              seq.current = m.seq;
              update(id, () => ({
                error: undefined,
                shown: { page: m.page, limit: m.limit, entries: m.entries as E[], total: m.total, me: m.me },
              }));
            },
            delta: (m) => {
              if (!alive) return;
              // A delta applies to the message before it; after a gap, ask for the page again.
              if (m.seq !== seq.current + 1) return connection.current?.view(view.current.page, view.current.limit);
              seq.current = m.seq;
              update(id, ({ shown: s }) => ({
                shown: s && {
                  ...s,
                  entries: applyLeaderboardDelta(s.entries, { ...m, changed: m.changed as E[] }, s.limit),
                  total: m.total,
                  me: m.me,
                },
              }));
            },
          },
        );
      })
      .catch((e) => {
        console.warn("could not load the leaderboard connection", e);
        if (alive) update(id, () => ({ link: "polling" }));
      });
    return () => {
      alive = false;
      clearTimeout(grace);
      connection.current?.close();
      connection.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [identity]);

  // Another page, or a change the room does not push (a profile setting): a fresh snapshot.
  const link = known.link;
  const asked = useRef({ page, limit, profileVersion });
  useEffect(() => {
    const before = asked.current;
    asked.current = { page, limit, profileVersion };
    if (before.page === page && before.limit === limit && before.profileVersion === profileVersion) return;
    if (link === "live") connection.current?.view(page, limit);
  }, [page, limit, profileVersion, link]);

  // The fallback: REST now and every 5 seconds, only while the room is not joined.
  useEffect(() => {
    if (link !== "polling" || !token) return;
    let alive = true;
    const id = identity;
    const run = async () => {
      if (document.visibilityState === "hidden") return;
      try {
        const query = boardQuery(scope, board === "balance" ? window : "all");
        const [answer, rank] = await Promise.all([
          api<BoardAnswer<E>>(`${BOARD_PATHS[board]}?page=${page}&limit=${limit}${query}`),
          playerId ? api<RankAnswer>(`/player/${seg(playerId)}/rank?board=${board}${query}`).catch(() => null) : Promise.resolve(null),
        ]);
        if (!alive) return;
        update(id, ({ shown: s }) => ({
          error: undefined,
          shown: {
            page,
            limit,
            entries: answer.entries,
            total: answer.total,
            me: rank ? { rank: rank.rank, value: null } : (s?.me ?? null),
          },
        }));
      } catch (e) {
        if (alive) update(id, () => ({ error: e }));
      }
    };
    void run();
    const timer = setInterval(run, LEADERBOARD_REFRESH_MS);
    const onVisible = () => document.visibilityState === "visible" && void run();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      alive = false;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [link, identity, page, limit, version, playerId]);

  const { shown, error } = known;
  return {
    page: shown?.page ?? page,
    entries: shown?.entries ?? [],
    total: shown?.total ?? 0,
    me: shown?.me ?? null,
    loading: shown === null && error === undefined,
    error,
    link,
  };
}
