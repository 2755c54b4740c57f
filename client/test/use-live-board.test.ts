import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { BalanceEntry, LeaderboardBoard, LeaderboardWindow } from "@casino/common/api";
import { LEADERBOARD_MESSAGES } from "@casino/common/leaderboard-room";
import type { PlayerRecord } from "@casino/common/api";
import { fakeServer, type FakeRoom } from "./fake-colyseus";
import { useLiveBoard } from "../src/features/leaderboard/useLiveBoard";
import { refreshLeaderboardProfile } from "../src/store/leaderboard";
import { useSession } from "../src/store/session";
import { setSessionToken } from "../src/net/api";
import "../src/net/leaderboard-room";

vi.mock("@colyseus/sdk", () => import("./fake-colyseus"));

/**
 * The live board on the real board connection; the `leaderboard` room and REST are fakes driven as the
 * server would. Time is fake (the join grace, the rejoin delays and the 5 s polling are timers).
 */
const sessionState = useSession.getState();
const SCOPE = { scope: "global" as const };

interface Call {
  url: string;
  authorization: string | null;
  answer(body: unknown, status?: number): void;
}
let calls: Call[] = [];

beforeEach(() => {
  fakeServer.reset();
  calls = [];
  setSessionToken("tok");
  useSession.setState({ ...sessionState, token: "tok", player: { id: "p-me", balance: 10 } as PlayerRecord }, true);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  // REST at the network edge: each call waits for the test to answer it.
  vi.stubGlobal(
    "fetch",
    vi.fn(
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          const authorization = new Headers(init.headers).get("authorization");
          calls.push({ url, authorization, answer: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status })) });
        }),
    ),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Lets promises and the module loader run, without moving the fake clock. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await act(() => new Promise<void>((r) => setImmediate(r)));
}
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const entry = (rank: number, name: string, balance: number): BalanceEntry => ({
  rank,
  playerId: `id-${name}`,
  username: name,
  face: `face-${name}`,
  avatarUrl: null,
  anonymousMode: false,
  badge: null,
  balance,
  activeTag: null,
});

interface Props {
  board: LeaderboardBoard;
  window: LeaderboardWindow;
  page: number;
}

async function board(initialProps: Props = { board: "balance", window: "all", page: 1 }, joined = true) {
  const hook = renderHook((p: Props) => useLiveBoard<BalanceEntry>(p.board, SCOPE, p.window, p.page, 3), { initialProps });
  if (joined) await settle();
  return { ...hook, now: () => hook.result.current };
}

function snapshot(room: FakeRoom, seq: number, entries: BalanceEntry[], page = 1, total = 7) {
  act(() =>
    room.message(LEADERBOARD_MESSAGES.snapshot, {
      board: "balance",
      scope: "global",
      window: "all",
      page,
      limit: 3,
      total,
      entries,
      me: { rank: 5, value: 10 },
      seq,
    }),
  );
}
function delta(room: FakeRoom, seq: number, size: number, changed: BalanceEntry[], total = 7, me = { rank: 5, value: 10 }) {
  act(() => room.message(LEADERBOARD_MESSAGES.delta, { page: 1, total, size, changed, me, seq }));
}

const names = (entries: BalanceEntry[]) => entries.map((e) => `${e.rank}:${e.username}`);
const TOP = [entry(1, "ann", 900), entry(2, "bob", 800), entry(3, "cy", 700)];

