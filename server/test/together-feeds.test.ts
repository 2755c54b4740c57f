import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import { CRASH_MESSAGES, DOTS_REWARD, FEED_MAX_ROWS_PER_PUSH, TOGETHER_ROOM, type FeedRow } from "@casino/common";
import { playConnectDots } from "../../common/test/skill/bots";
import { ManualClock } from "../src/clock";
import { startTestApp, type TestApp } from "./harness";
import { CRASH_ENV, bettingRound, runToBust, startRun } from "./crash-room-helpers";
import { ask, Inbox, newRequestId, waitFor } from "./room-helpers";
import { FEED_GLOBAL_CHANNEL, feedChannel } from "../src/together/together";

/**
 * The instance's feed hears every kind of round its players play: a bet of the instance's shared crash
 * round (at the bust) and an accepted skill round, besides the solo tables (together.test.ts).
 */
let t: TestApp;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestApp(CRASH_ENV, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params)) as Promise<any[]>;

async function signIn(id: string, name: string, instanceId: string) {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:${name}`, instanceId } });
  expect(res.status).toBe(200);
  return { token: res.body.session_token as string, player: res.body.player };
}

async function join(token: string, name: string, options: Record<string, unknown>): Promise<{ room: Room; inbox: Inbox }> {
  const room = await t.sdk(token).joinOrCreate(name, options);
  return { room, inbox: new Inbox(room) };
}

const feedPushes = (inbox: Inbox) =>
  inbox.messages.filter((m) => m.type === "feed").map((m) => m.body as { instance: FeedRow[]; global: FeedRow[] });
const instanceRows = (inbox: Inbox) => feedPushes(inbox).flatMap((push) => push.instance);
const globalRows = (inbox: Inbox) => feedPushes(inbox).flatMap((push) => push.global);

describe("the instance feed", () => {
  it("carries the bets of the instance's crash rounds and accepted skill rounds", async () => {
    const instanceId = "inst-feeds-a";
    const alice = await signIn("8300001", "Alice", instanceId);
    const bob = await signIn("8300002", "Bob", instanceId);
    const dave = await signIn("8300003", "Dave", "inst-feeds-b");
    const a = await join(alice.token, TOGETHER_ROOM, { instanceId });
    const b = await join(bob.token, TOGETHER_ROOM, { instanceId });
    const d = await join(dave.token, TOGETHER_ROOM, { instanceId: "inst-feeds-b" });
    await waitFor(() => a.inbox.messages.some((m) => m.type === "members"), 10_000);

    // Alice bets in the instance's crash room, cashing out automatically at 1.5x (or losing at the bust);
    // the clock is moved through the round.
    const crash = await join(alice.token, "crash", { instanceId });
    await bettingRound(crash.room);
    const answer = await ask(crash.room, crash.inbox, CRASH_MESSAGES.bet, { amount: 40, autoCashOut: 1.5 });
    expect(answer.type).toBe("result");
    await startRun(t, clock, crash.room);
    await runToBust(t, clock, crash.room);
    await waitFor(() => instanceRows(b.inbox).some((r) => r.kind === "crash"), 15_000);
    const row = instanceRows(b.inbox).find((r) => r.kind === "crash");
    const [bet] = await sql(
      `SELECT b.payout, r.game_hash, r.game_number FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.player_id = $1`,
      [alice.player.id],
    );
    const payout = Number(bet.payout ?? 0);
    expect(row).toEqual({
      id: `crash:${bet.game_hash}:0`,
      kind: "crash",
      username: "Alice",
      avatarUrl: expect.any(String),
      anonymous: false,
      game: "crash",
      stake: 40,
      payout,
      multiplier: Math.floor((payout / 40) * 100) / 100,
      big: false,
      at: expect.any(String),
      serverSeedHash: bet.game_hash,
      nonce: Number(bet.game_number),
    });
    await crash.room.leave(true);

    // Alice completes a Connect the Dots round: 5 coins, no stake, no seed named.
    const started = await t.request("POST", "/api/skill-rounds", { token: alice.token, body: { requestId: newRequestId(), game: "dots" } });
    expect(started.status).toBe(201);
    const play = playConnectDots(started.body.seed);
    await sql(`UPDATE skill_rounds SET started_at = now() - interval '30 seconds' WHERE id = $1`, [started.body.roundId]);
    const paid = await t.request("POST", `/api/skill-rounds/${started.body.roundId}/submit`, {
      token: alice.token,
      body: { requestId: newRequestId(), game: "dots", inputs: play.inputs, claimedCompletionMs: play.completionMs },
    });
    expect(paid.status).toBe(200);
    await waitFor(() => instanceRows(b.inbox).some((r) => r.kind === "skill"), 10_000);
    expect(instanceRows(b.inbox).find((r) => r.kind === "skill")).toMatchObject({
      id: `skill:${started.body.roundId}`,
      username: "Alice",
      game: "dots",
      stake: 0,
      payout: DOTS_REWARD,
      multiplier: 0,
      big: false,
      serverSeedHash: null,
      nonce: null,
    });
    // Alice hears her own rows; the other instance hears none of them.
    await waitFor(() => instanceRows(a.inbox).length === 2, 10_000);
    expect(instanceRows(d.inbox)).toEqual([]);
    for (const r of [a, b, d]) await r.room.leave(true);
  });
});

describe("a burst of rows", () => {
  it("reaches the room's clients whole, in order, at most 20 rows of each feed a push", async () => {
    const instanceId = "inst-feeds-burst";
    const carol = await signIn("8300011", "Carol", instanceId);
    const c = await join(carol.token, TOGETHER_ROOM, { instanceId });
    await waitFor(() => c.inbox.messages.some((m) => m.type === "members"), 10_000);

    // 80 settled rounds and 30 big wins published at once, as a busy crash round's bust or a burst of
    // tables settling together publishes them: far more than one push carries.
    const row = (id: string, big: boolean): FeedRow => ({
      id,
      kind: "round",
      username: "Carol",
      avatarUrl: null,
      anonymous: false,
      game: "dice",
      stake: 100,
      payout: big ? 2_000 : 0,
      multiplier: big ? 20 : 0,
      big,
      at: new Date().toISOString(),
      serverSeedHash: "burst",
      nonce: 0,
    });
    const instance = Array.from({ length: 80 }, (_, i) => row(`burst:${i}`, false));
    const global = Array.from({ length: 30 }, (_, i) => row(`big:${i}`, true));
    const presence = t.app.services.presence;
    await Promise.all([
      ...instance.map((r) => presence.publish(feedChannel(instanceId), r)),
      ...global.map((r) => presence.publish(FEED_GLOBAL_CHANNEL, r)),
    ]);

    await waitFor(
      () => instanceRows(c.inbox).length >= 80 && globalRows(c.inbox).filter((r) => r.id.startsWith("big:")).length >= 30,
      15_000,
    );
    expect(instanceRows(c.inbox).map((r) => r.id)).toEqual(instance.map((r) => r.id));
    expect(
      globalRows(c.inbox)
        .filter((r) => r.id.startsWith("big:"))
        .map((r) => r.id),
    ).toEqual(global.map((r) => r.id));
    for (const push of feedPushes(c.inbox)) {
      expect(push.instance.length).toBeLessThanOrEqual(FEED_MAX_ROWS_PER_PUSH);
      expect(push.global.length).toBeLessThanOrEqual(FEED_MAX_ROWS_PER_PUSH);
    }
    expect(feedPushes(c.inbox).length).toBeGreaterThanOrEqual(80 / FEED_MAX_ROWS_PER_PUSH);
    await c.room.leave(true);
  });
});
