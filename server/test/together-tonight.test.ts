import { afterAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import {
  CARD_GAME_IDS,
  CRASH_MESSAGES,
  TABLE_MESSAGES,
  TOGETHER_ROOM,
  isOwnRow,
  tonightBoardPush,
  type HistoryItem,
  type TableSnapshot,
  type TonightBoardPush,
  type TonightRow,
} from "@casino/common";
import { ManualClock } from "../src/platform/clock";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb, startTestApp, type TestApp } from "./harness";
import { CRASH_ENV, bettingRound, joinCrash, leaveAll, runToBust, startRun } from "./crash-room-helpers";
import { ask, betAndLeave, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * The tonight board of an activity instance: pushed by the together room after the members' rounds,
 * its figures those of each member's history since their first join of the day, an anonymous member
 * hidden from the others (and named once they leave anonymous mode), and the same figures after the
 * server is started again on the same database.
 */
const INSTANCE = "inst-tonight-a";
/** The shared blackjack table's timers, moved by the test's clock: a seat that does not act is stood for. */
const TURN_MS = 15_000;
const TABLE_ENV = {
  TABLE_BETTING_MS: "30000",
  TABLE_TURN_MS: String(TURN_MS),
  TABLE_SETTLED_MS: "3000",
  TABLE_LEASE_MS: "3000",
};
const clock = new ManualClock();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

/** The configuration of the first start and of the next, on this file's database and Redis. */
const ENV = { ...CRASH_ENV, ...TABLE_ENV, BET_RATE_PER_SECOND: "1000" };

interface Member {
  name: string;
  discordId: string;
  token: string;
  playerId: string;
}

async function signIn(t: TestApp, discordId: string, name: string): Promise<Member> {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${discordId}:${name}`, instanceId: INSTANCE } });
  expect(res.status).toBe(200);
  return { name, discordId, token: res.body.session_token as string, playerId: res.body.player.id as string };
}

async function joinTogether(t: TestApp, m: Member): Promise<{ room: Room; inbox: Inbox }> {
  const room = await t.sdk(m.token).joinOrCreate(TOGETHER_ROOM, { instanceId: INSTANCE });
  return { room, inbox: new Inbox(room) };
}

/** Every board pushed to the inbox, each checked against the push's schema. */
const boards = (inbox: Inbox): TonightBoardPush[] =>
  inbox.messages.filter((m) => m.type === "board").map((m) => tonightBoardPush.parse(m.body) as TonightBoardPush);
const latestBoard = (inbox: Inbox) => boards(inbox).at(-1);

/** Waits for a pushed board in which each named member (by username as this viewer sees them) has played `rounds`. */
async function boardWith(inbox: Inbox, rounds: Record<string, number>, size: number): Promise<TonightRow[]> {
  let rows: TonightRow[] = [];
  await waitFor(() => {
    rows = latestBoard(inbox)?.rows ?? [];
    return rows.length === size && Object.entries(rounds).every(([name, n]) => rows.find((r) => r.username === name)?.rounds === n);
  }, 30_000);
  return rows;
}

/** A member's rounds in the server's history (the "My bets" REST route) since `since`, oldest first. */
async function historySince(t: TestApp, m: Member, since: string): Promise<HistoryItem[]> {
  const res = await t.request("GET", `/api/player/${m.playerId}/history?kind=round&limit=100`, { token: m.token });
  expect(res.status).toBe(200);
  return (res.body.items as HistoryItem[]).filter((i) => Date.parse(i.createdAt) >= Date.parse(since)).reverse();
}

/** The board's figures computed from the history, independently of the server's SQL. */
function figuresOf(items: HistoryItem[]) {
  const net = (i: HistoryItem) => i.payout - i.betAmount;
  let streak = 0;
  for (const i of items) {
    const d = Math.sign(net(i));
    if (d === 0) continue;
    streak = Math.sign(streak) === d ? streak + d : d;
  }
  let best: HistoryItem | null = null;
  for (const i of items) if (net(i) > 0 && (!best || net(i) > net(best))) best = i;
  const params = (best?.params ?? {}) as { gameNumber?: number; shoeId?: string; round?: number };
  return {
    net: items.reduce((sum, i) => sum + net(i), 0),
    rounds: items.length,
    hands: items.filter((i) => (CARD_GAME_IDS as readonly string[]).includes(i.gameType)).length,
    streak,
    biggestWin: best && {
      game: best.gameType,
      stake: best.betAmount,
      payout: best.payout,
      net: net(best),
      verify: params.shoeId
        ? { kind: "shoe", shoeId: params.shoeId, round: params.round }
        : best.fairness.serverSeedHash !== null
          ? { kind: "round", serverSeedHash: best.fairness.serverSeedHash, nonce: best.fairness.nonce }
          : { kind: "chain", gameNumber: params.gameNumber },
    },
  };
}

/** Each member's row of the board equals what their history says since their first join today. */
async function expectBoardMatchesHistory(t: TestApp, rows: TonightRow[], members: Member[]) {
  for (const m of members) {
    const row = rows.find((r) => r.discordId === m.discordId)!;
    expect(row, m.name).toBeDefined();
    const [join] = await t.app.services.db.run((em) =>
      em.query(`SELECT joined_at FROM tonight_joins WHERE instance_id = $1 AND player_id = $2`, [INSTANCE, m.playerId]),
    );
    expect(Date.parse(row.since)).toBe(new Date(join.joined_at).getTime());
    const expected = figuresOf(await historySince(t, m, row.since));
    expect({ net: row.net, rounds: row.rounds, hands: row.hands, streak: row.streak, biggestWin: row.biggestWin }, m.name).toEqual(
      expected,
    );
  }
  // Ranked by net, best first.
  const nets = rows.map((r) => r.net);
  expect(nets).toEqual([...nets].sort((a, b) => b - a));
  expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i + 1));
}

/**
 * One round at the instance's shared blackjack table: the member sits at seat 1, bets and is ready; the
 * clock is moved past each turn (the seat is stood for) until the round is settled.
 */
async function playAtTable(t: TestApp, m: Member, amount: number) {
  const room = await t.sdk(m.token).joinOrCreate("blackjack-table", { instanceId: INSTANCE });
  const inbox = new Inbox(room);
  const snap = (): TableSnapshot => JSON.parse((room.state as { snapshot: string }).snapshot);
  await waitFor(() => (room.state as { snapshot?: string })?.snapshot, 30_000);
  expect((await ask(room, inbox, TABLE_MESSAGES.sit, { seat: 1 })).type).toBe("result");
  await waitFor(() => snap().phase === "betting", 30_000);
  expect((await ask(room, inbox, TABLE_MESSAGES.bet, { amount })).type).toBe("result");
  expect((await ask(room, inbox, TABLE_MESSAGES.ready, {})).type).toBe("result");
  await waitFor(() => (snap().view?.round ?? 0) === 1, 30_000);
  // The round is settled once its pause has begun (its deadline is shown once every seat is settled).
  const settled = () => snap().phase === "settled" && snap().deadline !== null;
  for (let steps = 0; !settled(); steps++) {
    expect(steps).toBeLessThan(50);
    const shown = JSON.stringify(snap());
    if (snap().phase !== "settled" && snap().deadline !== null) await clock.advance(TURN_MS);
    await waitFor(() => settled() || JSON.stringify(snap()) !== shown, 30_000);
  }
  await room.leave(true);
}

const play = async (t: TestApp, m: Member, bets: { game: string; amount: number; params: unknown }[]) =>
  betAndLeave(await joinCasino(t, m.token), bets);

describe.runIf(TEST_DB === "postgres")("the tonight board", () => {
  it("pushes each member's figures since their first join, equal to their history, hides the anonymous, and survives a restart", async () => {
    const database = await freshDatabaseUrl();
    cleanups.push(() => database.drop());
    const redis = await leaseRedisDb();
    cleanups.push(() => redis.release());
    const on = { databaseUrl: database.url!, redisUrl: redis.url! };
    let t = await startTestApp(ENV, { clock, on });
    cleanups.push(() => t.close());

    const alice = await signIn(t, "8400001", "Alice");
    const bob = await signIn(t, "8400002", "Bob");
    const carol = await signIn(t, "8400003", "Carol");
    const members = [alice, bob, carol];
    // Carol plays anonymously; Bob plays a round before he first opens the activity: not on his board.
    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token: carol.token, body: { playerId: carol.playerId, enabled: true } })).status,
    ).toBe(200);
    await play(t, bob, [{ game: "limbo", amount: 10, params: { target: 2 } }]);

    const a = await joinTogether(t, alice);
    const b = await joinTogether(t, bob);
    const c = await joinTogether(t, carol);
    // On joining, everyone is on the board with nothing played yet.
    const empty = await boardWith(a.inbox, { Alice: 0, Bob: 0, Anonymous: 0 }, 3);
    expect(empty.every((r) => r.net === 0 && r.streak === 0 && r.biggestWin === null)).toBe(true);

    // Rounds of solo tables (a card game among them), a seat's round at the instance's blackjack table
    // and a bet of the instance's crash round.
    await play(t, alice, [
      { game: "limbo", amount: 10, params: { target: 1.5 } },
      { game: "dice", amount: 20, params: { target: 50, direction: "over" } },
      { game: "limbo", amount: 30, params: { target: 3 } },
    ]);
    await play(t, bob, [
      { game: "baccarat", amount: 25, params: { bets: { player: 25 } } },
      { game: "baccarat", amount: 25, params: { bets: { banker: 25 } } },
      { game: "limbo", amount: 15, params: { target: 1.2 } },
    ]);
    await playAtTable(t, bob, 20);
    await play(t, carol, [
      { game: "limbo", amount: 40, params: { target: 2 } },
      { game: "dice", amount: 40, params: { target: 30, direction: "over" } },
    ]);
    const crash = await joinCrash(t, alice.token, INSTANCE);
    await bettingRound(crash.room);
    expect((await ask(crash.room, crash.inbox, CRASH_MESSAGES.bet, { amount: 40, autoCashOut: 1.5 })).type).toBe("result");
    await startRun(t, clock, crash.room);
    await runToBust(t, clock, crash.room);

    // Pushed, not asked for: every member's board catches up with the rounds.
    const aliceSees = await boardWith(a.inbox, { Alice: 4, Bob: 4, Anonymous: 2 }, 3);
    await expectBoardMatchesHistory(t, aliceSees, [alice, bob]);
    // Bob's baccarat rounds and his seat's round at the shared blackjack table are hands.
    expect(aliceSees.find((r) => r.username === "Bob")!.hands).toBe(3);
    // Carol is hidden from the others (no Discord id, avatar or verify link), herself to herself.
    const hidden = aliceSees.find((r) => r.hidden)!;
    expect(hidden).toMatchObject({ username: "Anonymous", discordId: null, avatarUrl: null });
    if (hidden.biggestWin) expect(hidden.biggestWin.verify).toBeNull();
    // Nothing in the others' board ties the row to Carol: no id of hers, nor her name, anywhere in it.
    expect(JSON.stringify(aliceSees)).not.toContain(carol.playerId);
    expect(JSON.stringify(aliceSees)).not.toContain(carol.discordId);
    expect(JSON.stringify(aliceSees)).not.toContain("Carol");
    const carolSees = await boardWith(c.inbox, { Alice: 4, Bob: 4, Carol: 2 }, 3);
    expect(carolSees.find((r) => isOwnRow(r, carol.discordId))).toMatchObject({
      username: "Carol",
      discordId: carol.discordId,
      hidden: false,
    });
    await expectBoardMatchesHistory(t, carolSees, members);
    // The others are sent one board: Bob's is Alice's, and each finds their own row in it by Discord id.
    const bobSees = await boardWith(b.inbox, { Alice: 4, Bob: 4, Anonymous: 2 }, 3);
    expect(bobSees).toEqual(aliceSees);
    expect(bobSees.filter((r) => isOwnRow(r, bob.discordId)).map((r) => r.username)).toEqual(["Bob"]);
    expect(aliceSees.filter((r) => isOwnRow(r, alice.discordId)).map((r) => r.username)).toEqual(["Alice"]);
    expect(aliceSees.filter((r) => isOwnRow(r, carol.discordId))).toEqual([]);

    // The server stops and starts again on the same database: the board is the same.
    const before = aliceSees;
    await leaveAll(t, clock, [crash.room], [`instance:${INSTANCE}`]);
    for (const r of [a, b, c]) await r.room.leave(true);
    await t.expectLedgerInvariant();
    await t.close();
    t = await startTestApp(ENV, { clock, on });
    const a2 = await joinTogether(t, alice);
    const c2 = await joinTogether(t, carol);
    const again = await boardWith(a2.inbox, { Alice: 4, Bob: 4, Anonymous: 2 }, 3);
    expect(again).toEqual(before);

    // And goes on: Carol's next round moves her figures on everyone's board.
    await play(t, carol, [{ game: "limbo", amount: 5, params: { target: 1.1 } }]);
    await boardWith(a2.inbox, { Alice: 4, Bob: 4, Anonymous: 3 }, 3);
    await expectBoardMatchesHistory(t, await boardWith(c2.inbox, { Alice: 4, Bob: 4, Carol: 3 }, 3), members);

    // Carol leaves anonymous mode: the others' board names her at once, without a round.
    const boardsBefore = boards(a2.inbox).length;
    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token: carol.token, body: { playerId: carol.playerId, enabled: false } }))
        .status,
    ).toBe(200);
    const named = await boardWith(a2.inbox, { Alice: 4, Bob: 4, Carol: 3 }, 3);
    expect(boards(a2.inbox).length).toBeGreaterThan(boardsBefore);
    expect(named.find((r) => r.username === "Carol")).toMatchObject({ hidden: false, discordId: carol.discordId });
    await expectBoardMatchesHistory(t, named, members);
    for (const r of [a2, c2]) await r.room.leave(true);
    await t.expectLedgerInvariant();
  });
});
