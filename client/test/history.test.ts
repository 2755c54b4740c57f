import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { BetAnswer } from "@casino/common/protocol";

/**
 * The player's own rounds shared by every table: the server's history read through a fake `fetch`
 * that answers when the test says, refreshes spaced out, and this visit's rounds kept locally. The
 * module keeps its state for the page's life, so each test loads it afresh.
 */
type History = typeof import("../src/games/shared/history");
let history: History;
let room: typeof import("../src/store/room");

interface Call {
  url: string;
  authorization: string | null;
  answer(items: unknown[], status?: number): void;
}
let calls: Call[];

beforeEach(async () => {
  vi.resetModules();
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  calls = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          calls.push({
            url,
            authorization: new Headers(init.headers).get("authorization"),
            answer: (items, status = 200) =>
              resolve(new Response(JSON.stringify(status === 200 ? { items } : { error: "Slow down" }), { status })),
          });
        }),
    ),
  );
  history = await import("../src/games/shared/history");
  room = await import("../src/store/room");
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

let n = 0;
const round = (fields: Partial<BetAnswer> = {}): BetAnswer =>
  ({
    requestId: `bet-${++n}`,
    game: "dice",
    roundId: null,
    done: true,
    stake: 10,
    payout: 0,
    totalStake: 10,
    totalPayout: 0,
    result: "lose",
    balance: 0,
    view: null,
    fairness: {},
    ...fields,
  }) as BetAnswer;

const flush = () => act(() => vi.advanceTimersByTimeAsync(0));
const SESSION = { playerId: "p 1", token: "tok" };

describe("this visit's rounds", () => {
  it("are kept newest first, settled ones only, at most 50", async () => {
    const { result } = renderHook(() => history.useHistory(null));
    act(() => history.recordRound(round({ done: false, result: null })));
    expect(result.current.local).toEqual([]);
    act(() => history.recordRound(round({ game: "mines", totalStake: 30, totalPayout: 60, result: "win" })));
    act(() => history.recordRound(round({ result: "push", totalPayout: 10 })));
    expect(result.current.local.map((r) => [r.game, r.stake, r.payout, r.result])).toEqual([
      ["dice", 10, 10, "push"],
      ["mines", 30, 60, "win"],
    ]);
    act(() => {
      for (let i = 0; i < 60; i++) history.recordRound(round());
    });
    expect(result.current.local).toHaveLength(50);
    expect(calls).toHaveLength(0);
  });
});

describe("the server's history", () => {
  it("keep each round's multiplier before rounding, never the whole coins paid ÷ the stake", async () => {
    const { result } = renderHook(() => history.useHistory(null));
    // a 10-coin dice win at 1.98×: 19.8 paid 19, then paid 20
    act(() => history.recordRound(round({ payout: 19, totalPayout: 19, result: "win", unroundedPayout: 19.8 })));
    act(() => history.recordRound(round({ payout: 20, totalPayout: 20, result: "win", unroundedPayout: 19.8 })));
    // a round that rounded nothing, and a multi-step round whose last step rounded its payout
    act(() => history.recordRound(round({ payout: 20, totalPayout: 20, result: "win" })));
    act(() =>
      history.recordRound(
        round({ game: "mines", stake: 0, totalStake: 10, payout: 12, totalPayout: 12, result: "win", unroundedPayout: 12.375 }),
      ),
    );
    expect(result.current.local.map((r) => [r.payout, r.multiplier])).toEqual([
      [12, 1.2375],
      [20, 2],
      [20, 1.98],
      [19, 1.98],
    ]);
  });

  it("is read with the player's token when a table opens with a session", async () => {
    const { result } = renderHook(() => history.useHistory(SESSION));
    await flush();
    expect(calls.map((c) => [c.url, c.authorization])).toEqual([["/api/player/p%201/history?limit=100", "Bearer tok"]]);
    expect(result.current.loading).toBe(true);
    calls[0].answer([{ id: "a" }]);
    await flush();
    expect(result.current).toMatchObject({ items: [{ id: "a" }], loading: false, error: null });
  });

  it("is read again after a round, never sooner than 1.5 s after the last read, once for many rounds", async () => {
    renderHook(() => history.useHistory(SESSION));
    await flush();
    calls[0].answer([]);
    await flush();
    act(() => {
      history.recordRound(round());
      history.recordRound(round());
      history.recordRound(round());
    });
    await act(() => vi.advanceTimersByTimeAsync(1_499));
    expect(calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(calls).toHaveLength(2);
  });

  it("asks once more after a read that was on its way when a round ended", async () => {
    renderHook(() => history.useHistory(SESSION));
    await flush();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    act(() => history.recordRound(round()));
    await flush();
    // the first read has not been answered: the refresh waits for it
    expect(calls).toHaveLength(1);
    calls[0].answer([{ id: "old" }]);
    await flush();
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(calls).toHaveLength(2);
    expect(calls[1].url).toBe(calls[0].url);
  });

  it("shows the server's refusal as the list's error, and keeps this visit's rounds", async () => {
    const { result } = renderHook(() => history.useHistory(SESSION));
    await flush();
    act(() => history.recordRound(round()));
    calls[0].answer([], 429);
    await flush();
    expect(result.current).toMatchObject({ loading: false, error: "Slow down" });
    expect(result.current.local).toHaveLength(1);
  });

  it("starts empty for another player, and drops a late answer for the one before", async () => {
    const { result, rerender } = renderHook((s: { playerId: string; token: string }) => history.useHistory(s), { initialProps: SESSION });
    await flush();
    rerender({ playerId: "p2", token: "tok2" });
    await flush();
    expect(result.current.items).toEqual([]);
    calls[0].answer([{ id: "of p1" }]);
    await flush();
    expect(result.current.items).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    const last = calls.at(-1)!;
    expect(last.authorization).toBe("Bearer tok2");
    last.answer([{ id: "of p2" }]);
    await flush();
    expect(result.current.items).toEqual([{ id: "of p2" }]);
  });
});

describe("a round its table has not shown yet", () => {
  it("is listed, and the server's list read meanwhile shown, only once the table shows the result", async () => {
    const { result } = renderHook(() => history.useHistory(SESSION));
    await flush();
    calls[0].answer([{ id: "before" }]);
    await flush();
    // a bet on its way, then settled: its payout withheld until the table shows the result
    act(() => room.requestSent());
    const settled = round({ result: "win", totalPayout: 20 });
    act(() => room.acceptAnswer({ ...settled, done: true, payout: 20 }));
    act(() => history.recordRound(settled));
    expect(result.current.local).toEqual([]);
    // a read that comes back meanwhile (it has the new round) is held too
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    act(() => history.refreshHistory());
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    calls.at(-1)!.answer([{ id: "new" }, { id: "before" }]);
    await flush();
    expect(result.current.items).toEqual([{ id: "before" }]);

    act(() => room.revealed(settled.requestId));
    expect(result.current.local.map((r) => r.requestId)).toEqual([settled.requestId]);
    expect(result.current.items).toEqual([{ id: "new" }, { id: "before" }]);
  });
});
