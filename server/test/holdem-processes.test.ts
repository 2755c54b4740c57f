import { afterAll, describe, expect, it } from "vitest";
import { Client, type Room } from "@colyseus/sdk";
import pg from "pg";
import { HOLDEM_MESSAGES, HOLDEM_PUSH, type HoldemPrivateView, type HoldemTableSnapshot } from "@casino/common/holdem-table";
import type { HoldemAction } from "@casino/common/games/holdem/index";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startServerProcess, type ServerProcess } from "./server-process";
import { api, auditDatabase, guestOn } from "./process-helpers";
import { balanceOf, tableHolding } from "./holdem-helpers";
import { Inbox, ask, waitFor } from "./room-helpers";
import { openDatabase } from "../src/platform/db/database";
import { HoldemStore } from "../src/holdem/holdem-store";
import { Ledger } from "../src/ledger";
import { Announcements } from "../src/core/ledger/engine/index";
import { Log } from "../src/platform/log";

/**
 * The Hold'em table served by real server processes on one PostgreSQL database, on the real clock (the
 * table deals its next hand after its pause, which the test waits for through the snapshot):
 *
 * - a process killed (SIGKILL) in the middle of a hand, with a raise in the pot and a seat to act: once
 *   a new process starts on the same database its recovery sweep settles the table by the restart rule
 *   (docs/architecture/holdem.md, "Restart"): the unfinished hand void, so every bet of it is back in
 *   its stack; every stack, as the last finished hand left it, back to its player's balance, once; the
 *   table closed. Settling it again moves nothing, and the ledger audit holds. A graceful stop (SIGTERM)
 *   mid-hand applies the same rule before the process exits.
 * - two processes behind one address: a player connected through process A and a player through
 *   process B (whose WebSocket B relays to A, room-relay.ts) sit at one table and play a hand to the
 *   showdown, each sent only their own cards.
 */
const servers: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL").catch(() => undefined);
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

interface AtTable {
  room: Room;
  inbox: Inbox;
  privates: HoldemPrivateView[];
  snap: () => HoldemTableSnapshot;
}

async function joinTable(server: ServerProcess, token: string, roomId?: string): Promise<AtTable> {
  const client = new Client(server.wsUrl);
  client.auth.token = token;
  const room = roomId ? await client.joinById(roomId, { instanceId: null }) : await client.create("holdem-table", { instanceId: null });
  const inbox = new Inbox(room);
  const privates: HoldemPrivateView[] = [];
  room.onMessage(HOLDEM_PUSH.private, (view: HoldemPrivateView) => privates.push(view));
  await waitFor(() => (room.state as { snapshot?: string })?.snapshot, 10_000);
  return { room, inbox, privates, snap: () => JSON.parse((room.state as { snapshot: string }).snapshot) };
}

/** Waits until hand `n` is being played with a seat to act, and answers that seat. */
async function toAct(watcher: AtTable, n: number): Promise<number> {
  await waitFor(() => watcher.snap().hand?.handNumber === n && typeof watcher.snap().hand?.toAct === "number", 20_000);
  return watcher.snap().hand!.toAct!;
}

/** The seat's choices for hand `n`, from its own private view (sent to its connection only). */
async function legalFor(j: AtTable, n: number, seat: number) {
  await waitFor(() => {
    const last = j.privates.at(-1);
    return last?.handNumber === n && last.legal?.seat === seat;
  }, 20_000);
  return j.privates.at(-1)!.legal!;
}

/** The seat to act plays `action`; answers once the table (as `watcher` sees it) has moved on. */
async function play(j: AtTable, watcher: AtTable, action: HoldemAction) {
  const shown = JSON.stringify(watcher.snap().hand);
  const answer = await ask(j.room, j.inbox, HOLDEM_MESSAGES.act, { action });
  expect(answer.type, JSON.stringify(answer.body)).toBe("result");
  await waitFor(() => JSON.stringify(watcher.snap().hand) !== shown, 20_000);
}

async function openSql(url: string) {
  const sql = new pg.Client({ connectionString: url });
  sql.on("error", () => undefined);
  await sql.connect();
  cleanups.push(() => sql.end());
  return async (text: string, params: unknown[] = []) => (await sql.query(text, params)).rows as any[];
}

