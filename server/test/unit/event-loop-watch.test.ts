import { afterEach, describe, expect, it } from "vitest";
import { EventLoopWatch } from "../../src/ops/event-loop-watch";

/** Node's own event-loop delay histogram, read by the watch; the loop is blocked here for real. */
let running: EventLoopWatch | undefined;
afterEach(() => running?.stop());

/** A started watch with this threshold, and the warnings it logged. */
function watch(warnMs: number) {
  const warnings: string[] = [];
  running = new EventLoopWatch({ warn: (_key, message) => warnings.push(message) }, warnMs, 60_000);
  running.start();
  return { w: running, warnings };
}

/** Lets the event loop go round until the watch has sampled more delays than `count`. */
async function sampledPast(w: EventLoopWatch, count: number): Promise<void> {
  while (w.samples <= count) await new Promise((resolve) => setImmediate(resolve));
}

const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the event loop is held: no timer, no I/O
  }
};

describe("the event-loop watch", () => {
  it("warns with how long the loop was blocked, and forgets what it has read", async () => {
    const { w, warnings } = watch(250);
    // Node records a delay from the second sample on: one sample before the block, one after it.
    await sampledPast(w, 0);
    const before = w.samples;
    block(600);
    await sampledPast(w, before);
    w.check();
    expect(warnings).toHaveLength(1);
    const [, blocked] = /blocked for up to (\d+) ms/.exec(warnings[0]!)!;
    expect(Number(blocked)).toBeGreaterThanOrEqual(550);
    expect(Number(blocked)).toBeLessThan(5_000);
    // The delays read are reset: the same block is not reported twice.
    w.check();
    expect(warnings).toHaveLength(1);
  });

  it("says nothing of a block shorter than its threshold", async () => {
    const { w, warnings } = watch(2_000);
    await sampledPast(w, 0);
    const before = w.samples;
    block(150);
    await sampledPast(w, before);
    w.check();
    expect(warnings).toEqual([]);
  });
});
