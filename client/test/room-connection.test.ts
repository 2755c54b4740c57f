import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { ACCOUNT_CLOSED_CLOSE_CODE } from "@casino/common/account";
import type { PlayerRecord } from "@casino/common/api";
import { fakeServer, type FakeRoom } from "./fake-colyseus";
import { connectRoom, reconnectRoom, useRoomConnection } from "../src/app/start";
import { RoomFailure } from "../src/net/room-failure";
import { newRequestId } from "../src/net/request-id";
import { revealed, acceptAnswer, shownBalance, useRoom } from "../src/store/room";
import { useGameConnection } from "../src/features/game-host/game-connection";
import { useSession } from "../src/store/session";
import { useNotifications } from "../src/store/notifications";
import { useToast } from "../src/store/toast";
import { useLeaderboard } from "../src/store/leaderboard";
import { TogetherConnection } from "../src/net/together-room";

vi.mock("@colyseus/sdk", () => import("./fake-colyseus"));

const roomState = useRoom.getState();
const sessionState = useSession.getState();

beforeEach(() => {
  fakeServer.reset();
  useRoom.setState(roomState, true);
  useSession.setState(sessionState, true);
  useToast.setState({ current: null });
  useNotifications.setState({ items: [], unread: 0 });
});

afterEach(() => {
  useRoom.getState().connection?.close();
  vi.useRealTimers();
});

/** Connects and waits until the fake server has seated the client. */
async function connected(token = "session-token"): Promise<FakeRoom> {
  await connectRoom(token);
  await vi.waitFor(() => expect(useRoom.getState().status).toBe("open"));
  return fakeServer.room;
}

const connection = () => {
  const c = useRoom.getState().connection;
  if (!c) throw new Error("no connection");
  return c;
};

describe("joining the casino room", () => {
  it("creates the player's own room with the session token and this browser's client seed", async () => {
    await connected("tok-1");
    expect(fakeServer.joins).toHaveLength(1);
    const [join] = fakeServer.joins;
    expect(join).toMatchObject({ method: "create", name: "casino", token: "tok-1" });
    expect(join.options.clientSeed).toMatch(/^[0-9a-f]{32}$/);
    expect(join.options.clientSeed).toBe(localStorage.getItem("client-seed"));
    expect(join.endpoint).toBe(`ws://${location.host}`);
  });

  it("feeds the store from the room state and the open-round message: balance, open round and seeds", async () => {
    const room = await connected();
    const open = { game: "blackjack", roundId: "r-1", view: { hand: [] }, totalStake: 10, totalPayout: 0 };
    // What the sign-in said (app/start.ts): the room's state comes before its word on the open round,
    // and the sign-in's stands until then.
    const fromSignIn = { ...open, roundId: "r-0" };
    useRoom.setState({ openRound: fromSignIn });
    room.patch({
      balance: 1234,
      serverSeedHash: "a".repeat(64),
      clientSeed: "my-seed",
      nonce: 7,
      nextServerSeedHash: "b".repeat(64),
    });
    expect(useRoom.getState().openRound).toEqual(fromSignIn);
    room.message("open-round", { round: open });
    const s = useRoom.getState();
    expect(s.balance).toBe(1234);
    expect(s.openRound).toEqual(open);
    expect(s.seeds).toEqual({ serverSeedHash: "a".repeat(64), clientSeed: "my-seed", nonce: 7, nextServerSeedHash: "b".repeat(64) });
    room.patch({ balance: 1234 });
    expect(useRoom.getState().openRound).toEqual(open);
    expect(useRoom.getState().seeds).toBeNull();
    room.message("open-round", { round: null });
    expect(useRoom.getState().openRound).toBeNull();
    expect(useRoom.getState().balance).toBe(1234);
  });

  it("tells the boards when the balance changes, and keeps it in the room store alone", async () => {
    useSession.setState({ player: { id: "p1", balance: 100 } as PlayerRecord });
    useRoom.setState({ balance: 100 });
    const room = await connected();
    const version = useLeaderboard.getState().version;
    room.patch({ balance: 100 });
    expect(useLeaderboard.getState().version).toBe(version);
    room.patch({ balance: 150 });
    expect(useRoom.getState().balance).toBe(150);
    expect(useLeaderboard.getState().version).toBe(version + 1);
  });

  it("tries again with a growing delay while the server cannot be reached, then opens", async () => {
    vi.useFakeTimers();
    fakeServer.refuse = 2;
    await connectRoom("tok");
    await vi.advanceTimersByTimeAsync(0);
    expect(fakeServer.joins).toHaveLength(1);
    expect(useRoom.getState().status).toBe("connecting");
    await vi.advanceTimersByTimeAsync(499);
    expect(fakeServer.joins).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fakeServer.joins).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fakeServer.joins).toHaveLength(3);
    expect(useRoom.getState().status).toBe("open");
  });

  it("gives up as lost after the last attempt and fails the requests waiting, until Retry", async () => {
    vi.useFakeTimers();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    useSession.setState({ token: "tok" });
    fakeServer.refuse = 6;
    await connectRoom("tok");
    const waiting = connection().request("bet", { game: "dice", amount: 1 });
    const outcome = waiting.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500 + 1_000 + 2_000 + 4_000 + 8_000);
    expect(fakeServer.joins).toHaveLength(6);
    expect(useRoom.getState().status).toBe("lost");
    const error = await outcome;
    expect(error).toBeInstanceOf(RoomFailure);
    expect((error as RoomFailure).code).toBe("disconnected");

    reconnectRoom();
    await vi.advanceTimersByTimeAsync(0);
    expect(fakeServer.joins).toHaveLength(7);
    expect(useRoom.getState().status).toBe("open");
  });
});

