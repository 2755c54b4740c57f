import { describe, expect, it } from "vitest";
import { POCKETS, WHEEL_ORDER, pocketColor } from "../../src/games/roulette/engine";

describe("the European wheel as drawn", () => {
  it("holds every pocket once, zero first, and alternates red and black around it", () => {
    expect([...WHEEL_ORDER].sort((a, b) => a - b)).toEqual(Array.from({ length: POCKETS }, (_, i) => i));
    expect(WHEEL_ORDER[0]).toBe(0);
    for (let i = 2; i < POCKETS; i++) expect(pocketColor(WHEEL_ORDER[i]!)).not.toBe(pocketColor(WHEEL_ORDER[i - 1]!));
    expect(pocketColor(WHEEL_ORDER[1]!)).toBe("red");
    expect(pocketColor(WHEEL_ORDER[POCKETS - 1]!)).toBe("black");
  });
});