describe("the live board", () => {
  it("subscribes with the session token and shows the room's snapshot", async () => {
    const b = await board(undefined, false);
    expect(b.now()).toMatchObject({ loading: true, link: "connecting", entries: [] });
    await settle();
    expect(b.now()).toMatchObject({ loading: true, link: "live", entries: [] });
    expect(fakeServer.joins).toHaveLength(1);
    expect(fakeServer.joins[0]).toMatchObject({
      method: "joinOrCreate",
      name: "leaderboard",
      token: "tok",
      options: { board: "balance", scope: "global", window: "all", page: 1, limit: 3 },
    });
    snapshot(fakeServer.room, 1, TOP);
    expect(b.now()).toMatchObject({ loading: false, link: "live", page: 1, total: 7, me: { rank: 5, value: 10 } });
    expect(names(b.now().entries)).toEqual(["1:ann", "2:bob", "3:cy"]);
    expect(calls).toHaveLength(0);
  });

  it("applies deltas in order: rows kept, rows replaced by rank, total and own place", async () => {
    const b = await board();
    const room = fakeServer.room;
    snapshot(room, 1, TOP);
    // cy overtakes bob
    delta(room, 2, 3, [entry(2, "cy", 850), entry(3, "bob", 800)], 7, { rank: 4, value: 10 });
    expect(names(b.now().entries)).toEqual(["1:ann", "2:cy", "3:bob"]);
    expect(b.now().entries[1].balance).toBe(850);
    expect(b.now().me).toEqual({ rank: 4, value: 10 });
    // the board shrank to two rows on this page
    delta(room, 3, 2, [], 2);
    expect(names(b.now().entries)).toEqual(["1:ann", "2:cy"]);
    expect(b.now().total).toBe(2);
  });

  it("after a missed delta applies nothing and asks for the page again", async () => {
    const b = await board();
    const room = fakeServer.room;
    snapshot(room, 1, TOP);
    delta(room, 3, 3, [entry(1, "dee", 5000)]);
    expect(names(b.now().entries)).toEqual(["1:ann", "2:bob", "3:cy"]);
    expect(room.sentOf(LEADERBOARD_MESSAGES.view)).toEqual([{ page: 1, limit: 3 }]);
    snapshot(room, 4, [entry(1, "dee", 5000), ...TOP.slice(0, 2).map((e) => ({ ...e, rank: e.rank + 1 }))]);
    delta(room, 5, 3, [entry(3, "eve", 780)]);
    expect(names(b.now().entries)).toEqual(["1:dee", "2:ann", "3:eve"]);
  });

  it("ignores a message that does not match the protocol", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const b = await board();
    const room = fakeServer.room;
    snapshot(room, 1, TOP);
    act(() =>
      room.message(LEADERBOARD_MESSAGES.delta, { page: 1, total: 7, size: 3, changed: [{ rank: 0 }], me: { rank: 1, value: 1 }, seq: 2 }),
    );
    expect(error).toHaveBeenCalled();
    expect(names(b.now().entries)).toEqual(["1:ann", "2:bob", "3:cy"]);
    error.mockRestore();
  });

  it("asks the room for another page, and for a fresh one after a profile change", async () => {
    const b = await board();
    const room = fakeServer.room;
    snapshot(room, 1, TOP);
    b.rerender({ board: "balance", window: "all", page: 2 });
    expect(room.sentOf(LEADERBOARD_MESSAGES.view)).toEqual([{ page: 2, limit: 3 }]);
    // the rows stay those of the page the server answered until the new page arrives
    expect(b.now().page).toBe(1);
    snapshot(room, 2, [entry(4, "dan", 600)], 2);
    expect(b.now().page).toBe(2);
    expect(names(b.now().entries)).toEqual(["4:dan"]);
    act(() => refreshLeaderboardProfile());
    expect(room.sentOf(LEADERBOARD_MESSAGES.view)).toEqual([
      { page: 2, limit: 3 },
      { page: 2, limit: 3 },
    ]);
    expect(fakeServer.joins).toHaveLength(1);
  });

  it("starts afresh on another board: leaves the old room and joins the new one", async () => {
    const b = await board();
    const first = fakeServer.room;
    snapshot(first, 1, TOP);
    b.rerender({ board: "balance", window: "day", page: 1 });
    expect(b.now()).toMatchObject({ loading: true, entries: [], link: "connecting" });
    await settle();
    expect(first.leftConsented).toBe(true);
    expect(fakeServer.joins).toHaveLength(2);
    expect(fakeServer.joins[1].options).toMatchObject({ window: "day" });
    // a late message of the old room changes nothing
    snapshot(first, 2, [entry(1, "old", 1)]);
    expect(b.now().entries).toEqual([]);
    snapshot(fakeServer.room, 1, [entry(1, "zed", 40)]);
    expect(names(b.now().entries)).toEqual(["1:zed"]);
  });
});

