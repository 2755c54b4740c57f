import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DrainLoop } from "../../src/core/events/drain-loop";

/** A drain that records when it started; it finishes at once (the gap is between starts). */
function recorder() {
  const starts: number[] = [];
  const drain = async () => {
    starts.push(performance.now());
  };
  return { starts, drain };
}

const quietLog = { error: () => undefined };

// The loop's gap is measured with performance.now and kept with setTimeout: both run on the test's clock.
beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "performance"] }));
afterEach(() => vi.useRealTimers());

describe("DrainLoop", () => {
  it("drains at once after a quiet spell, then at most once per gap under a stream of nudges, missing none", async () => {
    const { starts, drain } = recorder();
    const loop = new DrainLoop("test", drain, 60_000, quietLog, 50);
    const t0 = performance.now();
    loop.nudge();
    expect(starts.length).toBe(1); // no wait for the first one
    // A stream: a nudge every 2 ms for 300 ms.
    for (let i = 0; i < 150; i++) {
      loop.nudge();
      await vi.advanceTimersByTimeAsync(2);
    }
    const settled = loop.settled();
    await vi.advanceTimersByTimeAsync(50);
    await settled;
    const elapsed = performance.now() - t0;
    // Without the gap this would be one drain per nudge or so; with it, one per 50 ms.
    expect(starts.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 1);
    expect(starts.length).toBeGreaterThanOrEqual(300 / 50);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(50);
    // The last nudge was drained: nothing is pending.
    expect(loop.settled()).toBeUndefined();
    await loop.stop();
  });

  it("lets a reader wait for a nudge held back by the gap, and releases waiters when stopped", async () => {
    const { starts, drain } = recorder();
    const loop = new DrainLoop("test", drain, 60_000, quietLog, 40);
    const caughtUp = loop.catchUp();
    await vi.advanceTimersByTimeAsync(0);
    await caughtUp;
    const first = starts.length;
    loop.nudge(); // within the gap: held back
    const waiting = loop.settled();
    expect(waiting).toBeDefined();
    await vi.advanceTimersByTimeAsync(39);
    expect(starts.length).toBe(first);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts.length).toBe(first + 1);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;

    loop.nudge();
    const held = loop.settled()!;
    await loop.stop();
    await held; // resolves although the held-back drain never ran
    await vi.advanceTimersByTimeAsync(1_000);
    expect(starts.length).toBe(first + 1);
  });
});
