import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  DOTS_REWARD,
  DOTS_RULES_VERSION,
  DOT_COUNT,
  DOT_RADIUS,
  MAX_INPUTS_PER_SECOND,
  SKILL_ROUNDS_PER_DAY,
  dotLayout,
  replayConnectDots,
  type DotBattleInput,
  type DotsInput,
  type DotsRules,
} from "@casino/common";
import { playConnectDots, playDotBattle, sweepDotBattle, swipeConnectDots } from "../../common/test/skill/bots";
import { startTestApp, TEST_DB, type TestApp } from "./harness";
import { discordPlayer } from "./leaderboard-helpers";
import { newRequestId } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

async function start(token: string, game: "dot-battle" | "dots", requestId = newRequestId()) {
  return t.request("POST", "/api/skill-rounds", { token, body: { requestId, game } });
}

/**
 * The browser plays in real time, so the server refuses a log that covers more game time than has
 * passed since the round started. Tests that play instantly move the round's start back instead of
 * waiting.
 */
async function playedFor(roundId: string, seconds: number) {
  await t.sql(`UPDATE skill_rounds SET started_at = now() - $2 * interval '1 second' WHERE id = $1`, [roundId, seconds]);
}

async function submit(token: string, roundId: string, body: Record<string, unknown>) {
  return t.request("POST", `/api/skill-rounds/${roundId}/submit`, { token, body: { requestId: newRequestId(), ...body } });
}

