import { describe, expect, it } from "vitest";
import {
  DOTS_REWARD,
  DOT_COUNT,
  DOT_RADIUS,
  FP,
  PEN_SPEED,
  dotLayout,
  replayConnectDots,
  runConnectDots,
  segmentHitsCircle,
  verifySkillSubmission,
  type DotsInput,
} from "../../src/index";
import { swipeConnectDots } from "./bots";

/**
 * Connect the Dots under rules 2: a dot counts when the line the pen draws passes within its radius,
 * anywhere between two pointer samples, and the pen follows the pointer's path, so a quick swipe that
 * no sample lands on a dot of still connects them; a line beside a dot does not.
 */
const SEEDS = ["6b1d3c0f5e2a4b7d8c9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e", "ab".repeat(32), "12".repeat(32), "9f".repeat(32)];

describe("the segment hit test", () => {
  const r = DOT_RADIUS * FP;
  const c = { x: 200 * FP, y: 300 * FP };

  it("a jump over a dot counts though neither end is inside it", () => {
    expect(segmentHitsCircle(c.x - 60 * FP, c.y, c.x + 60 * FP, c.y, c.x, c.y, r)).toBe(true);
    expect(segmentHitsCircle(c.x - 60 * FP, c.y - 50 * FP, c.x + 60 * FP, c.y + 50 * FP, c.x, c.y, r)).toBe(true);
    // Grazing: exactly the radius from the centre.
    expect(segmentHitsCircle(c.x - 60 * FP, c.y + r, c.x + 60 * FP, c.y + r, c.x, c.y, r)).toBe(true);
  });

  it("passing beside a dot, or stopping short of it, does not", () => {
    expect(segmentHitsCircle(c.x - 60 * FP, c.y + r + 1, c.x + 60 * FP, c.y + r + 1, c.x, c.y, r)).toBe(false);
    expect(segmentHitsCircle(c.x - 60 * FP, c.y - 19 * FP, c.x + 60 * FP, c.y - 19 * FP, c.x, c.y, r)).toBe(false);
    expect(segmentHitsCircle(c.x - 90 * FP, c.y, c.x - r - 1, c.y, c.x, c.y, r)).toBe(false);
    expect(segmentHitsCircle(c.x + r + 1, c.y, c.x + 90 * FP, c.y, c.x, c.y, r)).toBe(false);
  });

  it("a point (a segment of no length) counts inside the radius only", () => {
    expect(segmentHitsCircle(c.x + r, c.y, c.x + r, c.y, c.x, c.y, r)).toBe(true);
    expect(segmentHitsCircle(c.x + r + 1, c.y, c.x + r + 1, c.y, c.x, c.y, r)).toBe(false);
  });
});

describe("a quick swipe", () => {
  it("connects every dot though no sample lands on one and the pointer outruns the pen; rules 1 kept scoring it nothing much", () => {
    for (const seed of SEEDS) {
      const dots = dotLayout(seed);
      const log = swipeConnectDots(seed);
      // Sparse and fast: a sample every other tick, each never inside a dot, mostly further apart than the pen goes in two ticks.
      for (const [, x, y] of log) for (const d of dots) expect((x - d.x) ** 2 + (y - d.y) ** 2).toBeGreaterThan(DOT_RADIUS ** 2);
      const jumps = log.slice(1).map((e, i) => Math.hypot(e[1] - log[i]![1], e[2] - log[i]![2]));
      expect(jumps.filter((j) => j > 2 * PEN_SPEED).length).toBeGreaterThan(log.length / 2);

      const now = replayConnectDots(seed, log, 2);
      expect(now.ok && now.result).toMatchObject({ completed: true, connected: DOT_COUNT });
      const before = replayConnectDots(seed, log, 1);
      expect(before.ok && before.result.completed).toBe(false);
    }
  });

  it("is paid when submitted under rules 2; the same log under rules 1 (no rulesVersion) is not completed", () => {
    const seed = SEEDS[1]!;
    const log = swipeConnectDots(seed) as [number, number, number, 0 | 1][];
    const replay = replayConnectDots(seed, log, 2);
    const ms = replay.ok ? replay.result.completionMs! : 0;
    expect(
      verifySkillSubmission(seed, { requestId: "req-swipe-1", game: "dots", inputs: log, claimedCompletionMs: ms, rulesVersion: 2 }),
    ).toMatchObject({
      ok: true,
      reward: DOTS_REWARD,
      score: { completionMs: ms },
    });
    expect(verifySkillSubmission(seed, { requestId: "req-swipe-2", game: "dots", inputs: log, claimedCompletionMs: ms })).toMatchObject({
      ok: false,
      refusal: { code: "not_completed" },
    });
  });
});

describe("a line that misses", () => {
  /** Hovers to 40 px left of dot 1, offset by `offset` px, waits for the pen, then swipes to 40 px right of it and lifts. */
  const pass = (seed: string, offset: number): DotsInput[] => {
    const d = dotLayout(seed)[0]!;
    return [
      [0, d.x - 40, d.y + offset, 0],
      [60, d.x - 40, d.y + offset, 1],
      [62, d.x + 40, d.y + offset, 1],
      [64, d.x + 40, d.y + offset, 0],
    ];
  };

  it("beside the dot connects nothing and the game says which dot the line had to pass through", () => {
    for (const seed of SEEDS) {
      const beside = runConnectDots(seed, pass(seed, DOT_RADIUS + 1), 2).game.state;
      expect(beside.connected).toBe(0);
      expect(beside.miss).toEqual({ tick: expect.any(Number), expected: 0 });
      const through = runConnectDots(seed, pass(seed, DOT_RADIUS - 1), 2).game.state;
      expect(through.connected).toBe(1);
      expect(through.miss).toBeNull();
    }
  });

  it("through a later dot instead of the next one is a miss too", () => {
    const seed = SEEDS[0]!;
    const second = dotLayout(seed)[1]!;
    const log: DotsInput[] = [
      [0, second.x - 40, second.y, 0],
      [60, second.x - 40, second.y, 1],
      [62, second.x + 40, second.y, 1],
    ];
    const state = runConnectDots(seed, log, 2).game.state;
    expect(state.connected).toBe(0);
    expect(state.miss).toEqual({ tick: expect.any(Number), expected: 0 });
  });
});
