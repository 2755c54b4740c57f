import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { ANONYMOUS_ID_PREFIX, ANONYMOUS_NAME, SHARED_ROOM_PUSH, sha256Hex } from "@casino/common";
import { checkHoldemRecord, dealHoldemHand, holdemHandFile, recordOfFile } from "@casino/common/games/holdem/index";
import {
  HOLDEM_HAND_PAUSE_MS,
  HOLDEM_MESSAGES,
  HOLDEM_PUSH,
  HOLDEM_TABLE_CONFIG,
  type HoldemPrivateView,
  type HoldemTableSnapshot,
} from "@casino/common/holdem-table";
import { ManualClock } from "../src/platform/clock";
import { HoldemStore } from "../src/holdem/holdem-store";
import { holdemTableAccount } from "../src/holdem/holdem-money";
import { auditLedger } from "../src/ops/audit-ledger";
import { startTestApp, type TestApp } from "./harness";
import { act, balanceOf, handOver, joinTable, snap, tableHolding, toAct, type AtTable } from "./holdem-helpers";
import { ask, waitFor } from "./room-helpers";

/**
 * The Hold'em table room on PostgreSQL, driven by a ManualClock (a decision's timer, the pause between
 * hands and a dropped player's grace run out when the test advances the clock, never by waiting):
 * buying in, hands to the showdown and to a fold, an all-in with a side pot, the timer checking or
 * folding for a player, a dropped player coming back, a leaving seat whose player comes back before the
 * hand's end (still played for), refusals, hole cards kept from everyone but their owner, leaving, and
 * the restart rule. After every test the ledger audit holds: the economy sums to
 * zero and each table's holding account holds exactly the stacks of its seats.
 */
const clock = new ManualClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TABLE_LEASE_MS: "60000", BET_RATE_PER_SECOND: "1000" }, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

interface Joined extends AtTable {
  /** Every snapshot this client received, in order. */
  seen: HoldemTableSnapshot[];
  /** Every private view this client received. */
  privates: HoldemPrivateView[];
}

async function join(token: string, roomId?: string): Promise<Joined> {
  const seen: HoldemTableSnapshot[] = [];
  const privates: HoldemPrivateView[] = [];
  const joined = await joinTable(t, token, roomId, (room) => {
    room.onMessage(HOLDEM_PUSH.private, (view: HoldemPrivateView) => privates.push(view));
    room.onStateChange((state: any) => {
      if (state.snapshot && (seen.length === 0 || JSON.stringify(seen[seen.length - 1]) !== state.snapshot))
        seen.push(JSON.parse(state.snapshot));
    });
  });
  return { ...joined, seen, privates };
}

