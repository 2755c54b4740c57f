import { describe, expect, it } from "vitest";
import { DrainLoop } from "../../src/leaderboard/drain-loop";

/** A drain that records when it started and takes `ms` to finish. */
function recorder(ms = 0) {
  const starts: number[] = [];
  const drain = async () => {
    starts.push(performance.now());
    await new Promise((resolve) => setTimeout(resolve, ms));
  };
  return { starts, drain };
}

const quietLog = { error: () => undefined };

describe("DrainLoop", () => {
  it("drains at once after a quiet spell, then at most once per gap under a stream of nudges, missing none", async () => {
    const { starts, drain } = recorder(1);
    const loop = new DrainLoop("test", drain, 60_000, quietLog, 50);
    const t0 = performance.now();
    loop.nudge();
    expect(starts.length).toBe(1); // no wait for the first one
    // A stream: a nudge every 2 ms for 300 ms.
    for (let i = 0; i < 150; i++) {
      loop.nudge();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await loop.settled();
    const elapsed = performance.now() - t0;
    // Without the gap this would be one drain per nudge or so; with it, about one per 50 ms.
    expect(starts.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 1);
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(49);
    // The last nudge was drained: nothing is pending.
    expect(loop.settled()).toBeUndefined();
    await loop.stop();
  });

  it("lets a reader wait for a nudge held back by the gap, and releases waiters when stopped", async () => {
    const { starts, drain } = recorder();
    const loop = new DrainLoop("test", drain, 60_000, quietLog, 40);
    await loop.catchUp();
    const first = starts.length;
    loop.nudge(); // within the gap: held back
    const waiting = loop.settled();
    expect(waiting).toBeDefined();
    expect(starts.length).toBe(first);
    await waiting;
    expect(starts.length).toBe(first + 1);

    loop.nudge();
    const held = loop.settled()!;
    await loop.stop();
    await held; // resolves although the held-back drain never ran
    expect(starts.length).toBe(first + 1);
  });
});
