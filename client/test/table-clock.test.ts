import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { secondsLeft, useServerNow } from "../src/games/blackjack/table/server-clock";

/**
 * The table's countdown on a device whose clock is off: the snapshot carries the server's time, and
 * the countdown runs on the device's clock shifted by the difference measured when it arrived.
 */
const SERVER = 1_800_000_000_000;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the shared table's clock", () => {
  it.each([
    ["five minutes fast", 300_000],
    ["two minutes slow", -120_000],
  ])("counts a 10 s betting window down by the server's clock on a device %s", (_, skew) => {
    // The snapshot left the server at SERVER and arrives at once on a device whose clock reads SERVER + skew.
    vi.setSystemTime(SERVER + skew);
    const table = { serverTime: SERVER, deadline: SERVER + 10_000 };
    const { result } = renderHook(() => useServerNow(table, 250));
    expect(result.current).toBe(SERVER);
    expect(secondsLeft(table, result.current)).toBe(10);
    // The device's own clock alone would show an ended window (fast) or 130 s (slow).
    expect(secondsLeft(table, Date.now())).toBe(skew > 0 ? 0 : 130);

    act(() => vi.advanceTimersByTime(3_000));
    expect(result.current).toBe(SERVER + 3_000);
    expect(secondsLeft(table, result.current)).toBe(7);
  });

  it("measures the offset again from each snapshot", () => {
    vi.setSystemTime(SERVER);
    const { result, rerender } = renderHook(({ table }) => useServerNow(table, 250), {
      initialProps: { table: { serverTime: SERVER } },
    });
    expect(result.current).toBe(SERVER);
    // The next snapshot says the server is 2 s ahead of where this device thought (say, its clock was set back).
    act(() => vi.advanceTimersByTime(1_000));
    rerender({ table: { serverTime: SERVER + 3_000 } });
    expect(result.current).toBe(SERVER + 3_000);
    act(() => vi.advanceTimersByTime(500));
    expect(result.current).toBe(SERVER + 3_500);
  });
});
