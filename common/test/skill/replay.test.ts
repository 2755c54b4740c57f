import { describe, expect, it } from "vitest";
import {
  DOTS_REWARD,
  DOT_BATTLE_ROUND_TICKS,
  DOT_COUNT,
  DOT_RADIUS,
  DOTS_RULES_VERSION,
  PEN_SPEED,
  MAX_INPUTS_PER_SECOND,
  dotLayout,
  dotBattleSubmit,
  dotsSubmit,
  replayConnectDots,
  replayDotBattle,
  verifySkillSubmission,
  type DotBattleInput,
  type DotsInput,
} from "../../src/index";
import survivor from "./fixtures/dot-battle-survivor.json";
import sweeper from "./fixtures/dot-battle-sweeper.json";
import dots from "./fixtures/dots.json";
import swipe from "./fixtures/dots-rules-2-swipe.json";
import { swipeConnectDots } from "./bots";
import { connectDotsDigest, dotBattleDigest } from "./digest";

const battleLog = (fixture: { inputs: number[][] }) => fixture.inputs as unknown as DotBattleInput[];
const dotsLog = (fixture: { inputs: number[][] }) => fixture.inputs as unknown as DotsInput[];

describe("recorded logs replay to the recorded result, bit for bit", () => {
  it("Dot Battle, a player who survives the whole round", () => {
    const replay = replayDotBattle(survivor.seed, battleLog(survivor));
    expect(replay).toEqual({ ok: true, result: { kills: survivor.kills, ticks: DOT_BATTLE_ROUND_TICKS, livesLeft: expect.any(Number) } });
    expect(dotBattleDigest(survivor.seed, battleLog(survivor))).toBe(survivor.digest);
  });

  it("Dot Battle, a player who loses every life before the end", () => {
    const replay = replayDotBattle(sweeper.seed, battleLog(sweeper));
    expect(replay).toEqual({ ok: true, result: { kills: sweeper.kills, ticks: sweeper.ticks, livesLeft: 0 } });
    expect(sweeper.ticks).toBeLessThan(DOT_BATTLE_ROUND_TICKS);
    expect(dotBattleDigest(sweeper.seed, battleLog(sweeper))).toBe(sweeper.digest);
  });

  it("Connect the Dots under rules 1 (every round recorded before rules 2 replays as it was paid)", () => {
    const replay = replayConnectDots(dots.seed, dotsLog(dots), 1);
    expect(replay.ok && replay.result).toEqual({
      completed: true,
      connected: DOT_COUNT,
      completionTicks: expect.any(Number),
      completionMs: dots.completionMs,
    });
    expect(connectDotsDigest(dots.seed, dotsLog(dots), 1)).toBe(dots.digest);
  });

  it("Connect the Dots under rules 2, a quick swipe", () => {
    expect(swipe.rulesVersion).toBe(DOTS_RULES_VERSION);
    const replay = replayConnectDots(swipe.seed, dotsLog(swipe), 2);
    expect(replay.ok && replay.result).toEqual({
      completed: true,
      connected: DOT_COUNT,
      completionTicks: expect.any(Number),
      completionMs: swipe.completionMs,
    });
    expect(connectDotsDigest(swipe.seed, dotsLog(swipe), 2)).toBe(swipe.digest);
  });

  it("the recorded logs pass the message schemas the server parses them with", () => {
    expect(
      dotBattleSubmit.safeParse({ requestId: "req-fixture-1", game: "dot-battle", inputs: survivor.inputs, claimedKills: survivor.kills })
        .success,
    ).toBe(true);
    expect(
      dotsSubmit.safeParse({ requestId: "req-fixture-2", game: "dots", inputs: dots.inputs, claimedCompletionMs: dots.completionMs })
        .success,
    ).toBe(true);
  });
});

describe("the simulation depends on the seed and on every input", () => {
  it("another seed gives another game for the same inputs", () => {
    const other = "0".repeat(63) + "1";
    expect(dotBattleDigest(other, battleLog(survivor))).not.toBe(survivor.digest);
    expect(dotLayout(other)).not.toEqual(dotLayout(dots.seed));
  });

  it("changing one input changes the outcome", () => {
    const inputs = battleLog(survivor).map((e) => [...e] as [number, number]);
    const i = Math.floor(inputs.length / 2);
    inputs[i] = [inputs[i]![0], inputs[i]![1] ^ 1];
    expect(dotBattleDigest(survivor.seed, inputs)).not.toBe(survivor.digest);
  });

  it("the dot layout keeps every dot inside the arena and apart from the others", () => {
    for (const seed of ["ab".repeat(32), "cd".repeat(32), dots.seed]) {
      const layout = dotLayout(seed);
      expect(layout).toHaveLength(DOT_COUNT);
      for (const [i, d] of layout.entries()) {
        expect(d.x).toBeGreaterThanOrEqual(40);
        expect(d.y).toBeLessThanOrEqual(600);
        for (const e of layout.slice(0, i)) expect((d.x - e.x) ** 2 + (d.y - e.y) ** 2).toBeGreaterThanOrEqual(90 * 90);
      }
    }
  });
});

