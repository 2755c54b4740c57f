import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { SHARED_ROOM_PUSH, ownIdRestored } from "@casino/common/shared-room-self";
import type { TableSnapshot } from "@casino/common/table";
import type { HoldemTableSnapshot } from "@casino/common/holdem-table";
import { fakeServer } from "./fake-colyseus";
import { useSession } from "../src/store/session";
import { useSharedCrashRoom } from "../src/features/game-host/shared-crash";
import { useSharedTableRoom } from "../src/features/game-host/shared-table";
import { useCrashRoom } from "../src/games/crash/shared/use-crash-room";
import { useTableRoom } from "../src/games/blackjack/table/use-table-room";
import { useHoldemRoom } from "../src/games/holdem/use-holdem-room";

vi.mock("@colyseus/sdk", () => import("./fake-colyseus"));

/**
 * In a shared room's state an anonymous player's bet or seat carries a stand-in, never the player's id;
 * the room tells the player's own connection which one is theirs (`SHARED_ROOM_PUSH.self`). These
 * tests drive the real hosts, connections and hooks against a fake server and check that the player
 * still finds their own bet or seat, and that a named player's state is passed on untouched.
 */
const ME = "3f0a1b2c-0000-4000-8000-000000000001";
const OTHER = "3f0a1b2c-0000-4000-8000-000000000002";
const STAND_IN = "anon-Ab3dEfGhIjKlMnOpQrStUv";
const sessionState = useSession.getState();

/** The room's code is a lazy chunk: the first join waits for its import (a bound for a loaded machine, not a timing). */
const joined = () => vi.waitFor(() => expect(fakeServer.rooms).toHaveLength(1), { timeout: 15_000 });

beforeEach(() => {
  fakeServer.reset();
  useSession.setState({ token: "tok", player: { id: ME } as never });
});
afterEach(() => useSession.setState(sessionState, true));

const bet = (playerId: string) => ({
  playerId,
  username: playerId === STAND_IN ? "Anonymous" : "Other",
  avatarUrl: "",
  face: "",
  amount: 10,
  autoCashOut: 0,
  status: "active" as const,
  cashedOutAt: 0,
  payout: 0,
});

describe("the player's own entry under a stand-in", () => {
  it("the crash room: the bet keyed by the stand-in is the player's once the room has said so", async () => {
    const host = renderHook(() => useSharedCrashRoom()).result.current!;
    const { result } = renderHook(() => useCrashRoom(host));
    await joined();
    const room = fakeServer.room;
    const snapshot = { phase: "betting", roundId: "r1", bets: { [STAND_IN]: bet(STAND_IN), [OTHER]: bet(OTHER) }, history: [] };
    act(() => room.patch({ toJSON: () => snapshot }));
    await vi.waitFor(() => expect(result.current.room?.roundId).toBe("r1"));
    // Before the room says which entry is the player's, none is.
    expect(result.current.mine).toBeNull();
    act(() => room.message(SHARED_ROOM_PUSH.self, { playerId: STAND_IN }));
    await vi.waitFor(() => expect(result.current.mine).toMatchObject({ playerId: ME, username: "Anonymous", amount: 10 }));
    expect(Object.keys(result.current.room!.bets).sort()).toEqual([ME, OTHER].sort());
  });

  it("the blackjack table: the seat carrying the stand-in is the player's", async () => {
    const host = renderHook(() => useSharedTableRoom()).result.current!;
    const { result } = renderHook(() => useTableRoom(host));
    await joined();
    const seat = (n: number, playerId: string) => ({
      seat: n,
      playerId,
      username: "x",
      avatarUrl: null,
      face: null,
      ready: false,
      connected: true,
      bet: null,
      inRound: false,
      leaving: false,
    });
    const snapshot = {
      tableId: "t",
      phase: "betting",
      players: [seat(1, OTHER), seat(4, STAND_IN)],
      view: null,
    } as unknown as TableSnapshot;
    act(() => fakeServer.room.patch({ snapshot: JSON.stringify(snapshot) }));
    act(() => fakeServer.room.message(SHARED_ROOM_PUSH.self, { playerId: STAND_IN }));
    await vi.waitFor(() => expect(result.current.me?.seat).toBe(4));
  });

  it("the Hold'em table: the seat and the hand's seat carrying the stand-in are the player's", async () => {
    const { result } = renderHook(() => useHoldemRoom({ token: "tok", playerId: ME, instanceId: null, invite: null }));
    await joined();
    const snapshot = {
      tableId: "h",
      phase: "playing",
      seats: [
        {
          seat: 2,
          playerId: STAND_IN,
          username: "Anonymous",
          avatarUrl: null,
          face: null,
          stack: 100,
          status: "playing",
          connected: true,
          graceUntil: null,
          leaving: false,
        },
        {
          seat: 5,
          playerId: OTHER,
          username: "Other",
          avatarUrl: null,
          face: null,
          stack: 100,
          status: "playing",
          connected: true,
          graceUntil: null,
          leaving: false,
        },
      ],
      hand: {
        seats: [
          { seat: 2, playerId: STAND_IN },
          { seat: 5, playerId: OTHER },
        ],
      },
      serverTime: Date.now(),
    } as unknown as HoldemTableSnapshot;
    act(() => fakeServer.room.message(SHARED_ROOM_PUSH.self, { playerId: STAND_IN }));
    act(() => fakeServer.room.patch({ snapshot: JSON.stringify(snapshot) }));
    await vi.waitFor(() => expect(result.current.me?.seat).toBe(2));
    expect(result.current.table!.hand!.seats.find((s) => s.playerId === ME)?.seat).toBe(2);
  });
});

describe("ownIdRestored", () => {
  it("gives back the player's id in keys and values, and leaves a named player's state as it is", () => {
    const state = { bets: { [STAND_IN]: { playerId: STAND_IN }, [OTHER]: { playerId: OTHER } }, list: [STAND_IN, "anon-other"] };
    expect(ownIdRestored(state, STAND_IN, ME)).toEqual({
      bets: { [ME]: { playerId: ME }, [OTHER]: { playerId: OTHER } },
      list: [ME, "anon-other"],
    });
    expect(ownIdRestored(state, ME, ME)).toBe(state);
    expect(ownIdRestored(state, null, ME)).toBe(state);
  });
});
