import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import {
  CRASH_MESSAGES,
  DOTS_REWARD,
  FEED_MAX_QUEUED_ROWS,
  FEED_MAX_ROWS_PER_PUSH,
  TOGETHER_ROOM,
  replayRound,
  togetherFeedPush,
  type FeedEntry,
  type FeedPush,
  type FeedRow,
  type HistoryItem,
} from "@casino/common";
import { roundMultiplier } from "@casino/common/games/odds";
import { playConnectDots } from "../../common/test/skill/bots";
import { ManualClock } from "../src/platform/clock";
import { startTestApp, type TestApp } from "./harness";
import { CRASH_ENV, bettingRound, runToBust, startRun } from "./crash-room-helpers";
import { ask, chooseSeed, Inbox, joinCasino, newRequestId, waitFor } from "./room-helpers";

/**
 * The instance's feed hears every kind of round its players play: a bet of the instance's shared crash
 * round (at the bust) and an accepted skill round, besides the solo tables (together.test.ts). A row
 * tells the bet's own multiplier, the one "My bets" tells, never paid ÷ stake; and no settled round is
 * lost on the way, however many settle at once.
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

/** Every feed push the client got, each read with the schema the client reads it with. */
const feedPushes = (inbox: Inbox): FeedPush[] => inbox.messages.filter((m) => m.type === "feed").map((m) => togetherFeedPush.parse(m.body));
const isRow = (entry: FeedEntry): entry is FeedRow => entry.kind !== "folded";
const instanceEntries = (inbox: Inbox) => feedPushes(inbox).flatMap((push) => push.instance);
const instanceRows = (inbox: Inbox) => instanceEntries(inbox).filter(isRow);
const globalRows = (inbox: Inbox) => feedPushes(inbox).flatMap((push) => push.global.filter(isRow));
/** The rounds the entries stand for: one per row, `rounds` per folded entry. */
const roundsIn = (entries: FeedEntry[]) => entries.reduce((sum, e) => sum + (e.kind === "folded" ? e.rounds : 1), 0);

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
      // the cash-out's own multiplier (1.5×, whatever whole coins it paid); a bet lost at the bust has none
      multiplier: payout > 0 ? 1.5 : null,
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
      multiplier: null,
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

describe("a row's multiplier", () => {
  it("is the bet's own: a dice win at 1.98× paid 19 or 20 is a 1.98× row, as My bets and the watch view tell it", async () => {
    const instanceId = "inst-feeds-mult";
    const erin = await signIn("8300021", "Erin", instanceId);
    const finn = await signIn("8300022", "Finn", instanceId);
    const e = await join(erin.token, TOGETHER_ROOM, { instanceId });
    const f = await join(finn.token, TOGETHER_ROOM, { instanceId });
    await waitFor(() => f.inbox.messages.some((m) => m.type === "members"), 10_000);
    // Finn watches Erin's table: the first push says no round of hers is open.
    f.room.send("watch", { discordId: "8300021" });
    await f.inbox.wait((m) => m.type === "table" && m.body.round === null, 10_000);

    // Erin's first dice round (10 coins under 50: 1.98×) wins: 19.8 exactly, paid 19 or 20 (rule 2).
    const params = { target: 50, direction: "under" };
    await chooseSeed(
      t,
      erin.player.id,
      "feeds-mult",
      (i) => replayRound(i, { game: "dice", amount: 10, params, actions: [] }).totalPayout > 0,
    );
    const casino = await joinCasino(t, erin.token);
    const answer = await ask(casino.room, casino.inbox, "bet", { game: "dice", amount: 10, params });
    expect(answer.type).toBe("result");
    const paid = answer.body.totalPayout as number;
    expect([19, 20]).toContain(paid);
    const rowId = `${answer.body.fairness.serverSeedHash}:0`;

    await waitFor(() => instanceRows(f.inbox).some((r) => r.id === rowId), 10_000);
    const row = instanceRows(f.inbox).find((r) => r.id === rowId)!;
    expect(row).toMatchObject({ kind: "round", game: "dice", stake: 10, payout: paid, multiplier: 1.98 });
    // What the whole coins paid would say instead (1.9× or 2×) is not what the row says.
    expect(row.multiplier).not.toBe(paid / 10);
    // The same figure as the round's own history row, from the one function My bets uses.
    const history = await t.request("GET", `/api/player/${erin.player.id}/history?limit=10`, { token: erin.token });
    expect(history.status).toBe(200);
    const item = (history.body.items as HistoryItem[]).find((i) => i.gameType === "dice")!;
    expect(roundMultiplier({ game: item.gameType, params: item.params, outcome: item.outcome, payout: item.payout })).toBe(row.multiplier);
    // The watcher's view of the settled round tells the same multiplier.
    const watched = await f.inbox.wait((m) => m.type === "table" && m.body.round?.done === true, 10_000);
    expect(watched.body.round).toMatchObject({ game: "dice", totalStake: 10, totalPayout: paid, multiplier: 1.98, result: "win" });
    for (const r of [casino, e, f]) await r.room.leave(true);
  });
});

