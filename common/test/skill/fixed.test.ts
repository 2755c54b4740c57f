import { describe, expect, it } from "vitest";
import {
  DIRECTIONS,
  InputRecorder,
  MAX_INPUTS_PER_SECOND,
  SkillRng,
  TICKS_PER_SECOND,
  UNIT,
  checkInputTiming,
  cosDir,
  isqrt,
  sinDir,
  ticksToMs,
} from "../../src/index";

describe("integer arithmetic of the simulations", () => {
  it("xoshiro128** gives the reference sequence for the state 1, 2, 3, 4", () => {
    const rng = new SkillRng("00000001000000020000000300000004");
    const first = Array.from({ length: 10 }, () => rng.nextU32());
    expect(first).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804]);
  });

  it("refuses a seed that is not hex and draws bounded integers", () => {
    expect(() => new SkillRng("not a seed")).toThrow();
    const rng = new SkillRng("ab".repeat(32));
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = rng.between(3, 7);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(7);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it("isqrt is the exact integer square root", () => {
    for (const n of [0, 1, 2, 3, 4, 15, 16, 17, 99_999_999, 2 ** 40 - 1, 2 ** 40, 2 ** 52 + 12345]) {
      const r = isqrt(n);
      expect(r * r).toBeLessThanOrEqual(n);
      expect((r + 1) * (r + 1)).toBeGreaterThan(n);
    }
  });

  it("the direction table is a unit circle: cos² + sin² ≈ 1024², symmetric in every quadrant", () => {
    for (let k = 0; k < DIRECTIONS; k++) {
      const c = cosDir(k);
      const s = sinDir(k);
      expect(Math.abs(c * c + s * s - UNIT * UNIT)).toBeLessThan(2 * UNIT);
      expect(cosDir(-k)).toBe(c);
      expect(cosDir(k + DIRECTIONS)).toBe(c);
      expect(sinDir(k + DIRECTIONS / 2)).toBe(0 - s);
    }
    expect([cosDir(0), sinDir(0), cosDir(8), sinDir(8), cosDir(16), sinDir(24)]).toEqual([1024, 0, 0, 1024, -1024, -1024]);
  });

  it("converts ticks to whole milliseconds", () => {
    expect(ticksToMs(60)).toBe(1000);
    expect(ticksToMs(1)).toBe(16);
    expect(ticksToMs(170)).toBe(2833);
  });
});

describe("input timing rules", () => {
  it("accepts increasing ticks at the maximum rate", () => {
    const ticks = Array.from({ length: 90 }, (_, i) => i * 2);
    expect(checkInputTiming(ticks, 3600)).toBeNull();
  });

  it("refuses two inputs on one tick, ticks going back, ticks outside the round, and a rate above the maximum", () => {
    expect(checkInputTiming([0, 5, 5], 100)?.code).toBe("input_order");
    expect(checkInputTiming([0, 5, 4], 100)?.code).toBe("input_order");
    expect(checkInputTiming([-1], 100)?.code).toBe("input_range");
    expect(checkInputTiming([99, 100], 100)?.code).toBe("input_range");
    const tooFast = Array.from({ length: MAX_INPUTS_PER_SECOND + 1 }, (_, i) => i);
    expect(checkInputTiming(tooFast, 3600)?.code).toBe("input_rate");
    // 31 inputs spread over exactly one second are still too many.
    const oneSecond = Array.from({ length: MAX_INPUTS_PER_SECOND + 1 }, (_, i) =>
      Math.floor((i * (TICKS_PER_SECOND - 1)) / MAX_INPUTS_PER_SECOND),
    );
    expect(checkInputTiming(oneSecond, 3600)?.code).toBe("input_rate");
  });

  it("the recorder holds back changes that would break the rate, so its log always passes", () => {
    const recorder = new InputRecorder<[number]>([0]);
    let applied = 0;
    for (let tick = 0; tick < 600; tick++) {
      // Asks for a different input on every tick: twice the allowed rate.
      const [value] = recorder.at(tick, [tick % 2 === 0 ? 1 : 2]);
      applied = value;
    }
    expect(applied === 1 || applied === 2).toBe(true);
    const ticks = recorder.events.map((e) => e[0]);
    expect(checkInputTiming(ticks, 3600)).toBeNull();
    expect(recorder.events.length).toBe(10 * MAX_INPUTS_PER_SECOND);
    expect(() => recorder.at(10, [1])).toThrow();
  });
});
