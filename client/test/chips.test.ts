import { describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { chipLabel, useChips } from "../src/games/shared/chips";

describe("a chip layout", () => {
  it("stacks chips by spot, counts them all, and undoes the last chip placed", () => {
    const { result } = renderHook(() => useChips<{ number: number }>());
    act(() => {
      result.current.add("n7", { number: 7 });
      result.current.add("n7", { number: 7 });
      result.current.add("red", { number: -1 }, 3);
      result.current.add("n7", { number: 7 });
    });
    expect(result.current.count).toBe(6);
    expect(result.current.spots.get("n7")).toEqual({ spot: { number: 7 }, chips: 3 });
    act(() => result.current.undo());
    expect(result.current.spots.get("n7")?.chips).toBe(2);
    // undo takes one chip at a time, off a stack placed three at once too
    act(() => result.current.undo());
    expect(result.current.spots.get("red")?.chips).toBe(2);
    expect(result.current.count).toBe(4);
  });

  it("forgets a removed spot in its undo history", () => {
    const { result } = renderHook(() => useChips<string>());
    act(() => {
      result.current.add("a", "A");
      result.current.add("b", "B");
      result.current.add("a", "A");
    });
    act(() => result.current.remove("a"));
    expect([...result.current.spots.keys()]).toEqual(["b"]);
    act(() => result.current.undo());
    expect(result.current.count).toBe(0);
    act(() => result.current.undo());
    expect(result.current.count).toBe(0);
  });

  it("clears", () => {
    const { result } = renderHook(() => useChips<string>());
    act(() => result.current.add("a", "A", 5));
    act(() => result.current.clear());
    expect(result.current.count).toBe(0);
    expect(result.current.spots.size).toBe(0);
  });
});

describe("a chip's label", () => {
  it.each([
    [950, "950"],
    [1000, "1k"],
    [1250, "1.2k"],
    [999_999, "999.9k"],
    [1_000_000, "1M"],
    [3_470_000, "3.4M"],
  ])("%d coins read %s", (coins, label) => {
    expect(chipLabel(coins)).toBe(label);
  });
});