describe("Dot Battle", () => {
  it("pays one coin per kill the server's replay counts, records the score, and pays a round once", async () => {
    const { token, player } = await t.guest();
    const started = await start(token, "dot-battle");
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      game: "dot-battle",
      seed: expect.stringMatching(/^[0-9a-f]{64}$/),
      roundTicks: 3600,
      playedToday: 1,
      dailyCap: SKILL_ROUNDS_PER_DAY,
    });
    const { roundId, seed } = started.body;
    const play = playDotBattle(seed);
    expect(play.kills).toBeGreaterThan(0);
    await playedFor(roundId, 61);
    const requestId = newRequestId();
    const paid = await submit(token, roundId, { requestId, game: "dot-battle", inputs: play.inputs, claimedKills: play.kills });
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({
      requestId,
      roundId,
      game: "dot-battle",
      kills: play.kills,
      completionMs: null,
      reward: play.kills,
      balance: 1000 + play.kills,
    });
    expect(await t.balanceOf(player.id)).toBe(1000 + play.kills);

    const [score] = await t.sql(`SELECT kills, round_id FROM dot_battle_scores WHERE player_id = $1`, [player.id]);
    expect(score).toEqual({ kills: play.kills, round_id: roundId });
    const [session] = await t.sql(`SELECT game_type, bet_amount, payout, result FROM game_sessions WHERE player_id = $1`, [player.id]);
    expect(session).toMatchObject({ game_type: "dot-battle", result: "win" });
    expect(Number(session.payout)).toBe(play.kills);

    // The same request again gets the same answer; another request for the same round is refused.
    const repeat = await submit(token, roundId, { requestId, game: "dot-battle", inputs: play.inputs, claimedKills: play.kills });
    expect(repeat.body).toEqual({ ...paid.body, replayed: true });
    const again = await submit(token, roundId, { game: "dot-battle", inputs: play.inputs, claimedKills: play.kills });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("round_closed");
    expect(await t.balanceOf(player.id)).toBe(1000 + play.kills);
  });

  it("a claimed score the player did not reach is never paid: the replay's own count is", async () => {
    const { token, player } = await t.guest();
    const { roundId, seed } = (await start(token, "dot-battle")).body;
    const play = sweepDotBattle(seed);
    await playedFor(roundId, 61);
    // Claiming fewer than the replay gives is not a lie about the log: the replay's count is paid.
    const modest = await submit(token, roundId, { game: "dot-battle", inputs: play.inputs, claimedKills: 0 });
    expect(modest.body).toMatchObject({ kills: play.kills, reward: play.kills });

    const other = (await start(token, "dot-battle")).body;
    const otherPlay = sweepDotBattle(other.seed);
    await playedFor(other.roundId, 61);
    const inflated = await submit(token, other.roundId, {
      game: "dot-battle",
      inputs: otherPlay.inputs,
      claimedKills: otherPlay.kills + 5,
    });
    expect(inflated.status).toBe(422);
    expect(inflated.body).toMatchObject({ code: "log_refused", reason: "claim_above_replay" });
    expect(inflated.body.error).toMatch(/claimed \d+ kills but the replay gives \d+/);
    // The round is closed: the honest claim afterwards is refused too, and nothing was paid for it.
    const honest = await submit(token, other.roundId, { game: "dot-battle", inputs: otherPlay.inputs, claimedKills: otherPlay.kills });
    expect(honest.status).toBe(422);
    expect(await t.balanceOf(player.id)).toBe(1000 + play.kills);
    const [round] = await t.sql(`SELECT status, refusal_code, reward FROM skill_rounds WHERE id = $1`, [other.roundId]);
    expect(round).toEqual({ status: "refused", refusal_code: "claim_above_replay", reward: null });
    expect((await t.sql(`SELECT count(*)::int AS n FROM dot_battle_scores WHERE round_id = $1`, [other.roundId]))[0].n).toBe(0);
  });

  it("refuses logs no player could have produced, and pays nothing for them", async () => {
    const { token, player } = await t.guest();
    const cases: [string, (seed: string, play: { inputs: DotBattleInput[]; ticks: number }) => DotBattleInput[]][] = [
      ["input_rate", () => Array.from({ length: MAX_INPUTS_PER_SECOND + 1 }, (_, i) => [i, i % 2 ? 4 : 8] as const)],
      ["input_order", (_, play) => [play.inputs[1]!, play.inputs[0]!, ...play.inputs.slice(2)]],
      ["input_after_end", (_, play) => [...play.inputs, [play.ticks + 10, 0]]],
    ];
    for (const [reason, tamper] of cases) {
      const { roundId, seed } = (await start(token, "dot-battle")).body;
      const play = sweepDotBattle(seed);
      await playedFor(roundId, 61);
      const res = await submit(token, roundId, { game: "dot-battle", inputs: tamper(seed, play), claimedKills: 0 });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "log_refused", reason });
    }
    expect(await t.balanceOf(player.id)).toBe(1000);
    expect(
      (await t.sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND reason = 'reward'`, [player.id]))[0].n,
    ).toBe(0);
  });

  it("refuses a log that covers more game time than has passed since the round started", async () => {
    const { token, player } = await t.guest();
    const { roundId, seed } = (await start(token, "dot-battle")).body;
    const play = playDotBattle(seed);
    const res = await submit(token, roundId, { game: "dot-battle", inputs: play.inputs, claimedKills: play.kills });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "log_refused", reason: "faster_than_real_time" });
    expect(await t.balanceOf(player.id)).toBe(1000);
  });
});

describe("Connect the Dots", () => {
  it("pays 5 coins for a completed puzzle and records the replay's time", async () => {
    const { token, player } = await t.guest();
    const { roundId, seed, roundTicks } = (await start(token, "dots")).body;
    expect(roundTicks).toBe(7200);
    const play = playConnectDots(seed);
    await playedFor(roundId, 30);
    const res = await submit(token, roundId, { game: "dots", inputs: play.inputs, claimedCompletionMs: play.completionMs });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      game: "dots",
      completionMs: play.completionMs,
      kills: null,
      reward: DOTS_REWARD,
      balance: 1000 + DOTS_REWARD,
    });
    const [record] = await t.sql(`SELECT completion_time_ms, round_id FROM dots_speed_records WHERE player_id = $1`, [player.id]);
    expect(record).toEqual({ completion_time_ms: play.completionMs, round_id: roundId });
    const [session] = await t.sql(`SELECT result, bet_amount FROM game_sessions WHERE player_id = $1`, [player.id]);
    expect(session.result).toBe("win");
    expect(Number(session.bet_amount)).toBe(0);
  });

  it("refuses a time faster than the replay's and a puzzle the replay does not complete", async () => {
    const { token, player } = await t.guest();
    const fast = (await start(token, "dots")).body;
    const play = playConnectDots(fast.seed);
    await playedFor(fast.roundId, 30);
    const res = await submit(token, fast.roundId, { game: "dots", inputs: play.inputs, claimedCompletionMs: play.completionMs! - 100 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "log_refused", reason: "faster_than_replay" });

    const unfinished = (await start(token, "dots")).body;
    const first = dotLayout(unfinished.seed)[0]!;
    const partial: DotsInput[] = [
      [0, first.x, first.y, 1],
      [600, first.x, first.y, 0],
    ];
    await playedFor(unfinished.roundId, 30);
    const res2 = await submit(token, unfinished.roundId, { game: "dots", inputs: partial, claimedCompletionMs: 1000 });
    expect(res2.status).toBe(422);
    expect(res2.body).toMatchObject({ code: "log_refused", reason: "not_completed" });
    expect(await t.balanceOf(player.id)).toBe(1000);
    expect((await t.sql(`SELECT count(*)::int AS n FROM dots_speed_records WHERE player_id = $1`, [player.id]))[0].n).toBe(0);
  });
});

describe("Connect the Dots played as a quick swipe (rules 2)", () => {
  it("replays sparse fast samples across the dots with every dot hit, pays the reward, and stores the rules with the round", async () => {
    const { token, player } = await t.guest();
    const { roundId, seed } = (await start(token, "dots")).body;
    const inputs = swipeConnectDots(seed);
    // No sample lands on a dot: only the lines between samples cross them.
    for (const [, x, y] of inputs)
      for (const d of dotLayout(seed)) expect((x - d.x) ** 2 + (y - d.y) ** 2).toBeGreaterThan(DOT_RADIUS ** 2);
    const local = replayConnectDots(seed, inputs, DOTS_RULES_VERSION);
    const completionMs = local.ok ? local.result.completionMs : null;
    expect(completionMs).toBeGreaterThan(0);
    await playedFor(roundId, 30);
    const res = await submit(token, roundId, { game: "dots", inputs, claimedCompletionMs: completionMs, rulesVersion: DOTS_RULES_VERSION });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ game: "dots", completionMs, reward: DOTS_REWARD, balance: 1000 + DOTS_REWARD });
    expect(await t.balanceOf(player.id)).toBe(1000 + DOTS_REWARD);
    const [row] = await t.sql(`SELECT status, completion_ms, reward, rules_version, inputs, seed FROM skill_rounds WHERE id = $1`, [
      roundId,
    ]);
    expect(row).toMatchObject({ status: "rewarded", completion_ms: completionMs, rules_version: 2 });
    expect(Number(row.reward)).toBe(DOTS_REWARD);
    // The stored round replays again, under its stored rules, to its recorded time and every dot.
    const again = replayConnectDots(row.seed, row.inputs as DotsInput[], row.rules_version as DotsRules);
    expect(again.ok && again.result).toMatchObject({ completed: true, connected: DOT_COUNT, completionMs: row.completion_ms });
  });

  it("a submission without rulesVersion (a browser loaded before rules 2) is replayed under rules 1, and recorded so", async () => {
    const { token, player } = await t.guest();
    const old = (await start(token, "dots")).body;
    const play = playConnectDots(old.seed, 1);
    await playedFor(old.roundId, 30);
    expect((await submit(token, old.roundId, { game: "dots", inputs: play.inputs, claimedCompletionMs: play.completionMs })).status).toBe(
      200,
    );
    expect((await t.sql(`SELECT rules_version FROM skill_rounds WHERE id = $1`, [old.roundId]))[0].rules_version).toBe(1);

    // The quick swipe under rules 1: the pen chased the pointer's latest position and missed the dots.
    const swiped = (await start(token, "dots")).body;
    await playedFor(swiped.roundId, 30);
    const res = await submit(token, swiped.roundId, { game: "dots", inputs: swipeConnectDots(swiped.seed), claimedCompletionMs: 5000 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "log_refused", reason: "not_completed" });
    expect((await t.sql(`SELECT status, rules_version FROM skill_rounds WHERE id = $1`, [swiped.roundId]))[0]).toEqual({
      status: "refused",
      rules_version: 1,
    });
    expect(await t.balanceOf(player.id)).toBe(1000 + DOTS_REWARD);
  });

  it("refuses an unknown rules version", async () => {
    const { token } = await t.guest();
    const { roundId, seed } = (await start(token, "dots")).body;
    const res = await submit(token, roundId, { game: "dots", inputs: swipeConnectDots(seed), claimedCompletionMs: 5000, rulesVersion: 3 });
    expect(res.status).toBe(400);
  });
});

describe("the Speed and Kills boards", () => {
  it("list a finished round's time and kills as soon as the reward is answered, and never a guest's", async () => {
    const ann = await discordPlayer(t, "Ann");
    const guest = await t.guest();

    const dots = (await start(ann.token, "dots")).body;
    const solved = playConnectDots(dots.seed);
    await playedFor(dots.roundId, 30);
    const paid = await submit(ann.token, dots.roundId, { game: "dots", inputs: solved.inputs, claimedCompletionMs: solved.completionMs });
    expect(paid.status).toBe(200);
    // No waiting for the boards' consumer: the route puts the record on the board before it answers.
    const speed = await t.request("GET", "/api/game/dots/leaderboard?limit=25", { token: ann.token });
    expect(speed.status).toBe(200);
    expect(speed.body.entries.map((e: any) => [e.playerId, e.completionTimeMs, e.rank])).toEqual([
      [ann.player.id, paid.body.completionMs, 1],
    ]);

    const battle = (await start(ann.token, "dot-battle")).body;
    const fought = playDotBattle(battle.seed);
    await playedFor(battle.roundId, 61);
    const scored = await submit(ann.token, battle.roundId, { game: "dot-battle", inputs: fought.inputs, claimedKills: fought.kills });
    expect(scored.status).toBe(200);
    const kills = await t.request("GET", "/api/game/dot-battle/leaderboard?limit=25", { token: ann.token });
    expect(kills.body.entries.map((e: any) => [e.playerId, e.kills, e.rank])).toEqual([[ann.player.id, scored.body.kills, 1]]);

    // A guest is paid the same way but, as the spec says, never ranked.
    const guestRound = (await start(guest.token, "dots")).body;
    const guestPlay = playConnectDots(guestRound.seed);
    await playedFor(guestRound.roundId, 30);
    expect(
      (
        await submit(guest.token, guestRound.roundId, {
          game: "dots",
          inputs: guestPlay.inputs,
          claimedCompletionMs: guestPlay.completionMs,
        })
      ).status,
    ).toBe(200);
    await t.app.services.leaderboards.catchUp();
    const after = await t.request("GET", "/api/game/dots/leaderboard?limit=25", { token: guest.token });
    expect(after.body.entries.map((e: any) => e.playerId)).toEqual([ann.player.id]);
  });
});

describe("requests", () => {
  it("validates bodies and ownership, and refuses an expired round", async () => {
    const { token } = await t.guest();
    const other = await t.guest();
    expect((await t.request("POST", "/api/skill-rounds", { body: { requestId: newRequestId(), game: "dots" } })).status).toBe(401);
    const badGame = await start(token, "slots" as "dots");
    expect(badGame.status).toBe(400);
    expect(badGame.body.error).toMatch(/game must be dot-battle or dots/);
    const { roundId, seed } = (await start(token, "dots")).body;
    const notMine = await submit(other.token, roundId, { game: "dots", inputs: [], claimedCompletionMs: 1 });
    expect(notMine.status).toBe(404);
    const wrongGame = await submit(token, roundId, { game: "dot-battle", inputs: [], claimedKills: 0 });
    expect(wrongGame.body).toMatchObject({ code: "wrong_game" });
    const badInputs = await submit(token, roundId, { game: "dots", inputs: [[0, 9999, 0, 1]], claimedCompletionMs: 1 });
    expect(badInputs.status).toBe(400);
    expect(badInputs.body.error).toMatch(/x is 0–480/);
    expect((await submit(token, "not-a-round", { game: "dots", inputs: [], claimedCompletionMs: 1 })).status).toBe(400);
    const big = await t.request("POST", `/api/skill-rounds/${roundId}/submit`, {
      token,
      raw: JSON.stringify({ pad: "x".repeat(200_000) }),
    });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("body_too_large");

    await playedFor(roundId, 60 * 60);
    const late = await submit(token, roundId, { game: "dots", inputs: playConnectDots(seed).inputs, claimedCompletionMs: 99_999 });
    expect(late.status).toBe(410);
    expect((await t.sql(`SELECT status FROM skill_rounds WHERE id = $1`, [roundId]))[0].status).toBe("expired");
  });

  it("a repeated start gets the same round and counts once", async () => {
    const { token } = await t.guest();
    const requestId = newRequestId();
    const [a, b] = await Promise.all([start(token, "dots", requestId), start(token, "dots", requestId)]);
    expect(a.body.roundId).toBe(b.body.roundId);
    expect(a.body.seed).toBe(b.body.seed);
    const today = await t.request("GET", "/api/skill-rounds/today", { token });
    expect(today.body).toEqual({ playedToday: 1, dailyCap: SKILL_ROUNDS_PER_DAY });
  });
});

describe(`the daily cap (${TEST_DB})`, () => {
  it(`holds under concurrent starts and submissions: ${SKILL_ROUNDS_PER_DAY} rounds a day, each paid once`, async () => {
    const { token, player } = await t.guest();
    const starts = await Promise.all(Array.from({ length: SKILL_ROUNDS_PER_DAY + 6 }, () => start(token, "dots")));
    const accepted = starts.filter((r) => r.status === 201);
    const refused = starts.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(SKILL_ROUNDS_PER_DAY);
    expect(refused).toHaveLength(6);
    expect(refused[0]!.body).toMatchObject({ code: "daily_limit", dailyCap: SKILL_ROUNDS_PER_DAY });
    const [p] = await t.sql(`SELECT dots_games_played_today, dots_last_played_date FROM players WHERE id = $1`, [player.id]);
    expect(p.dots_games_played_today).toBe(SKILL_ROUNDS_PER_DAY);
    expect(p.dots_last_played_date).toBe(new Date().toISOString().slice(0, 10));

    // Every round submitted twice at once, with different request ids: each pays once.
    const rounds = accepted.map((r) => r.body as { roundId: string; seed: string });
    for (const r of rounds) await playedFor(r.roundId, 30);
    const submissions = await Promise.all(
      rounds.flatMap((r) => {
        const play = playConnectDots(r.seed);
        const body = { game: "dots", inputs: play.inputs, claimedCompletionMs: play.completionMs };
        return [submit(token, r.roundId, body), submit(token, r.roundId, body)];
      }),
    );
    expect(submissions.filter((s) => s.status === 200)).toHaveLength(SKILL_ROUNDS_PER_DAY);
    expect(submissions.filter((s) => s.status === 409).every((s) => s.body.code === "round_closed")).toBe(true);
    expect(await t.balanceOf(player.id)).toBe(1000 + SKILL_ROUNDS_PER_DAY * DOTS_REWARD);
    expect((await t.sql(`SELECT count(*)::int AS n FROM dots_speed_records WHERE player_id = $1`, [player.id]))[0].n).toBe(
      SKILL_ROUNDS_PER_DAY,
    );

    // A new day opens the count again.
    await t.sql(`UPDATE players SET dots_last_played_date = '2000-01-01' WHERE id = $1`, [player.id]);
    const tomorrow = await start(token, "dot-battle");
    expect(tomorrow.status).toBe(201);
    expect(tomorrow.body.playedToday).toBe(1);
  });
});