describe("when the room cannot be reached", () => {
  it("polls REST every 5 s while dropped, and resyncs from a snapshot when back", async () => {
    const b = await board();
    const room = fakeServer.room;
    snapshot(room, 1, TOP);
    act(() => room.drop());
    expect(b.now().link).toBe("polling");
    await settle();
    expect(calls.map((c) => c.url)).toEqual(["/api/leaderboard?page=1&limit=3", "/api/player/p-me/rank?board=balance"]);
    expect(calls[0].authorization).toBe("Bearer tok");
    calls[0].answer({ entries: [entry(1, "ann", 950), entry(2, "bob", 800)], total: 2, page: 1, limit: 3, scope: "global", window: "all" });
    calls[1].answer({ rank: 2 });
    await settle();
    expect(names(b.now().entries)).toEqual(["1:ann", "2:bob"]);
    expect(b.now().me).toEqual({ rank: 2, value: null });

    await advance(5_000);
    await settle();
    expect(calls).toHaveLength(4);

    // back: deltas may have been missed, so the page is asked for again; polling stops
    act(() => room.reconnect());
    expect(b.now().link).toBe("live");
    expect(room.sentOf(LEADERBOARD_MESSAGES.view)).toEqual([{ page: 1, limit: 3 }]);
    // the poll still on its way when the room came back does not overwrite the room's word
    snapshot(room, 9, TOP);
    calls[2].answer({ entries: [entry(1, "stale", 1)], total: 1, page: 1, limit: 3, scope: "global", window: "all" });
    calls[3].answer({ rank: 1 });
    await settle();
    expect(names(b.now().entries)).toEqual(["1:ann", "2:bob", "3:cy"]);
    await advance(15_000);
    await settle();
    expect(calls).toHaveLength(4);
  });

  it("polls at once when the join fails, and goes live when a later join succeeds", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    fakeServer.refuse = 2;
    const b = await board();
    expect(b.now().link).toBe("polling");
    expect(calls).toHaveLength(2);
    calls[0].answer({ entries: TOP, total: 7, page: 1, limit: 3, scope: "global", window: "all" });
    calls[1].answer({ rank: null });
    await settle();
    expect(names(b.now().entries)).toEqual(["1:ann", "2:bob", "3:cy"]);
    expect(b.now().me).toEqual({ rank: null, value: null });

    await advance(1_000);
    await settle();
    expect(fakeServer.joins).toHaveLength(2);
    expect(b.now().link).toBe("polling");
    await advance(1_999);
    await settle();
    expect(fakeServer.joins).toHaveLength(2);
    await advance(1);
    await settle();
    expect(fakeServer.joins).toHaveLength(3);
    expect(b.now().link).toBe("live");
    snapshot(fakeServer.room, 1, [entry(1, "ann", 1000)]);
    expect(names(b.now().entries)).toEqual(["1:ann"]);
  });

  it("polls once a join has gone unanswered for 3 s, and goes live when it is answered", async () => {
    fakeServer.hold = true;
    const b = await board();
    expect(fakeServer.joins).toHaveLength(1);
    await advance(2_999);
    await settle();
    expect(b.now().link).toBe("connecting");
    expect(calls).toHaveLength(0);
    await advance(1);
    await settle();
    expect(b.now().link).toBe("polling");
    expect(calls.map((c) => c.url)).toContain("/api/leaderboard?page=1&limit=3");
    act(() => fakeServer.answerHeld());
    await settle();
    expect(b.now().link).toBe("live");
  });

  it("shows a REST failure as the board's error", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    fakeServer.refuse = 1;
    const b = await board();
    calls[0].answer({ error: "Too many requests" }, 429);
    calls[1].answer({ rank: 3 });
    await settle();
    expect(b.now().loading).toBe(false);
    expect(b.now().error).toMatchObject({ status: 429 });
  });
});