describe("tampered logs and claims are refused", () => {
  const battle = (inputs: DotBattleInput[], claimedKills: number) =>
    verifySkillSubmission(survivor.seed, {
      requestId: "req-tamper-1",
      game: "dot-battle",
      inputs: inputs as [number, number][],
      claimedKills,
    });
  const puzzle = (inputs: DotsInput[], claimedCompletionMs: number) =>
    verifySkillSubmission(dots.seed, {
      requestId: "req-tamper-2",
      game: "dots",
      inputs: inputs as [number, number, number, 0 | 1][],
      claimedCompletionMs,
    });

  it("an honest claim is paid the replay's score", () => {
    expect(battle(battleLog(survivor), survivor.kills)).toMatchObject({
      ok: true,
      reward: survivor.kills,
      score: { kills: survivor.kills },
    });
    expect(puzzle(dotsLog(dots), dots.completionMs)).toMatchObject({
      ok: true,
      reward: DOTS_REWARD,
      score: { completionMs: dots.completionMs },
    });
  });

  it("extra kills", () => {
    expect(battle(battleLog(survivor), survivor.kills + 1)).toMatchObject({ ok: false, refusal: { code: "claim_above_replay" } });
  });

  it("an input rate no keyboard produces", () => {
    const burst: DotBattleInput[] = Array.from({ length: MAX_INPUTS_PER_SECOND + 1 }, (_, i) => [i, i % 2 ? 4 : 8]);
    expect(battle(burst, 0)).toMatchObject({ ok: false, refusal: { code: "input_rate" } });
  });

  it("inputs out of order, beyond the round, or after the player's last life", () => {
    const log = battleLog(survivor);
    expect(battle([log[1]!, log[0]!, ...log.slice(2)], 0)).toMatchObject({ ok: false, refusal: { code: "input_order" } });
    expect(battle([...log, [DOT_BATTLE_ROUND_TICKS, 0]], 0)).toMatchObject({ ok: false, refusal: { code: "input_range" } });
    const dead = battleLog(sweeper);
    const afterDeath = verifySkillSubmission(sweeper.seed, {
      requestId: "req-tamper-3",
      game: "dot-battle",
      inputs: [...dead, [sweeper.ticks + 5, 0]] as [number, number][],
      claimedKills: 0,
    });
    expect(afterDeath).toMatchObject({ ok: false, refusal: { code: "input_after_end" } });
  });

  it("a completion faster than the replay, and a completion the replay does not reach", () => {
    expect(puzzle(dotsLog(dots), dots.completionMs - 1)).toMatchObject({ ok: false, refusal: { code: "faster_than_replay" } });
    const short = dotsLog(dots).slice(0, 3);
    expect(puzzle([...short, [short[2]![0] + 1, 0, 0, 0]], 1000)).toMatchObject({ ok: false, refusal: { code: "not_completed" } });
  });

  it("no log beats the pen's speed: jumping the pointer from dot to dot is no faster than the path", () => {
    const layout = dotLayout(dots.seed);
    // The pen starts at the centre and must come within DOT_RADIUS of each dot in turn.
    let from = { x: 240, y: 320 };
    let path = 0;
    for (const d of layout) {
      path += Math.max(0, Math.sqrt((d.x - from.x) ** 2 + (d.y - from.y) ** 2) - 2 * DOT_RADIUS);
      from = d;
    }
    const fastest = Math.floor(path / PEN_SPEED);
    const teleport: DotsInput[] = layout.map((d, i) => [i * 2, d.x, d.y, 1]);
    for (const rules of [1, 2] as const) {
      const jumped = replayConnectDots(dots.seed, teleport, rules);
      expect(jumped.ok).toBe(true);
      if (jumped.ok && jumped.result.completed) expect(jumped.result.completionTicks).toBeGreaterThanOrEqual(fastest);
    }
    const swiped = replayConnectDots(dots.seed, swipeConnectDots(dots.seed), 2);
    expect(swiped.ok && swiped.result.completionTicks).toBeGreaterThanOrEqual(fastest);
    const honest = replayConnectDots(dots.seed, dotsLog(dots), 1);
    expect(honest.ok && honest.result.completionTicks).toBeGreaterThanOrEqual(fastest);
  });
});