describe("requests", () => {
  it("carry a request id made once per call and resolve with the answer to that id", async () => {
    const room = await connected();
    const first = connection().request<{ requestId: string; n: number }>("bet", { game: "dice", amount: 5 });
    const second = connection().request<{ requestId: string; n: number }>("bet", { game: "dice", amount: 6 });
    const [a, b] = room.sentOf("bet");
    expect(a).toMatchObject({ game: "dice", amount: 5 });
    expect(a.requestId).toMatch(/^bet-[0-9a-f]{24}$/);
    expect(b.requestId).not.toBe(a.requestId);
    // answers in the other order each reach their own request
    room.message("result", { requestId: b.requestId, n: 2 });
    room.message("result", { requestId: a.requestId, n: 1 });
    await expect(first).resolves.toEqual({ requestId: a.requestId, n: 1 });
    await expect(second).resolves.toEqual({ requestId: b.requestId, n: 2 });
  });

  it("reject with the server's code, words and details when refused", async () => {
    const room = await connected();
    const request = connection().request("bet", { game: "dice", amount: 5000 });
    const { requestId } = room.sentOf("bet")[0];
    room.message("error", { requestId, code: "insufficient_funds", message: "Not enough coins", details: { balance: 10 } });
    const error = await request.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoomFailure);
    expect(error).toMatchObject({ code: "insufficient_funds", message: "Not enough coins", details: { balance: 10 } });
  });

  it("pass pushed messages on, and drop a repeated answer to a settled request", async () => {
    const room = await connected();
    const request = connection().request("bet", { game: "dice", amount: 1 });
    const { requestId } = room.sentOf("bet")[0];
    room.message("result", { requestId, first: true });
    room.message("result", { requestId, first: false });
    await expect(request).resolves.toEqual({ requestId, first: true });
    room.message("notice", { title: "Daily Spin Ready!", description: "Spin the wheel" });
    expect(useNotifications.getState().items.map((n) => n.title)).toEqual(["Daily Spin Ready!"]);
  });

  it("pass an error that answers no request on as a push: the together room's refusal of a reaction", async () => {
    const pushes: [string, unknown][] = [];
    const together = new TogetherConnection("tok", "inst-1", {
      status: () => undefined,
      state: () => undefined,
      push: (type, body) => pushes.push([type, body]),
    });
    void together.start();
    await vi.waitFor(() => expect(fakeServer.rooms.some((r) => r.name === "together")).toBe(true));
    const room = fakeServer.room;
    together.react("fire", { kind: "crash-round" });
    expect(room.sentOf("react")).toEqual([{ reaction: "fire", target: { kind: "crash-round" } }]);
    room.message("error", { code: "rate_limited", message: "Too many reactions; one a second" });
    expect(pushes).toEqual([["error", { code: "rate_limited", message: "Too many reactions; one a second" }]]);
    together.close();
  });

  it("are sent again with the same id when the socket comes back", async () => {
    const room = await connected();
    const request = connection().request("act", { action: { type: "hit" } });
    room.drop();
    expect(useRoom.getState().status).toBe("reconnecting");
    room.reconnect();
    expect(useRoom.getState().status).toBe("open");
    const sent = room.sentOf("act");
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    room.message("result", { requestId: sent[0].requestId, replayed: true });
    await expect(request).resolves.toMatchObject({ requestId: sent[0].requestId });
  });

  it("are sent again with the same id to a new room when the seat is lost", async () => {
    const first = await connected();
    const request = connection().request("bet", { game: "dice", amount: 3 });
    first.kick(1006);
    await vi.waitFor(() => expect(fakeServer.rooms).toHaveLength(2));
    await vi.waitFor(() => expect(useRoom.getState().status).toBe("open"));
    const second = fakeServer.room;
    expect(second.sentOf("bet")).toEqual(first.sentOf("bet"));
    second.message("result", { requestId: first.sentOf("bet")[0].requestId, ok: true });
    await expect(request).resolves.toMatchObject({ ok: true });
    // the old room's messages no longer count
    first.kick(1006);
    expect(fakeServer.joins).toHaveLength(2);
  });

  it("stop for good when the account is closed, with the server's reason", async () => {
    const room = await connected();
    const request = connection().request("bet", { game: "dice", amount: 3 });
    room.kick(ACCOUNT_CLOSED_CLOSE_CODE, "This account was suspended");
    const error = await request.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "account_closed", message: "This account was suspended" });
    expect(useRoom.getState()).toMatchObject({ status: "closed", closedReason: "This account was suspended" });
    await Promise.resolve();
    expect(fakeServer.joins).toHaveLength(1);
    await expect(connection().request("bet", {})).rejects.toMatchObject({ code: "disconnected" });
  });

  it("are failed on close, which leaves the room on purpose and joins no other", async () => {
    const room = await connected();
    vi.useFakeTimers();
    const request = connection().request("bet", { game: "dice", amount: 3 });
    connection().close();
    await expect(request).rejects.toMatchObject({ code: "disconnected" });
    expect(room.leftConsented).toBe(true);
    // Every retry a dropped connection would make has come due by then.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fakeServer.joins).toHaveLength(1);
  });

  it("connecting again closes the previous connection", async () => {
    const first = await connected();
    await connected();
    expect(first.leftConsented).toBe(true);
    expect(fakeServer.rooms).toHaveLength(2);
  });
});

