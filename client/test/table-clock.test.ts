import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { TableSnapshot } from "@casino/common/table";
import type { SharedTableConnection, SharedTableRoom } from "../src/games/contract";
import { secondsLeft } from "../src/games/shared/server-clock";
import { useTableRoom } from "../src/games/blackjack/table/use-table-room";

/**
 * The table's countdown on a device whose clock is off: the snapshot carries the server's time, the
 * table hook measures the offset when a snapshot arrives, and the countdown runs on the device's clock
 * shifted by it (what SharedTable and Seat draw: `secondsLeft(table, Date.now() + clockOffset)`).
 */
const SERVER = 1_800_000_000_000;

const snapshot = (serverTime: number, deadline: number | null): TableSnapshot => ({
  tableId: "public:r1",
  instanceId: null,
  phase: "betting",
  deadline,
  serverTime,
  toAct: null,
  bettingMs: 10_000,
  turnMs: 15_000,
  players: [],
  watchers: 1,
  view: null,
  shoe: null,
  previousShoe: null,
});

/** A table room whose snapshots the test sends, as the server's would arrive. */
function fakeTable() {
  let push: (state: TableSnapshot | null) => void = () => undefined;
  const room: SharedTableRoom = {
    instanceId: null,
    playerId: "p1",
    invite: null,
    connect(listener) {
      push = listener.state;
      listener.status("open");
      return { close: () => undefined } as SharedTableConnection;
    },
  };
  return { room, arrive: (table: TableSnapshot) => act(() => push(table)) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the shared table's clock", () => {
  it.each([
    ["five minutes fast", 300_000],
    ["two minutes slow", -120_000],
  ])("counts a 10 s betting window down by the server's clock on a device %s", (_, skew) => {
    const table = fakeTable();
    const { result } = renderHook(() => useTableRoom(table.room));
    // The snapshot left the server at SERVER and arrives at once on a device whose clock reads SERVER + skew.
    vi.setSystemTime(SERVER + skew);
    table.arrive(snapshot(SERVER, SERVER + 10_000));
    const shown = () => secondsLeft(result.current.table!, Date.now() + result.current.clockOffset);
    expect(result.current.clockOffset).toBe(-skew);
    expect(shown()).toBe(10);
    // The device's own clock alone would show an ended window (fast) or 130 s (slow).
    expect(secondsLeft(result.current.table!, Date.now())).toBe(skew > 0 ? 0 : 130);

    vi.advanceTimersByTime(3_000);
    expect(shown()).toBe(7);
  });

  it("measures the offset again from each snapshot as it arrives", () => {
    const table = fakeTable();
    const { result } = renderHook(() => useTableRoom(table.room));
    vi.setSystemTime(SERVER);
    table.arrive(snapshot(SERVER, null));
    expect(result.current.clockOffset).toBe(0);
    // A second later by this device the server's next snapshot says SERVER + 3 s: its clock was set back 2 s.
    vi.advanceTimersByTime(1_000);
    table.arrive(snapshot(SERVER + 3_000, SERVER + 13_000));
    expect(result.current.clockOffset).toBe(2_000);
    expect(secondsLeft(result.current.table!, Date.now() + result.current.clockOffset)).toBe(10);
  });
});