let discordIds = 6_500_000;
async function discordPlayer(instanceId: string) {
  const id = String(discordIds++);
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:holdem${id}`, instanceId } });
  expect(res.status).toBe(200);
  return { token: res.body.session_token as string, player: res.body.player as { id: string } };
}

async function guests(n: number) {
  return Promise.all(Array.from({ length: n }, () => t.guest()));
}

const sit = (j: Joined, seat: number, buyIn: number) => ask(j.room, j.inbox, HOLDEM_MESSAGES.sit, { seat, buyIn });

/** Polls the database until the table is closed, and answers how. */
async function tableClosed(tableId: string, by: "closed" | "restart") {
  for (let tries = 0; ; tries++) {
    const [row] = await t.sql(`SELECT closed_by FROM holdem_tables WHERE id = $1`, [tableId]);
    if (row.closed_by !== null) return expect(row.closed_by).toBe(by);
    expect(tries).toBeLessThan(200);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Moves the clock to the deadline of the decision in progress (its time bank included): the table acts for the seat. */
const runOutTheClock = async (j: Joined) => clock.advance(snap(j).hand!.deadline! - clock.now());

/** The hand re-dealt from its revealed record, with the outcome the table recorded compared. */
function verified(s: HoldemTableSnapshot) {
  const file = holdemHandFile.parse(s.previousHand);
  const dealt = dealHoldemHand(recordOfFile(file));
  expect(dealt.commitment.matches).toBe(true);
  expect(checkHoldemRecord(dealt, file.outcome!)).toEqual([]);
  return dealt;
}

/** The stacks of the seats at the table as the database holds them, by seat. */
async function dbStacks(tableId: string): Promise<Record<number, number>> {
  const rows = await t.sql(`SELECT seat, stack FROM holdem_seats WHERE table_id = $1 AND left_at IS NULL ORDER BY seat`, [tableId]);
  return Object.fromEntries(rows.map((r) => [r.seat, Number(r.stack)]));
}

describe("an activity instance's table", () => {
  it("is one table for the instance's members; another instance's player and a guest can neither join nor watch it", async () => {
    const instanceId = `holdem-inst-${Date.now()}`;
    const [m1, m2] = await Promise.all([discordPlayer(instanceId), discordPlayer(instanceId)]);
    const outsider = await discordPlayer(`other-${instanceId}`);
    const [guest] = await guests(1);
    const first = await t.sdk(m1.token).joinOrCreate("holdem-table", { instanceId });
    const second = await t.sdk(m2.token).joinOrCreate("holdem-table", { instanceId });
    expect(second.roomId).toBe(first.roomId);
    await expect(t.sdk(outsider.token).joinOrCreate("holdem-table", { instanceId })).rejects.toThrow(
      /You have not joined that activity instance/,
    );
    await expect(t.sdk(outsider.token).joinById(first.roomId, { instanceId: `other-${instanceId}` })).rejects.toThrow(
      /another activity instance/,
    );
    await expect(t.sdk(guest!.token).joinOrCreate("holdem-table", { instanceId })).rejects.toThrow(/Guests play at the public tables/);
    await expect(t.sdk(guest!.token).joinOrCreate("holdem-table", { instanceId: null, freeSeat: true, extra: 1 })).rejects.toThrow();
    await Promise.all([first.leave(), second.leave()]);
  });
});

describe("two players at a public table", () => {
  let p1: Joined, p2: Joined, watcher: Joined;
  let ids: string[];
  let tableId: string;
  /** The request id of seat 1's buy-in. */
  let firstBuyIn: string;

  it("buy in: the coins go from the balance to the table, and the first hand is dealt from a seed committed before it", async () => {
    const [g1, g2, gw] = await guests(3);
    ids = [g1!.player.id, g2!.player.id];
    p1 = await join(g1!.token);
    p2 = await join(g2!.token, p1.room.roomId);
    watcher = await join(gw!.token, p1.room.roomId);
    tableId = snap(p1).tableId;
    await waitFor(() => snap(p1).watchers === 3);
    // The public tables are listed for a guest to pick one (the instance's table only for its members).
    const listed = await t.request("GET", "/api/holdem-tables", { token: gw!.token });
    expect(listed.status).toBe(200);
    expect(listed.body.tables).toContainEqual(
      expect.objectContaining({ roomId: p1.room.roomId, instanceId: null, seated: 0, freeSeats: 8, watchers: 3 }),
    );
    expect((await t.request("GET", "/api/holdem-tables?instanceId=elsewhere", { token: gw!.token })).status).toBe(403);
    expect(snap(p1)).toMatchObject({ phase: "waiting", seats: [], hand: null });

    const first = await sit(p1, 1, 200);
    expect(first).toMatchObject({ type: "result", body: { type: HOLDEM_MESSAGES.sit, seat: 1, stack: 200, balance: 800 } });
    firstBuyIn = first.body.requestId;
    await waitFor(() => snap(watcher).seats.length === 1);
    const committed = snap(watcher).nextServerSeedHash;
    expect(committed).toMatch(/^[0-9a-f]{64}$/);
    expect((await sit(p2, 3, 100)).body).toMatchObject({ seat: 3, stack: 100, balance: 900 });
    expect(await balanceOf(t.sql, ids[1]!)).toBe(900);
    expect(await tableHolding(t.sql, tableId)).toBe(300);
    // The first hand waits a pause for more players to sit down.
    await waitFor(() => snap(watcher).nextHandAt !== null);
    expect(snap(watcher).hand).toBeNull();
    await clock.advance(HOLDEM_HAND_PAUSE_MS);

    // Heads-up the button (seat 1, the first seat at a new table) posts the small blind and acts first.
    await toAct(watcher, 1, 1);
    const hand = snap(watcher).hand!;
    expect(hand).toMatchObject({ button: 1, smallBlindSeat: 1, bigBlindSeat: 3, pot: 3, serverSeedHash: committed });
    expect(snap(watcher).nextServerSeedHash).not.toBe(committed);
  });

  it("a hand checked down to the showdown: chips conserved, stacks written, the seed revealed and the hand re-dealt", async () => {
    expect((await act(p1, { type: "call" })).type).toBe("result");
    await toAct(p1, 1, 3);
    expect((await act(p2, { type: "check" })).type).toBe("result");
    // Flop, turn and river: the big blind (seat 3) acts first after the flop heads-up.
    for (const street of ["flop", "turn", "river"]) {
      await waitFor(() => snap(p1).hand?.phase === street && snap(p1).hand?.toAct === 3, 10_000);
      await act(p2, { type: "check" });
      await toAct(p1, 1, 1);
      await act(p1, { type: "check" });
    }
    await handOver(watcher, 1);
    const s = snap(watcher);
    expect(s.hand!.result!.showdown).toBe(true);
    const stacks = s.previousHand!.outcome.stacks;
    expect(stacks.reduce((sum, x) => sum + x.stack, 0)).toBe(300);
    expect(await dbStacks(tableId)).toEqual(Object.fromEntries(stacks.map((x) => [x.seat, x.stack])));
    expect(s.seats.map((x) => x.stack)).toEqual(stacks.map((x) => x.stack));
    expect(sha256Hex(s.previousHand!.serverSeed)).toBe(s.previousHand!.serverSeedHash);
    const dealt = verified(s);
    expect(dealt.result.stacks).toEqual(stacks);
    // Each player was sent their own hole cards, the ones the revealed deck deals them.
    expect(p1.privates.find((v) => v.handNumber === 1 && v.hole)!.hole).toEqual(dealt.hole.find((h) => h.seat === 1)!.cards);
    expect(p2.privates.find((v) => v.handNumber === 1 && v.hole)!.hole).toEqual(dealt.hole.find((h) => h.seat === 3)!.cards);
  });

  it("no hole card reaches another seat or a watcher before the showdown", async () => {
    for (const [who, own] of [
      [watcher, null],
      [p2, 3],
      [p1, 1],
    ] as const) {
      for (const s of who.seen) {
        if (!s.hand) continue;
        for (const seat of s.hand.seats) {
          // Only the hands turned up at the showdown are in the shared state, and only once it is over.
          if (s.hand.phase !== "complete") expect(seat.hole).toBeNull();
          else if (seat.hole) expect(s.hand.result!.shown.map((x) => x.seat)).toContain(seat.seat);
        }
      }
      for (const view of who.privates) expect(view.seat).toBe(own);
    }
    expect(watcher.privates).toEqual([]);
  });

  it("a fold to a raise: the raiser takes the blinds and the uncalled part comes back", async () => {
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    // Hand 2: the button moves to seat 3, which posts the small blind and acts first.
    await toAct(p2, 2, 3);
    const before = await dbStacks(tableId);
    expect(snap(p2).hand).toMatchObject({ button: 3, smallBlindSeat: 3, bigBlindSeat: 1 });
    expect(p2.privates.at(-1)!.legal).toMatchObject({ seat: 3, call: 1, raise: { min: 4 } });
    expect((await act(p2, { type: "raise", amount: 6 })).type).toBe("result");
    await toAct(p1, 2, 1);
    await act(p1, { type: "fold" });
    await handOver(p1, 2);
    const result = snap(p1).hand!.result!;
    expect(result).toMatchObject({ showdown: false, uncalled: { seat: 3, amount: 4 }, shown: [] });
    expect(await dbStacks(tableId)).toEqual({ 1: before[1]! - 2, 3: before[3]! + 2 });
    verified(snap(p1));
  });

  it("the timer folds a player facing a bet, and checks for one who may check", async () => {
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    // Hand 3: seat 1 (button, small blind) lets its time run out facing the big blind: folded.
    await toAct(p1, 3, 1);
    const before = await dbStacks(tableId);
    await runOutTheClock(p1);
    await handOver(p1, 3);
    expect(await dbStacks(tableId)).toEqual({ 1: before[1]! - 1, 3: before[3]! + 1 });
    // Hand 4: seat 3 calls, seat 1 (big blind) lets its time run out: checked, and the flop comes.
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(p1, 4, 3);
    await act(p2, { type: "call" });
    await toAct(p1, 4, 1);
    await runOutTheClock(p1);
    await waitFor(() => snap(p1).hand?.phase === "flop", 10_000);
    // The rest is folded by seat 3.
    await toAct(p1, 4, 1);
    await act(p1, { type: "bet", amount: 2 });
    await toAct(p1, 4, 3);
    await act(p2, { type: "fold" });
    await handOver(p1, 4);
    const [hand3, hand4] = await t.sql(
      `SELECT actions FROM holdem_hands WHERE table_id = $1 AND hand_number IN (3, 4) ORDER BY hand_number`,
      [tableId],
    );
    expect(hand3.actions).toEqual([{ seat: 1, street: "preflop", action: { type: "fold" }, auto: "timeout" }]);
    expect(hand4.actions[1]).toEqual({ seat: 1, street: "preflop", action: { type: "check" }, auto: "timeout" });
  });

  it("a player who drops is checked or folded at once, keeps the seat, and plays on after coming back within the grace", async () => {
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    // Hand 5: seat 1 (button, small blind) raises; seat 3 drops on its turn: folded at once, no timer.
    await toAct(p1, 5, 1);
    await act(p1, { type: "raise", amount: 6 });
    await toAct(p1, 5, 3);
    p2.room.reconnection.minUptime = 0;
    p2.room.reconnection.delay = 50;
    p2.room.reconnection.minDelay = 50;
    const back = new Promise<void>((resolve) => p2.room.onReconnect.once(() => resolve()));
    (p2.room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await handOver(watcher, 5);
    const away = await t.sql(`SELECT actions FROM holdem_hands WHERE table_id = $1 AND hand_number = 5`, [tableId]);
    expect(away[0].actions[1]).toEqual({ seat: 3, street: "preflop", action: { type: "fold" }, auto: "away" });
    await back;
    await waitFor(() => snap(watcher).seats.find((s) => s.seat === 3)?.connected === true, 10_000);
    expect(snap(watcher).seats.find((s) => s.seat === 3)).toMatchObject({ graceUntil: null, leaving: false });
    // Hand 6: back in the seat, the player acts again (and is sent the hand's cards on the new connection).
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(p2, 6, 3);
    await waitFor(() => p2.privates.some((v) => v.handNumber === 6 && v.hole?.length === 2));
    await act(p2, { type: "fold" });
    await handOver(p2, 6);
  });

  it("bad messages are refused with a precise reason and change nothing", async () => {
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(p2, 7, 1);
    const shown = JSON.stringify({ ...snap(watcher), serverTime: 0 });
    /** Sends a body (with a fresh request id unless it brings its own) and answers the error it gets back. */
    const refused = async (j: Joined, type: string, body: unknown) => {
      const sent =
        typeof body === "object" && body !== null ? { requestId: `req-bad-${Math.random().toString(36).slice(2)}`, ...body } : body;
      const requestId =
        typeof (sent as { requestId?: unknown })?.requestId === "string" ? (sent as { requestId: string }).requestId : undefined;
      j.room.send(type, sent);
      const m = await j.inbox.wait((x) => (x.type === "result" || x.type === "error") && x.body?.requestId === requestId);
      j.inbox.messages.splice(j.inbox.messages.indexOf(m), 1);
      return m.body;
    };
    expect(await refused(p1, HOLDEM_MESSAGES.act, "fold")).toMatchObject({ code: "invalid_message" });
    expect(await refused(p1, HOLDEM_MESSAGES.act, { action: { type: "shove" } })).toMatchObject({ code: "invalid_message" });
    expect(await refused(p1, HOLDEM_MESSAGES.act, { action: { type: "fold" }, extra: 1 })).toMatchObject({ code: "invalid_message" });
    expect(await refused(p1, HOLDEM_MESSAGES.act, { action: { type: "raise", amount: 3 } })).toMatchObject({
      code: "illegal_action",
      message: `A raise must bring your bet to between 4 and ${snap(watcher).seats.find((s) => s.seat === 1)!.stack}`,
    });
    expect(await refused(p1, HOLDEM_MESSAGES.act, { action: { type: "check" } })).toMatchObject({
      code: "illegal_action",
      message: "There is a bet to call",
    });
    expect(await refused(p2, HOLDEM_MESSAGES.act, { action: { type: "check" } })).toMatchObject({
      code: "not_your_turn",
      message: "It is not your turn",
    });
    expect(await refused(watcher, HOLDEM_MESSAGES.act, { action: { type: "fold" } })).toMatchObject({
      code: "not_seated",
      message: "You have no seat at this table",
    });
    expect(await refused(watcher, HOLDEM_MESSAGES.sit, { seat: 9, buyIn: 100 })).toMatchObject({
      code: "invalid_message",
      message: "seat: seat must be from 1 to 8",
    });
    expect(await refused(watcher, HOLDEM_MESSAGES.sit, { seat: 2, buyIn: 79 })).toMatchObject({
      code: "invalid_message",
      message: "buyIn: the buy-in is from 80 to 400 coins",
    });
    expect(await refused(watcher, HOLDEM_MESSAGES.sit, { seat: 2, buyIn: 100.5 })).toMatchObject({ code: "invalid_message" });
    expect(await refused(watcher, HOLDEM_MESSAGES.sit, { seat: 1, buyIn: 100 })).toMatchObject({
      code: "seat_taken",
      message: "Seat 1 is taken",
    });
    expect(await refused(p1, HOLDEM_MESSAGES.sit, { seat: 2, buyIn: 100 })).toMatchObject({
      code: "already_seated",
      message: "You already sit at seat 1",
    });
    expect(await refused(p1, HOLDEM_MESSAGES.comeBack, {})).toMatchObject({ code: "not_sitting_out" });
    // Every message type with bodies of every wrong shape, from the watcher: each answered with an error.
    const shapes: unknown[] = [
      {},
      { seat: "1", buyIn: 100 },
      { seat: 1.5, buyIn: 100 },
      { seat: 0, buyIn: 100 },
      { seat: 2, buyIn: -5 },
      { seat: 2, buyIn: 1e20 },
      { seat: 2, buyIn: null },
      { action: null },
      { action: { type: "bet" } },
      { action: { type: "bet", amount: -1 } },
      { action: { type: "raise", amount: "10" } },
      { action: [{ type: "fold" }] },
      { postNow: "yes" },
      { requestId: 5 },
      { requestId: "short" },
      { seat: 2, buyIn: 100, extra: true },
      { action: { type: "fold" }, postNow: true },
    ];
    for (const type of Object.values(HOLDEM_MESSAGES))
      for (const body of shapes) {
        const answer = await refused(watcher, type, body);
        expect(answer.code, `${type} ${JSON.stringify(body)}`).toMatch(/^(invalid_message|not_seated)$/);
      }
    // Nothing changed, and the hand goes on.
    expect(JSON.stringify({ ...snap(watcher), serverTime: 0 })).toBe(shown);
    await act(p1, { type: "fold" });
    await handOver(watcher, 7);
  });

  it("leaving returns the stack to the balance; a leave during a hand waits for it to end", async () => {
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(p1, 8, 3);
    await act(p2, { type: "raise", amount: 6 });
    await toAct(p1, 8, 1);
    // Seat 1 leaves during the hand: folded for, then cashed out once the hand is over.
    const leaving = await ask(p1.room, p1.inbox, HOLDEM_MESSAGES.leave, {});
    expect(leaving.body).toMatchObject({ type: HOLDEM_MESSAGES.leave, seat: 1, stack: null, balance: null });
    await waitFor(() => !snap(watcher).seats.some((s) => s.seat === 1), 10_000);
    const [cashOut1] = await t.sql(`SELECT cashed_out FROM holdem_seats WHERE table_id = $1 AND seat = 1`, [tableId]);
    expect(await balanceOf(t.sql, ids[0]!)).toBe(800 + Number(cashOut1.cashed_out));
    // Seat 3 leaves between hands: cashed out at once.
    const stack3 = (await dbStacks(tableId))[3]!;
    const left = await ask(p2.room, p2.inbox, HOLDEM_MESSAGES.leave, {});
    expect(left.body).toMatchObject({ seat: 3, stack: stack3, balance: 900 + stack3 });
    expect(await balanceOf(t.sql, ids[1]!)).toBe(900 + stack3);
    // What the two players hold again is what they brought: nobody paid the house.
    expect((await balanceOf(t.sql, ids[0]!)) + (await balanceOf(t.sql, ids[1]!))).toBe(2000);
    expect(await tableHolding(t.sql, tableId)).toBe(0);
    // The first buy-in's request again, after its seat was left: answered before, it seats nobody now.
    const balance = await balanceOf(t.sql, ids[0]!);
    p1.inbox.messages.splice(0, p1.inbox.messages.length);
    const repeated = await ask(p1.room, p1.inbox, HOLDEM_MESSAGES.sit, { seat: 1, buyIn: 200, requestId: firstBuyIn });
    expect(repeated.body).toMatchObject({ code: "request_answered" });
    expect(await balanceOf(t.sql, ids[0]!)).toBe(balance);
    await waitFor(() => snap(p1).seats.length === 0, 10_000);
    await Promise.all([p1.room.leave(), p2.room.leave(), watcher.room.leave()]);
    // Nobody seated and nobody here: the room closes its table.
    await tableClosed(tableId, "closed");
  });
});

describe("three players all-in", () => {
  it("builds a side pot: the main pot for all three, the side pot for the two deeper stacks, every chip accounted for", async () => {
    const gs = await guests(3);
    const a = await join(gs[0]!.token);
    const b = await join(gs[1]!.token, a.room.roomId);
    const c = await join(gs[2]!.token, a.room.roomId);
    const tableId = snap(a).tableId;
    await sit(a, 1, 80);
    await sit(b, 2, 120);
    await sit(c, 3, 200);
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    // Button seat 1, small blind seat 2, big blind seat 3: seat 1 acts first.
    await toAct(c, 1, 1);
    await act(a, { type: "allIn" });
    await toAct(c, 1, 2);
    await act(b, { type: "allIn" });
    await toAct(c, 1, 3);
    await act(c, { type: "call" });
    await handOver(c, 1);
    const result = snap(c).hand!.result!;
    expect(result.pots.map((p) => ({ amount: p.amount, eligible: p.eligible }))).toEqual([
      { amount: 240, eligible: [1, 2, 3] },
      { amount: 80, eligible: [2, 3] },
    ]);
    // Every hand is turned up when a player is all-in.
    expect(result.shown).toHaveLength(3);
    const stacks = await dbStacks(tableId);
    expect(Object.values(stacks).reduce((x, y) => x + y, 0)).toBe(400);
    expect(stacks).toEqual(Object.fromEntries(result.stacks.map((s) => [s.seat, s.stack])));
    verified(snap(c));
    for (const j of [a, b, c]) await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {});
    const balances = await Promise.all(gs.map((g) => balanceOf(t.sql, g!.player.id)));
    expect(balances.reduce((x, y) => x + y, 0)).toBe(3000);
    await Promise.all([a, b, c].map((j) => j.room.leave()));
  });
});

describe("sitting out and coming back", () => {
  it("a player sitting out is dealt nothing; back, they wait for the big blind and are dealt in with it", async () => {
    const gs = await guests(3);
    const first = await join(gs[0]!.token);
    const players = [first, await join(gs[1]!.token, first.room.roomId), await join(gs[2]!.token, first.room.roomId)];
    const back = players[2]!;
    for (const [i, j] of players.entries()) await sit(j, i + 1, 100);
    expect((await ask(back.room, back.inbox, HOLDEM_MESSAGES.sitOut, {})).body).toMatchObject({ seat: 3 });
    await waitFor(() => snap(first).seats.find((s) => s.seat === 3)?.status === "sittingOut");
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await waitFor(() => snap(first).hand?.handNumber === 1, 10_000);
    expect(snap(first).hand!.seats.map((s) => s.seat)).toEqual([1, 2]);
    expect(back.privates.filter((v) => v.hole)).toEqual([]);
    expect((await ask(back.room, back.inbox, HOLDEM_MESSAGES.comeBack, {})).type).toBe("result");
    await waitFor(() => snap(first).seats.find((s) => s.seat === 3)?.status === "waiting");
    // Hands are folded by whoever is to act until seat 3 is dealt in: as the big blind.
    for (let n = 1; !snap(first).hand?.seats.some((s) => s.seat === 3); n++) {
      expect(n).toBeLessThan(5);
      await act(players[snap(first).hand!.toAct! - 1]!, { type: "fold" });
      await handOver(first, n);
      await clock.advance(HOLDEM_HAND_PAUSE_MS);
      await waitFor(() => snap(first).hand?.handNumber === n + 1, 10_000);
    }
    expect(snap(first).hand!.bigBlindSeat).toBe(3);
    const dealtIn = snap(first).hand!.handNumber;
    await waitFor(() => back.privates.some((v) => v.handNumber === dealtIn && v.hole?.length === 2));
    for (const j of players) await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {});
    await waitFor(() => snap(first).seats.length === 0, 10_000);
    await Promise.all(players.map((j) => j.room.leave()));
  });
});

describe("an anonymous player at the table", () => {
  it("plays under a stand-in: the other player's table and hand never carry their id; anonymous mode switched while seated shows at once", async () => {
    const [shy, other] = await guests(2);
    const anonymous = (enabled: boolean) =>
      t.request("PATCH", "/api/player/anonymous", { token: shy!.token, body: { playerId: shy!.player.id, enabled } });
    expect((await anonymous(true)).status).toBe(200);
    const a = await join(shy!.token);
    const b = await join(other!.token, a.room.roomId);
    const selfOf = (j: Joined) =>
      j.inbox.messages.filter((m) => m.type === SHARED_ROOM_PUSH.self).at(-1)?.body.playerId as string | undefined;
    await waitFor(() => selfOf(a) && selfOf(b));
    const standIn = selfOf(a)!;
    expect(standIn).toMatch(new RegExp(`^${ANONYMOUS_ID_PREFIX}[A-Za-z0-9_-]{22}$`));
    expect(selfOf(b)).toBe(other!.player.id);
    await sit(a, 1, 100);
    await sit(b, 3, 100);
    await waitFor(() => snap(b).seats.length === 2);
    expect(snap(b).seats.find((x) => x.seat === 1)).toMatchObject({
      playerId: standIn,
      username: ANONYMOUS_NAME,
      avatarUrl: null,
      face: null,
    });
    // A hand: the anonymous player (the button, first to act) finds their seat by the id they were told, and plays.
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(b, 1, 1);
    expect(snap(a).hand!.seats.find((x) => x.playerId === selfOf(a))?.seat).toBe(1);
    expect((await act(a, { type: "call" })).type).toBe("result");
    await toAct(b, 1, 3);
    expect((await act(b, { type: "fold" })).type).toBe("result");
    await handOver(b, 1);
    // The revealed hand, with the stand-in in its record, still re-deals.
    expect(snap(b).previousHand!.start.seats.find((x) => x.seat === 1)?.playerId).toBe(standIn);
    verified(snap(b));
    // Nor does the hand's public record name them: it still re-deals.
    const record = await t.request("GET", `/api/holdem-hands/${snap(b).previousHand!.handId}`);
    expect(record.status).toBe(200);
    expect(JSON.stringify(record.body)).not.toContain(shy!.player.id);
    expect(JSON.stringify(record.body)).not.toContain(other!.player.id);
    verified({ ...snap(b), previousHand: { ...record.body, outcome: snap(b).previousHand!.outcome } });
    // Everything the other player received while the player was anonymous: the id nowhere.
    expect(b.seen.length).toBeGreaterThan(3);
    expect(JSON.stringify(b.seen)).not.toContain(shy!.player.id);
    expect(JSON.stringify([b.inbox.messages, b.privates])).not.toContain(shy!.player.id);
    // Anonymous mode off while seated: the seat shows the name under the player's id, and the connection is told.
    expect((await anonymous(false)).status).toBe(200);
    await waitFor(() => snap(b).seats.find((x) => x.seat === 1)?.playerId === shy!.player.id && selfOf(a) === shy!.player.id);
    expect(snap(b).seats.find((x) => x.seat === 1)?.username).toBe(shy!.player.username);
    // And on again: the same stand-in today, everywhere on the table.
    expect((await anonymous(true)).status).toBe(200);
    await waitFor(() => snap(b).seats.find((x) => x.seat === 1)?.playerId === standIn && selfOf(a) === standIn);
    expect(JSON.stringify(snap(b))).not.toContain(shy!.player.id);
    for (const j of [a, b]) await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {});
    await waitFor(() => snap(a).seats.length === 0, 10_000);
    await Promise.all([a, b].map((j) => j.room.leave()));
  });
});

describe("a hand whose result cannot be written", () => {
  it("is void: the stacks stay as they were before it, in the database and at the table, and the next hand is dealt", async () => {
    const [g1, g2] = await guests(2);
    const p1 = await join(g1!.token);
    const p2 = await join(g2!.token, p1.room.roomId);
    const tableId = snap(p1).tableId;
    await sit(p1, 2, 120);
    await sit(p2, 7, 160);
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(p1, 1, 2);
    const money = t.app.services.ledger.holdem;
    const settleHand = money.settleHand;
    money.settleHand = async () => {
      throw new Error("the database refused the hand's result");
    };
    try {
      await act(p1, { type: "raise", amount: 10 });
      await toAct(p1, 1, 7);
      await act(p2, { type: "fold" });
      await waitFor(() => snap(p1).phase === "pause", 10_000);
    } finally {
      money.settleHand = settleHand;
    }
    expect(snap(p1).hand).toBeNull();
    expect(snap(p1).seats.map((s) => s.stack)).toEqual([120, 160]);
    expect(await dbStacks(tableId)).toEqual({ 2: 120, 7: 160 });
    expect((await t.sql(`SELECT phase FROM holdem_hands WHERE table_id = $1`, [tableId])).map((r) => r.phase)).toEqual(["void"]);
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await waitFor(() => snap(p1).hand?.handNumber === 2, 10_000);
    // Both leave during hand 2: it is played out for them, then both are cashed out.
    for (const j of [p1, p2]) await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {});
    await waitFor(() => snap(p1).seats.length === 0, 10_000);
    expect((await balanceOf(t.sql, g1!.player.id)) + (await balanceOf(t.sql, g2!.player.id))).toBe(2000);
    await Promise.all([p1.room.leave(), p2.room.leave()]);
  });
});

describe("a dropped player's grace", () => {
  it("runs on the table's clock: played for meanwhile, then the seat is left and its stack cashed out", async () => {
    const [g1, g2] = await guests(2);
    const p1 = await join(g1!.token);
    const p2 = await join(g2!.token, p1.room.roomId);
    await sit(p1, 4, 150);
    await sit(p2, 6, 150);
    p2.room.reconnection.enabled = false;
    (p2.room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await waitFor(() => snap(p1).seats.find((s) => s.seat === 6)?.connected === false, 10_000);
    expect(snap(p1).seats.find((s) => s.seat === 6)!.graceUntil).toBe(clock.now() + HOLDEM_TABLE_CONFIG.graceMs);
    // Hands go on meanwhile (seat 6 checked or folded at once, seat 4 by its timer), until the grace runs out.
    // Each step moves the clock to the table's next deadline (a decision, the next hand, the grace) and
    // waits for the table to show what it did.
    for (let steps = 0; snap(p1).seats.some((s) => s.seat === 6); steps++) {
      expect(steps).toBeLessThan(40);
      const s = snap(p1);
      const deadlines = [s.hand?.deadline, s.nextHandAt, s.seats.find((x) => x.seat === 6)?.graceUntil];
      const next = Math.min(...deadlines.filter((x): x is number => typeof x === "number"));
      const shown = JSON.stringify(s);
      if (Number.isFinite(next)) await clock.advance(Math.max(0, next - clock.now()));
      await waitFor(() => JSON.stringify(snap(p1)) !== shown, 10_000);
    }
    const [row] = await t.sql(`SELECT cashed_out FROM holdem_seats WHERE table_id = $1 AND seat = 6`, [snap(p1).tableId]);
    expect(await balanceOf(t.sql, g2!.player.id)).toBe(850 + Number(row.cashed_out));
    await ask(p1.room, p1.inbox, HOLDEM_MESSAGES.leave, {});
    expect((await balanceOf(t.sql, g1!.player.id)) + (await balanceOf(t.sql, g2!.player.id))).toBe(2000);
    await p1.room.leave();
  });
});

describe("a seat leaving during a hand", () => {
  it("stays away in the hand when its player comes back on a new connection: played for at once, then cashed out", async () => {
    const [g1, g2, g3] = await guests(3);
    const p1 = await join(g1!.token);
    const p2 = await join(g2!.token, p1.room.roomId);
    const p3 = await join(g3!.token, p1.room.roomId);
    for (const [i, j] of [p1, p2, p3].entries()) await sit(j, i + 1, 100);
    const tableId = snap(p1).tableId;
    const n = (snap(p1).previousHand?.start.handNumber ?? 0) + 1;
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    // Seat 1 (the button) is to act; seat 3, the big blind, leaves, then its connection drops.
    await toAct(p1, n, 1);
    expect((await ask(p3.room, p3.inbox, HOLDEM_MESSAGES.leave, {})).body).toMatchObject({ seat: 3, stack: null });
    p3.room.reconnection.enabled = false;
    (p3.room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await waitFor(() => snap(p1).seats.find((s) => s.seat === 3)?.connected === false, 10_000);
    // Its player opens the table again (another tab) while the hand is still being played.
    const back = await join(g3!.token, p1.room.roomId);
    await waitFor(() => snap(p1).seats.find((s) => s.seat === 3)?.connected === true, 10_000);
    expect(snap(p1).seats.find((s) => s.seat === 3)).toMatchObject({ leaving: true });
    // The seat asked to leave: when its turn comes the table checks for it at once, nobody waits for its timer.
    const at = clock.now();
    await act(p1, { type: "call" });
    await act(p2, { type: "call" });
    await waitFor(() => snap(p1).hand?.phase === "flop", 10_000);
    expect(snap(p1).hand!.toAct).toBe(2);
    expect(clock.now()).toBe(at);
    await act(p2, { type: "check" });
    await toAct(p1, n, 1);
    await act(p1, { type: "check" });
    // The hand is played to its end (seat 3 checked through), then the seat is cashed out.
    for (let street = 0; snap(p1).hand?.phase !== "complete"; street++) {
      expect(street).toBeLessThan(3);
      await waitFor(() => snap(p1).hand?.toAct === 2 || snap(p1).hand?.phase === "complete", 10_000);
      if (snap(p1).hand?.phase === "complete") break;
      await act(p2, { type: "check" });
      await toAct(p1, n, 1);
      await act(p1, { type: "check" });
    }
    await waitFor(() => !snap(p1).seats.some((s) => s.seat === 3), 10_000);
    const [record] = await t.sql(`SELECT actions FROM holdem_hands WHERE table_id = $1 AND hand_number = $2`, [tableId, n]);
    expect(record.actions.filter((a: { seat: number }) => a.seat === 3)).toEqual([
      { seat: 3, street: "preflop", action: { type: "check" }, auto: "away" },
      { seat: 3, street: "flop", action: { type: "check" }, auto: "away" },
      { seat: 3, street: "turn", action: { type: "check" }, auto: "away" },
      { seat: 3, street: "river", action: { type: "check" }, auto: "away" },
    ]);
    const [seat3] = await t.sql(`SELECT cashed_out FROM holdem_seats WHERE table_id = $1 AND seat = 3`, [tableId]);
    expect(await balanceOf(t.sql, g3!.player.id)).toBe(900 + Number(seat3.cashed_out));
    for (const j of [p1, p2]) await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {});
    await Promise.all([p1.room.leave(), p2.room.leave(), back.room.leave()]);
  });
});

describe("the restart rule", () => {
  it("a table closing mid-hand: every bet of the hand back in its stack, every stack back to its player", async () => {
    const [g1, g2] = await guests(2);
    const p1 = await join(g1!.token);
    const p2 = await join(g2!.token, p1.room.roomId);
    const tableId = snap(p1).tableId;
    await sit(p1, 1, 300);
    await sit(p2, 2, 200);
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(p1, 1, 1);
    await act(p1, { type: "raise", amount: 40 });
    await toAct(p1, 1, 2);
    expect(snap(p1).hand!.pot).toBe(42);
    // The process closes the table with the hand unfinished (as a shutdown does).
    await matchMaker.getLocalRoomById(p1.room.roomId)!.disconnect();
    await tableClosed(tableId, "closed");
    expect((await t.sql(`SELECT phase FROM holdem_hands WHERE table_id = $1`, [tableId])).map((r) => r.phase)).toEqual(["void"]);
    expect(await balanceOf(t.sql, g1!.player.id)).toBe(1000);
    expect(await balanceOf(t.sql, g2!.player.id)).toBe(1000);
  });

  it("a table whose process stopped mid-hand: the hand is void, every stack as before it goes back to its player, the table closes", async () => {
    const s = t.app.services;
    // Tables of another process, which stops renewing their leases.
    const gone = new HoldemStore(s.db, s.ledger.holdem, 60_000);
    const tableId = await gone.openTable("public");
    const [g1, g2] = await guests(2);
    await s.ledger.holdem.buyIn(g1!.player.id, "req-restart-buy-in-1", { tableId, seat: 2, amount: 400 });
    await s.ledger.holdem.buyIn(g2!.player.id, "req-restart-buy-in-2", { tableId, seat: 5, amount: 150 });
    // The same request again is answered as before and moves nothing.
    const again = await s.ledger.holdem.buyIn(g1!.player.id, "req-restart-buy-in-1", { tableId, seat: 2, amount: 400 });
    expect(again).toMatchObject({ replayed: true, seat: 2, stack: 400, balance: 600 });
    expect(await balanceOf(t.sql, g1!.player.id)).toBe(600);
    // A second buy-in of 400 at another table leaves 200: a third is refused.
    const other = await gone.openTable("public");
    await s.ledger.holdem.buyIn(g1!.player.id, "req-restart-buy-in-3", { tableId: other, seat: 1, amount: 400 });
    await expect(
      s.ledger.holdem.buyIn(g1!.player.id, "req-restart-buy-in-4", { tableId: other, seat: 3, amount: 100 }),
    ).rejects.toMatchObject({
      code: "seat_taken",
    });
    const third = await gone.openTable("public");
    await expect(
      s.ledger.holdem.buyIn(g1!.player.id, "req-restart-buy-in-5", { tableId: third, seat: 1, amount: 400 }),
    ).rejects.toMatchObject({
      code: "insufficient_funds",
    });
    const handId = await gone.openHand(tableId, "restart-seed", [], {
      handNumber: 1,
      config: HOLDEM_TABLE_CONFIG,
      button: 2,
      smallBlindSeat: 2,
      bigBlindSeat: 5,
      seats: [],
    });
    // The audit sees a stack that is not in its table's account (and the repair).
    await t.sql(`UPDATE holdem_seats SET stack = stack + 1 WHERE table_id = $1 AND seat = 5 AND left_at IS NULL`, [tableId]);
    expect((await auditLedger(s.db)).holdingMismatches).toEqual([{ account: holdemTableAccount(tableId), balance: 550, openStakes: 551 }]);
    await t.sql(`UPDATE holdem_seats SET stack = stack - 1 WHERE table_id = $1 AND seat = 5 AND left_at IS NULL`, [tableId]);
    // While the lease runs the table is left alone; once it has run out (the process stopped), it is settled.
    await s.holdem.recoverStale();
    expect((await t.sql(`SELECT closed_at FROM holdem_tables WHERE id = $1`, [tableId]))[0].closed_at).toBeNull();
    await t.sql(`UPDATE holdem_tables SET lease_until = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [[tableId, other, third]]);
    await s.holdem.recoverStale();
    const [hand] = await t.sql(`SELECT phase FROM holdem_hands WHERE id = $1`, [handId]);
    expect(hand.phase).toBe("void");
    const seats = await t.sql(`SELECT seat, cashed_out, left_at FROM holdem_seats WHERE table_id = $1 ORDER BY seat`, [tableId]);
    expect(seats.map((r) => [r.seat, Number(r.cashed_out), r.left_at !== null])).toEqual([
      [2, 400, true],
      [5, 150, true],
    ]);
    expect(await balanceOf(t.sql, g1!.player.id)).toBe(1000);
    expect(await balanceOf(t.sql, g2!.player.id)).toBe(1000);
    const [table] = await t.sql(`SELECT closed_by FROM holdem_tables WHERE id = $1`, [tableId]);
    expect(table.closed_by).toBe("restart");
    // Settled once: closing the table again moves nothing.
    await s.holdem.closeTable(tableId, "restart");
    expect(await balanceOf(t.sql, g1!.player.id)).toBe(1000);
  });
});