describe("request ids", () => {
  it("keep to the characters and length the server accepts", () => {
    for (const prefix of ["bet", "crash:cashout", "daily spin/é", "x".repeat(80)]) {
      const id = newRequestId(prefix);
      expect(id).toMatch(/^[A-Za-z0-9_:-]{8,64}$/);
    }
    expect(newRequestId("daily spin")).toMatch(/^daily-spin-/);
    const ids = new Set(Array.from({ length: 200 }, () => newRequestId("bet")));
    expect(ids.size).toBe(200);
  });
});

describe("pushed toasts", () => {
  it("wait while a round is on its way or unrevealed, then show", async () => {
    vi.useFakeTimers();
    await connectRoom("tok");
    await vi.advanceTimersByTimeAsync(0);
    const room = fakeServer.room;
    useRoom.setState({ balance: 100, inFlight: 1 });
    room.message("notice", { title: "Tag unlocked", description: "High Roller" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(useToast.getState().current).toBeNull();
    // the answer arrives: a settled loss is still held until its table shows it
    acceptAnswer({ requestId: "bet-1", balance: 90, done: true, payout: 0, totalStake: 10, totalPayout: 0 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(useToast.getState().current).toBeNull();
    revealed("bet-1");
    await vi.advanceTimersByTimeAsync(250);
    expect(useToast.getState().current).toMatchObject({ title: "Tag unlocked", description: "High Roller" });
  });
});

describe("useRoomConnection", () => {
  it("joins once a session token exists and the page is shown, once per token", async () => {
    vi.useFakeTimers();
    const { rerender } = renderHook(({ shown }) => useRoomConnection(shown), { initialProps: { shown: false } });
    // Whatever the hook would start on a timer has come due by then.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fakeServer.joins).toHaveLength(0);
    useSession.setState({ token: "tok-a" });
    rerender({ shown: false });
    await vi.advanceTimersByTimeAsync(60_000);
    // a token alone waits for the signed-in page to be shown
    expect(fakeServer.joins).toHaveLength(0);
    rerender({ shown: true });
    await vi.waitFor(() => expect(useRoom.getState().status).toBe("open"), { timeout: 3000 });
    rerender({ shown: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fakeServer.joins).toHaveLength(1);
    expect(fakeServer.joins[0].token).toBe("tok-a");
  });
});

describe("the game connection", () => {
  it("refuses at once while no room connection exists, and follows the connection's status", async () => {
    const { result } = renderHook(() => useGameConnection("dice"));
    expect(result.current.connected).toBe(false);
    await expect(result.current.bet(10, undefined)).rejects.toMatchObject({ code: "disconnected", message: "Not connected to the casino" });
    await connected();
    await vi.waitFor(() => expect(result.current.connected).toBe(true));
    act(() => fakeServer.room.drop());
    expect(result.current.connected).toBe(false);
  });
});

describe("the room store", () => {
  it("shows the balance less every payout not revealed yet, and nothing before any balance", () => {
    expect(shownBalance({ balance: null, withheld: { a: 5 } })).toBeNull();
    expect(shownBalance({ balance: 500, withheld: { a: 50, b: 0, c: 25 } })).toBe(425);
  });
});