describe.runIf(TEST_DB === "postgres")("the Hold'em table over server processes", () => {
  it("a process killed mid-hand: the next process settles the table by the restart rule, nothing lost or paid twice", async () => {
    const database = await freshDatabaseUrl();
    cleanups.push(() => database.drop());
    // A short lease, so the next process finds the killed one's table stale soon; nobody's turn runs out meanwhile.
    const env = { DATABASE_URL: database.url!, TABLE_LEASE_MS: "1500", BET_RATE_PER_SECOND: "1000" };
    const q = await openSql(database.url!);

    const first = await startServerProcess({ env, name: "holdem-a" });
    servers.push(first);
    const [g1, g2] = await Promise.all([guestOn(first), guestOn(first)]);
    const p1 = await joinTable(first, g1.token);
    const p2 = await joinTable(first, g2.token, p1.room.roomId);
    const bySeat = new Map([
      [1, p1],
      [4, p2],
    ]);
    const tableId = p1.snap().tableId;
    expect((await ask(p1.room, p1.inbox, HOLDEM_MESSAGES.sit, { seat: 1, buyIn: 300 })).body).toMatchObject({ stack: 300, balance: 700 });
    expect((await ask(p2.room, p2.inbox, HOLDEM_MESSAGES.sit, { seat: 4, buyIn: 200 })).body).toMatchObject({ stack: 200, balance: 800 });

    // Hand 1, played to its end: the seat to act raises to 10, the other folds (the blinds change hands).
    let seat = await toAct(p1, 1);
    await legalFor(bySeat.get(seat)!, 1, seat);
    await play(bySeat.get(seat)!, p1, { type: "raise", amount: 10 });
    seat = await toAct(p1, 1);
    await play(bySeat.get(seat)!, p1, { type: "fold" });
    await waitFor(() => p1.snap().previousHand?.start.handNumber === 1, 20_000);
    const afterHand1 = Object.fromEntries(p1.snap().previousHand!.outcome.stacks.map((s) => [s.seat, s.stack]));
    expect(afterHand1[1]! + afterHand1[4]!).toBe(500);
    expect(afterHand1[1]).not.toBe(300);

    // Hand 2: the seat to act raises to 40, and the process is killed with the other seat to act.
    seat = await toAct(p1, 2);
    await legalFor(bySeat.get(seat)!, 2, seat);
    await play(bySeat.get(seat)!, p1, { type: "raise", amount: 40 });
    const other = await toAct(p1, 2);
    expect(other).not.toBe(seat);
    expect(p1.snap().hand!.pot).toBe(42);
    // The clients do not try to come back to the killed process's room.
    for (const j of [p1, p2]) j.room.reconnection.enabled = false;
    await first.stop("SIGKILL");

    // What the killed process left: hand 1 written, hand 2 still being played, the stacks of after hand 1.
    expect(
      (await q(`SELECT hand_number, phase FROM holdem_hands WHERE table_id = $1 ORDER BY hand_number`, [tableId])).map((r) => [
        r.hand_number,
        r.phase,
      ]),
    ).toEqual([
      [1, "complete"],
      [2, "playing"],
    ]);
    const seatsBefore = await q(
      `SELECT id, seat, player_id, stack FROM holdem_seats WHERE table_id = $1 AND left_at IS NULL ORDER BY seat`,
      [tableId],
    );
    expect(seatsBefore.map((r) => [r.seat, Number(r.stack)])).toEqual([
      [1, afterHand1[1]],
      [4, afterHand1[4]],
    ]);
    const [table] = await q(`SELECT closed_at FROM holdem_tables WHERE id = $1`, [tableId]);
    expect(table.closed_at).toBeNull();

    const second = await startServerProcess({ env, name: "holdem-b" });
    servers.push(second);
    const deadline = Date.now() + 30_000;
    while ((await q(`SELECT closed_by FROM holdem_tables WHERE id = $1`, [tableId]))[0].closed_by === null) {
      if (Date.now() > deadline) throw new Error(`table not settled after the restart:\n${second.lines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await q(`SELECT closed_by FROM holdem_tables WHERE id = $1`, [tableId]))[0].closed_by).toBe("restart");
    // The unfinished hand is void: its bets are back in the stacks, which go back to the balances once.
    expect((await q(`SELECT phase FROM holdem_hands WHERE table_id = $1 ORDER BY hand_number`, [tableId])).map((r) => r.phase)).toEqual([
      "complete",
      "void",
    ]);
    const seatsAfter = await q(`SELECT seat, cashed_out, left_at FROM holdem_seats WHERE table_id = $1 ORDER BY seat`, [tableId]);
    expect(seatsAfter.map((r) => [r.seat, Number(r.cashed_out), r.left_at !== null])).toEqual([
      [1, afterHand1[1], true],
      [4, afterHand1[4], true],
    ]);
    const balance = (playerId: string) => balanceOf(q, playerId);
    expect(await balance(g1.player.id)).toBe(700 + afterHand1[1]!);
    expect(await balance(g2.player.id)).toBe(800 + afterHand1[4]!);
    expect((await balance(g1.player.id)) + (await balance(g2.player.id))).toBe(2000);
    for (const r of seatsBefore) {
      const cashOuts = await q(`SELECT delta FROM ledger_entries WHERE player_id = $1 AND reason = 'cash_out'`, [r.player_id]);
      expect(cashOuts.map((x) => Number(x.delta))).toEqual([Number(r.stack)]);
    }
    expect(await tableHolding(q, tableId)).toBe(0);
    expect((await auditDatabase(database.url!)).mismatches).toEqual([]);

    // Settling the table again (another sweep, another process) moves nothing.
    const count = async () => (await q(`SELECT count(*)::int AS n FROM ledger_entries`))[0].n as number;
    const entries = await count();
    const direct = await openDatabase(database.url!, "memory://");
    try {
      const money = new Ledger(direct, new Log(), new Announcements(new Log()));
      const store = new HoldemStore(direct, money.holdem, 1500);
      await store.closeTable(tableId, "restart");
      expect(await store.recoverStale()).toBe(0);
      for (const r of seatsBefore) expect(await money.holdem.cashOut(r.id)).toMatchObject({ amount: Number(r.stack) });
    } finally {
      await direct.close();
    }
    expect(await count()).toBe(entries);

    // The players sit down again at a table of the new process, with the coins they got back.
    const balances = [await balance(g1.player.id), await balance(g2.player.id)];
    const q1 = await joinTable(second, g1.token);
    const q2 = await joinTable(second, g2.token, q1.room.roomId);
    const newTable = q1.snap().tableId;
    expect(newTable).not.toBe(tableId);
    expect((await ask(q1.room, q1.inbox, HOLDEM_MESSAGES.sit, { seat: 2, buyIn: 100 })).body).toMatchObject({
      stack: 100,
      balance: balances[0]! - 100,
    });
    expect((await ask(q2.room, q2.inbox, HOLDEM_MESSAGES.sit, { seat: 3, buyIn: 120 })).body).toMatchObject({
      stack: 120,
      balance: balances[1]! - 120,
    });

    // A graceful stop (SIGTERM) in the middle of a hand: the room closes its table by the same rule
    // before the process exits (the hand void, every stack back), with nothing left for a sweep.
    const nowBySeat = new Map([
      [2, q1],
      [3, q2],
    ]);
    seat = await toAct(q1, 1);
    await legalFor(nowBySeat.get(seat)!, 1, seat);
    await play(nowBySeat.get(seat)!, q1, { type: "raise", amount: 30 });
    await toAct(q1, 1);
    expect(q1.snap().hand!.pot).toBe(32);
    for (const j of [q1, q2]) j.room.reconnection.enabled = false;
    expect(await second.stop("SIGTERM")).toMatchObject({ code: 0 });
    expect((await q(`SELECT closed_by FROM holdem_tables WHERE id = $1`, [newTable]))[0].closed_by).toBe("closed");
    expect((await q(`SELECT phase FROM holdem_hands WHERE table_id = $1`, [newTable])).map((r) => r.phase)).toEqual(["void"]);
    const newSeats = await q(`SELECT seat, cashed_out FROM holdem_seats WHERE table_id = $1 ORDER BY seat`, [newTable]);
    expect(newSeats.map((r) => [r.seat, Number(r.cashed_out)])).toEqual([
      [2, 100],
      [3, 120],
    ]);
    expect([await balance(g1.player.id), await balance(g2.player.id)]).toEqual(balances);
    expect((await auditDatabase(database.url!)).mismatches).toEqual([]);
  }, 180_000);

  it("a player through process A and a player through process B sit at one table and play a hand", async () => {
    const database = await freshDatabaseUrl();
    cleanups.push(() => database.drop());
    const redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    cleanups.push(() => redis.release());
    const env = { DATABASE_URL: database.url!, REDIS_URL: redis.url!, BET_RATE_PER_SECOND: "1000" };
    const q = await openSql(database.url!);
    // One after the other: the first migrates the database, the second finds it migrated.
    const a = await startServerProcess({ env, name: "holdem-a" });
    servers.push(a);
    const b = await startServerProcess({ env, name: "holdem-b" });
    servers.push(b);

    const [ga, gb] = [await guestOn(a), await guestOn(b)];
    const onA = await joinTable(a, ga.token);
    // The table made on A is listed by B, and joined through B by its id: B relays the WebSocket to A.
    await expect
      .poll(
        async () =>
          ((await api(b, "GET", "/api/holdem-tables", { token: gb.token })).body.tables as { roomId: string }[]).map((x) => x.roomId),
        {
          timeout: 10_000,
        },
      )
      .toContain(onA.room.roomId);
    const onB = await joinTable(b, gb.token, onA.room.roomId);
    const tableId = onA.snap().tableId;
    expect(onB.snap().tableId).toBe(tableId);
    await waitFor(() => onA.snap().watchers === 2);

    expect((await ask(onA.room, onA.inbox, HOLDEM_MESSAGES.sit, { seat: 2, buyIn: 150 })).body).toMatchObject({ stack: 150, balance: 850 });
    expect((await ask(onB.room, onB.inbox, HOLDEM_MESSAGES.sit, { seat: 6, buyIn: 250 })).body).toMatchObject({ stack: 250, balance: 750 });
    await waitFor(() => onA.snap().seats.length === 2 && onB.snap().seats.length === 2, 10_000);
    const bySeat = new Map([
      [2, onA],
      [6, onB],
    ]);

    // Hand 1 is checked and called down to the showdown, each seat playing through its own process.
    const acted = new Set<number>();
    for (let steps = 0; onB.snap().previousHand?.start.handNumber !== 1; steps++) {
      expect(steps).toBeLessThan(20);
      await waitFor(
        () =>
          (onB.snap().hand?.handNumber === 1 && typeof onB.snap().hand?.toAct === "number") ||
          onB.snap().previousHand?.start.handNumber === 1,
        20_000,
      );
      if (onB.snap().previousHand?.start.handNumber === 1) break;
      const seat = onB.snap().hand!.toAct!;
      const legal = await legalFor(bySeat.get(seat)!, 1, seat);
      await play(bySeat.get(seat)!, onB, legal.check ? { type: "check" } : { type: "call" });
      acted.add(seat);
    }
    expect([...acted].sort()).toEqual([2, 6]);
    const revealed = onB.snap().previousHand!;
    // The other connection hears the same hand's end in its own time (B's patch comes through the relay).
    await waitFor(() => onA.snap().previousHand?.handId === revealed.handId, 20_000);
    expect(onB.snap().hand!.result!.showdown).toBe(true);
    const stacks = Object.fromEntries(revealed.outcome.stacks.map((s) => [s.seat, s.stack]));
    expect(stacks[2]! + stacks[6]!).toBe(400);
    // The stacks the database holds are the hand's; each player was sent only their own cards.
    const rows = await q(`SELECT seat, stack FROM holdem_seats WHERE table_id = $1 AND left_at IS NULL ORDER BY seat`, [tableId]);
    expect(rows.map((r) => [r.seat, Number(r.stack)])).toEqual([
      [2, stacks[2]],
      [6, stacks[6]],
    ]);
    for (const [seat, j] of bySeat) {
      const own = j.privates.find((v) => v.handNumber === 1 && v.hole);
      expect(own!.seat).toBe(seat);
      expect(own!.hole).toEqual(revealed.outcome.hole.find((h) => h.seat === seat)!.cards);
      expect(j.privates.every((v) => v.seat === seat)).toBe(true);
    }
    expect((await q(`SELECT phase FROM holdem_hands WHERE table_id = $1`, [tableId])).map((r) => r.phase)).toEqual(["complete"]);

    // Both leave (between hands, or during the next one: cashed out once it is over).
    for (const j of [onB, onA]) expect((await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {})).type).toBe("result");
    await waitFor(() => onA.snap().seats.length === 0, 20_000);
    const balance = (playerId: string) => balanceOf(q, playerId);
    expect((await balance(ga.player.id)) + (await balance(gb.player.id))).toBe(2000);
    expect(await balance(ga.player.id)).toBe(
      850 + Number((await q(`SELECT cashed_out FROM holdem_seats WHERE table_id = $1 AND seat = 2`, [tableId]))[0].cashed_out),
    );
    for (const j of [onA, onB]) await j.room.leave();
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    expect((await auditDatabase(database.url!)).mismatches).toEqual([]);
  }, 180_000);
});
