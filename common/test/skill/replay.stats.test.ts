import { describe, expect, it } from "vitest";
import { replayConnectDots, replayDotBattle } from "../../src/index";
import { playConnectDots, playDotBattle } from "./bots";

/**
 * The bots play whole rounds on fresh seeds and the replay must reach the same result: seconds, so in the
 * stats tier (`npm run test:stats`). The recorded logs and the refused claims are in replay.test.ts.
 */

describe("the simulation depends on the seed and on every input", () => {
  it("plays fresh seeds the same way twice", () => {
    for (const seed of ["12".repeat(32), "9f".repeat(32)]) {
      const a = playDotBattle(seed);
      expect(replayDotBattle(seed, a.inputs)).toEqual({
        ok: true,
        result: { kills: a.kills, ticks: a.ticks, livesLeft: expect.any(Number) },
      });
      for (const rules of [1, 2] as const) {
        const b = playConnectDots(seed, rules);
        const replay = replayConnectDots(seed, b.inputs, rules);
        expect(replay.ok && replay.result.completionMs).toBe(b.completionMs);
      }
    }
  });
});