describe("a burst of rows", () => {
  /** A settled solo round as the ledger's announcement hands it to the feed: a dice round lost at 1.98×, or a big limbo win. */
  const settled = (nonce: number, big = false) => ({
    game: big ? "limbo" : "dice",
    totalStake: 100,
    totalPayout: big ? 2_000 : 0,
    view: {},
    params: big ? { target: 20 } : { target: 50, direction: "under" },
    fairness: { serverSeedHash: "b".repeat(64), nonce },
  });

  async function listener(discordId: string, name: string, instanceId: string) {
    const player = await signIn(discordId, name, instanceId);
    const room = await join(player.token, TOGETHER_ROOM, { instanceId });
    await waitFor(() => room.inbox.messages.some((m) => m.type === "members"), 10_000);
    return { ...player, ...room };
  }

  /** Settles one round first, so the burst after it finds the player's identity cached (as a busy table does). */
  async function warm(playerId: string, c: { inbox: Inbox }) {
    t.app.services.together.roundSettled(playerId, settled(1_000_000));
    await waitFor(() => instanceRows(c.inbox).some((r) => r.id.endsWith(":1000000")), 10_000);
    c.inbox.messages.length = 0;
  }

  it("reaches the room's clients whole, in order, at most 20 rows of each feed a push", async () => {
    const instanceId = "inst-feeds-burst";
    const c = await listener("8300011", "Carol", instanceId);
    await warm(c.player.id, c);

    // 80 settled rounds and 30 big wins at once, as a busy crash round's bust or a burst of tables
    // settling together: far more than one push carries. A big win goes to both feeds.
    const together = t.app.services.together;
    for (let i = 0; i < 80; i++) together.roundSettled(c.player.id, settled(i));
    for (let i = 80; i < 110; i++) together.roundSettled(c.player.id, settled(i, true));

    await waitFor(() => instanceRows(c.inbox).length >= 110 && globalRows(c.inbox).length >= 30, 15_000);
    const nonces = (rows: FeedRow[]) => rows.map((r) => r.nonce);
    expect(nonces(instanceRows(c.inbox))).toEqual(Array.from({ length: 110 }, (_, i) => i));
    expect(nonces(globalRows(c.inbox))).toEqual(Array.from({ length: 30 }, (_, i) => 80 + i));
    expect(instanceEntries(c.inbox).some((e) => e.kind === "folded")).toBe(false);
    for (const push of feedPushes(c.inbox)) {
      expect(push.instance.length).toBeLessThanOrEqual(FEED_MAX_ROWS_PER_PUSH);
      expect(push.global.length).toBeLessThanOrEqual(FEED_MAX_ROWS_PER_PUSH);
    }
    expect(feedPushes(c.inbox).length).toBeGreaterThanOrEqual(110 / FEED_MAX_ROWS_PER_PUSH);
    // Every row tells the bet's multiplier: 1.98× for the dice rounds, 20× for the limbo wins.
    expect(new Set(instanceRows(c.inbox).map((r) => r.multiplier))).toEqual(new Set([1.98, 20]));
    await c.room.leave(true);
  });

  it("carries every bet of a 24-player crash round's bust to the instance", async () => {
    const instanceId = "inst-feeds-crash24";
    const c = await listener("8300012", "Cleo", instanceId);
    // 24 players of the instance, in it as their together rooms put them.
    const players = await Promise.all(
      Array.from({ length: 24 }, (_, i) => signIn(`83001${String(i).padStart(2, "0")}`, `P${i}`, instanceId)),
    );
    for (const p of players) await t.app.services.together.enter(instanceId, p.player.id);
    c.inbox.messages.length = 0;
    // At the bust the crash room settles every bet of the round in one go: 20 cashed out at 2×, 4 lost.
    const gameHash = "c".repeat(64);
    players.forEach((p, place) =>
      t.app.services.together.crashSettled(p.player.id, {
        stake: 10,
        payout: place < 20 ? 20 : 0,
        cashedOutAt: place < 20 ? 200 : null,
        gameHash,
        gameNumber: 7,
        place,
      }),
    );
    await waitFor(() => instanceRows(c.inbox).filter((r) => r.kind === "crash").length >= 24, 15_000);
    const rows = instanceRows(c.inbox).filter((r) => r.kind === "crash");
    expect(rows.map((r) => r.id).sort()).toEqual(players.map((_, place) => `crash:${gameHash}:${place}`).sort());
    expect(rows.filter((r) => r.multiplier === 2).length).toBe(20);
    expect(rows.filter((r) => r.multiplier === null && r.payout === 0).length).toBe(4);
    await c.room.leave(true);
  });

  it("folds a flood beyond what a room keeps waiting into counted entries: every round is accounted for", async () => {
    const instanceId = "inst-feeds-flood";
    const c = await listener("8300013", "Cato", instanceId);
    await warm(c.player.id, c);

    // 1,000 rounds at once: the pushes drain 80 rows a second, so most of them arrive while
    // FEED_MAX_QUEUED_ROWS already wait.
    const FLOOD = 1_000;
    for (let i = 0; i < FLOOD; i++) t.app.services.together.roundSettled(c.player.id, settled(i));
    await waitFor(() => roundsIn(instanceEntries(c.inbox)) >= FLOOD, 30_000);

    const entries = instanceEntries(c.inbox);
    expect(roundsIn(entries)).toBe(FLOOD);
    const rows = entries.filter(isRow);
    const folded = entries.filter((e) => e.kind === "folded");
    expect(folded.length).toBeGreaterThan(0);
    // The rows sent one by one are distinct rounds; what is folded is counted, never lost.
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(FEED_MAX_QUEUED_ROWS);
    expect(rows.length + folded.reduce((sum, e) => sum + (e.kind === "folded" ? e.rounds : 0), 0)).toBe(FLOOD);
    for (const push of feedPushes(c.inbox)) expect(push.instance.length).toBeLessThanOrEqual(FEED_MAX_ROWS_PER_PUSH);
    await c.room.leave(true);
  });
});
