import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/platform/clock";

describe("ManualClock", () => {
  it("runs timers in time order at their own moment, including timers set by a timer inside the step", async () => {
    const clock = new ManualClock(1_000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => {
      seen.push(`a@${clock.now()}`);
      clock.setTimeout(() => seen.push(`c@${clock.now()}`), 50);
    }, 100);
    const late = clock.setTimeout(() => seen.push("never"), 300);
    clock.clearTimeout(late);
    await clock.advance(250);
    expect(seen).toEqual(["a@1100", "c@1150", "b@1200"]);
    expect(clock.now()).toBe(1_250);
    expect(clock.pending).toBe(0);
  });

  it("lets awaited work finish before the next timer fires", async () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => {
      void Promise.resolve()
        .then(() => undefined)
        .then(() => seen.push("first's work"));
    }, 10);
    clock.setTimeout(() => seen.push("second"), 20);
    await clock.advance(20);
    expect(seen).toEqual(["first's work", "second"]);
  });
});
