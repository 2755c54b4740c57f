import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOLDEM_MESSAGES } from "@casino/common/holdem-table";
import { ManualClock } from "../src/platform/clock";
import { holdemTableAccount } from "../src/holdem/holdem-money";
import { startTestApp, type TestApp } from "./harness";
import { balanceOf, joinTable, snap, tableHolding, type AtTable } from "./holdem-helpers";
import { ask, newRequestId, waitFor } from "./room-helpers";

/**
 * Races at the Hold'em table on PostgreSQL, where the transactions run side by side: one player's two
 * connections (two tabs) buying in and leaving at once, a tab closed while its buy-in is being written,
 * and two players asking for the same seat at once; then the same races straight on the ledger's
 * buy-in and cash-out, below the room. Every answer is read back from the database by SQL: exactly one
 * buy-in taken per seat, each stack returned once, the refused player's balance untouched, and the
 * balance plus the stack at the table always the coins the player had.
 */
const clock = new ManualClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TABLE_LEASE_MS: "60000", BET_RATE_PER_SECOND: "100000" }, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

/** The player's ledger entries of a reason, as the database holds them. */
const entries = async (playerId: string, reason: "buy_in" | "cash_out") =>
  (
    await t.sql(`SELECT delta, account, request_id FROM ledger_entries WHERE player_id = $1 AND reason = $2 ORDER BY id`, [
      playerId,
      reason,
    ])
  ).map((r) => ({ delta: Number(r.delta), account: r.account as string, requestId: r.request_id as string }));
/** The request id of a seat's cash-out entry (`#holdem-cash-out:<seat id>`, once per seat). */
const cashOutOf = (seatId: string) => expect.stringMatching(new RegExp(`^#holdem-cash-out:${seatId}(#|$)`));
/** The player's live seats at the table. */
const liveSeats = async (tableId: string, playerId: string) =>
  (
    await t.sql(`SELECT id, seat, stack FROM holdem_seats WHERE table_id = $1 AND player_id = $2 AND left_at IS NULL`, [tableId, playerId])
  ).map((r) => ({ id: r.id as string, seat: Number(r.seat), stack: Number(r.stack) }));
/** What the player holds in all: the balance and every stack still at a table. */
const holdings = async (playerId: string) => {
  const [row] = await t.sql(`SELECT coalesce(sum(stack), 0)::int AS s FROM holdem_seats WHERE player_id = $1 AND left_at IS NULL`, [
    playerId,
  ]);
  return (await balanceOf(t.sql, playerId)) + Number(row.s);
};

const join = (token: string, roomId?: string) => joinTable(t, token, roomId);

/** Sends a request without waiting; the answer is awaited later. */
function send(j: AtTable, type: string, body: Record<string, unknown>) {
  const requestId = newRequestId();
  j.room.send(type, { ...body, requestId });
  return j.inbox.answer(requestId);
}

describe("one player's two connections", () => {
  it("both buy in at once (one seat, or two): exactly one buy-in is taken; both leave at once: the stack comes back once", async () => {
    const { token, player } = await t.guest();
    const tabA = await join(token);
    const tabB = await join(token, tabA.room.roomId);
    const tableId = snap(tabA).tableId;
    let expectedBuyIns = 0;
    for (const [i, seats] of [
      [3, 3],
      [2, 6],
      [5, 5],
      [1, 8],
    ].entries()) {
      const buyIn = 100 + 10 * i;
      const answers = await Promise.all([
        send(tabA, HOLDEM_MESSAGES.sit, { seat: seats[0], buyIn }),
        send(tabB, HOLDEM_MESSAGES.sit, { seat: seats[1], buyIn }),
      ]);
      const taken = answers.filter((a) => a.type === "result");
      expect(taken, JSON.stringify(answers)).toHaveLength(1);
      const refused = answers.find((a) => a.type === "error")!;
      expect(["already_seated", "seat_taken"]).toContain(refused.body.code);
      expectedBuyIns += 1;
      // One seat, one buy-in entry, and the balance plus the stack the thousand the player had.
      const seated = await liveSeats(tableId, player.id);
      expect(seated).toEqual([{ id: expect.any(String), seat: taken[0]!.body.seat, stack: buyIn }]);
      expect(await entries(player.id, "buy_in")).toHaveLength(expectedBuyIns);
      expect(await balanceOf(t.sql, player.id)).toBe(1000 - buyIn);
      expect(taken[0]!.body.balance).toBe(1000 - buyIn);
      expect(await tableHolding(t.sql, tableId)).toBe(buyIn);

      // Both tabs leave at once: the stack is returned once, to the balance.
      const left = await Promise.all([send(tabA, HOLDEM_MESSAGES.leave, {}), send(tabB, HOLDEM_MESSAGES.leave, {})]);
      const cashed = left.filter((a) => a.type === "result");
      expect(cashed.length, JSON.stringify(left)).toBeGreaterThanOrEqual(1);
      for (const a of cashed) expect(a.body).toMatchObject({ seat: taken[0]!.body.seat, stack: buyIn, balance: 1000 });
      for (const a of left.filter((x) => x.type === "error")) expect(a.body.code).toBe("not_seated");
      const cashOuts = await entries(player.id, "cash_out");
      expect(cashOuts).toHaveLength(expectedBuyIns);
      expect(cashOuts.at(-1)).toMatchObject({ delta: buyIn, requestId: cashOutOf(seated[0]!.id) });
      expect(await liveSeats(tableId, player.id)).toEqual([]);
      expect(await balanceOf(t.sql, player.id)).toBe(1000);
      expect(await tableHolding(t.sql, tableId)).toBe(0);
    }
    await Promise.all([tabA.room.leave(), tabB.room.leave()]);
  });

  it("one tab asks to leave while the other closes the room: the stack comes back once", async () => {
    const { token, player } = await t.guest();
    const watcher = await join((await t.guest()).token);
    const tableId = snap(watcher).tableId;
    for (let i = 0; i < 4; i++) {
      const tabA = await join(token, watcher.room.roomId);
      const tabB = await join(token, watcher.room.roomId);
      // The seat is the connection's that bought in: closing that tab leaves the seat too.
      const sat = await ask(tabA.room, tabA.inbox, HOLDEM_MESSAGES.sit, { seat: 4, buyIn: 150 });
      expect(sat.type).toBe("result");
      const [seat] = await liveSeats(tableId, player.id);
      const asked = send(tabB, HOLDEM_MESSAGES.leave, {});
      await tabA.room.leave();
      const answer = await asked;
      if (answer.type === "error") expect(answer.body.code).toBe("not_seated");
      else expect(answer.body).toMatchObject({ seat: 4, stack: 150, balance: 1000 });
      await waitFor(() => snap(watcher).seats.length === 0, 10_000);
      const cashOuts = (await entries(player.id, "cash_out")).filter((e) => e.requestId.startsWith(`#holdem-cash-out:${seat!.id}`));
      expect(cashOuts).toEqual([{ delta: 150, account: holdemTableAccount(tableId), requestId: cashOutOf(seat!.id) }]);
      expect(await balanceOf(t.sql, player.id)).toBe(1000);
      await tabB.room.leave();
    }
    expect(await entries(player.id, "buy_in")).toHaveLength(4);
    expect(await entries(player.id, "cash_out")).toHaveLength(4);
    await watcher.room.leave();
  });

  it("a tab closed while its buy-in is being written leaves no seat behind: the buy-in comes back", async () => {
    const { token, player } = await t.guest();
    const watcher = await join((await t.guest()).token);
    const tableId = snap(watcher).tableId;
    const money = t.app.services.ledger.holdem;
    const buyIn = money.buyIn;
    let written = 0;
    try {
      for (let i = 0; i < 4; i++) {
        const tab = await join(token, watcher.room.roomId);
        await waitFor(() => snap(watcher).watchers === 2);
        // Even tries: the buy-in is held until the room has seen the tab go (the order the race can take on
        // a loaded database). Odd tries: sent and closed at once, in whatever order they land.
        const requestId = newRequestId();
        let release = () => {};
        let entered = false;
        if (i % 2 === 0) {
          const gate = new Promise<void>((resolve) => (release = resolve));
          money.buyIn = async (...args) => {
            entered = true;
            await gate;
            return buyIn.apply(money, args);
          };
        }
        tab.room.send(HOLDEM_MESSAGES.sit, { requestId, seat: 2, buyIn: 120 });
        if (i % 2 === 0) await waitFor(() => entered);
        await tab.room.leave();
        if (i % 2 === 0) {
          await waitFor(() => snap(watcher).watchers === 1);
          release();
          money.buyIn = buyIn;
        }
        const bought = async () => (await entries(player.id, "buy_in")).some((e) => e.requestId.startsWith(requestId));
        if (i % 2 === 0) {
          // The buy-in is written after the tab has gone (it had its profile when it began), then comes back.
          for (let tries = 0; !(await bought()); tries++) {
            expect(tries).toBeLessThan(400);
            await new Promise((r) => setTimeout(r, 25));
          }
        } else {
          // The sit ran before the tab went (written, then the leave brings it back), or after (refused:
          // the room no longer knows how to show a connection that is gone). A request of another
          // connection of the player waits behind it in the player's queue: once it is answered (no hand
          // is being played, so the act changes nothing), the sit has run either way.
          const probe = await join(token, watcher.room.roomId);
          expect((await ask(probe.room, probe.inbox, HOLDEM_MESSAGES.act, { requestId: newRequestId(), action: "fold" })).type).toBe(
            "error",
          );
          await probe.room.leave();
          await waitFor(() => snap(watcher).watchers === 1);
        }
        if (await bought()) written += 1;
        // No seat is held for a connection that is gone: the coins are back on the balance.
        for (let tries = 0; ; tries++) {
          const seats = await liveSeats(tableId, player.id);
          const seen = snap(watcher).seats;
          if (seats.length === 0 && seen.length === 0 && (await balanceOf(t.sql, player.id)) === 1000) break;
          expect(tries, JSON.stringify({ seats, seen })).toBeLessThan(400);
          await new Promise((r) => setTimeout(r, 25));
        }
        expect((await entries(player.id, "buy_in")).length).toBe((await entries(player.id, "cash_out")).length);
      }
    } finally {
      money.buyIn = buyIn;
    }
    // Every buy-in of the even tries, and those of the odd tries that ran before their tab went.
    expect(written).toBeGreaterThanOrEqual(2);
    expect(await entries(player.id, "buy_in")).toHaveLength(written);
    await watcher.room.leave();
  });
});

describe("two players asking for the same seat at once", () => {
  it("one gets it, the other a clear refusal, and no coin of the refused one moves", async () => {
    const [g1, g2] = await Promise.all([t.guest(), t.guest()]);
    const p1 = await join(g1.token);
    const p2 = await join(g2.token, p1.room.roomId);
    const tableId = snap(p1).tableId;
    const wins = [0, 0];
    for (let i = 0; i < 6; i++) {
      // Each asks under a request id of its own, the two messages sent together.
      const answers = await Promise.all([
        send(i % 2 ? p1 : p2, HOLDEM_MESSAGES.sit, { seat: 7, buyIn: 200 }),
        send(i % 2 ? p2 : p1, HOLDEM_MESSAGES.sit, { seat: 7, buyIn: 90 }),
      ]);
      const [first, second] = i % 2 ? answers : [answers[1]!, answers[0]!];
      const winner = first!.type === "result" ? 0 : 1;
      const [won, lost] = winner === 0 ? [first!, second!] : [second!, first!];
      expect(won.type, JSON.stringify(answers)).toBe("result");
      expect(lost.type).toBe("error");
      expect(lost.body).toMatchObject({ code: "seat_taken", message: expect.stringMatching(/taken/) });
      wins[winner]! += 1;
      const [w, l] = winner === 0 ? [g1, g2] : [g2, g1];
      // The refused player: no seat, no entry for that request, the balance untouched.
      expect(await liveSeats(tableId, l.player.id)).toEqual([]);
      expect(
        await t.sql(`SELECT 1 FROM ledger_entries WHERE player_id = $1 AND request_id = $2`, [l.player.id, lost.body.requestId]),
      ).toEqual([]);
      expect(await balanceOf(t.sql, l.player.id)).toBe(1000);
      expect(await liveSeats(tableId, w.player.id)).toEqual([{ id: expect.any(String), seat: 7, stack: won.body.stack }]);
      expect((await balanceOf(t.sql, w.player.id)) + won.body.stack).toBe(1000);
      // The winner leaves for the next try.
      const j = winner === 0 ? p1 : p2;
      expect((await ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {})).body).toMatchObject({ seat: 7, balance: 1000 });
      await waitFor(() => snap(p1).seats.length === 0, 10_000);
    }
    expect(wins[0]! + wins[1]!).toBe(6);
    expect(await tableHolding(t.sql, tableId)).toBe(0);
    await Promise.all([p1.room.leave(), p2.room.leave()]);
  });
});

describe("the same races on the ledger, below the room", () => {
  const TRIES = 15;

  it("two players buying in to one seat at the same moment: one seat, one buy-in, the other refused with nothing moved", async () => {
    const s = t.app.services;
    for (let i = 0; i < TRIES; i++) {
      const tableId = await s.holdem.openTable("public");
      const [g1, g2] = await Promise.all([t.guest(), t.guest()]);
      const ids = [`req-seat-race-${i}-a`, `req-seat-race-${i}-b`];
      const outcomes = await Promise.allSettled([
        s.ledger.holdem.buyIn(g1.player.id, ids[0]!, { tableId, seat: 3, amount: 100 }),
        s.ledger.holdem.buyIn(g2.player.id, ids[1]!, { tableId, seat: 3, amount: 180 }),
      ]);
      const fulfilled = outcomes.filter((o) => o.status === "fulfilled");
      expect(fulfilled, JSON.stringify(outcomes)).toHaveLength(1);
      const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: "seat_taken" });
      const winner = outcomes[0]!.status === "fulfilled" ? 0 : 1;
      const [w, l] = winner === 0 ? [g1, g2] : [g2, g1];
      const amount = winner === 0 ? 100 : 180;
      expect(await t.sql(`SELECT player_id, stack FROM holdem_seats WHERE table_id = $1`, [tableId])).toEqual([
        { player_id: w.player.id, stack: String(amount) },
      ]);
      expect(await balanceOf(t.sql, w.player.id)).toBe(1000 - amount);
      expect(await balanceOf(t.sql, l.player.id)).toBe(1000);
      expect(await entries(l.player.id, "buy_in")).toEqual([]);
      // Nothing of the refused request is kept: the same id may be asked again (at a free seat) and runs.
      const again = await s.ledger.holdem.buyIn(l.player.id, ids[1 - winner]!, { tableId, seat: 4, amount: 100 });
      expect(again).toMatchObject({ seat: 4, stack: 100, balance: 900 });
      expect(await tableHolding(t.sql, tableId)).toBe(amount + 100);
      await s.holdem.closeTable(tableId, "closed");
      expect(await balanceOf(t.sql, w.player.id)).toBe(1000);
      expect(await balanceOf(t.sql, l.player.id)).toBe(1000);
    }
  });

  it("one player buying in twice to one table at the same moment: one seat, one buy-in", async () => {
    const s = t.app.services;
    for (let i = 0; i < TRIES; i++) {
      const tableId = await s.holdem.openTable("public");
      const { player } = await t.guest();
      const outcomes = await Promise.allSettled([
        s.ledger.holdem.buyIn(player.id, `req-twice-${i}-a`, { tableId, seat: 1, amount: 300 }),
        s.ledger.holdem.buyIn(player.id, `req-twice-${i}-b`, { tableId, seat: 2, amount: 300 }),
      ]);
      expect(
        outcomes.filter((o) => o.status === "fulfilled"),
        JSON.stringify(outcomes),
      ).toHaveLength(1);
      expect((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "seat_taken" });
      expect(await liveSeats(tableId, player.id)).toHaveLength(1);
      expect(await entries(player.id, "buy_in")).toHaveLength(1);
      expect(await balanceOf(t.sql, player.id)).toBe(700);
      expect(await holdings(player.id)).toBe(1000);
      await s.holdem.closeTable(tableId, "closed");
      expect(await balanceOf(t.sql, player.id)).toBe(1000);
    }
  });

  it("a seat cashed out three times at the same moment (a leave, a lost grace, a table closing) pays its stack once", async () => {
    const s = t.app.services;
    for (let i = 0; i < TRIES; i++) {
      const tableId = await s.holdem.openTable("public");
      const { player } = await t.guest();
      const seat = await s.ledger.holdem.buyIn(player.id, `req-cash-race-${i}`, { tableId, seat: 5, amount: 250 });
      const outcomes = await Promise.all([
        s.ledger.holdem.cashOut(seat.seatId),
        s.ledger.holdem.cashOut(seat.seatId),
        s.holdem.closeTable(tableId, "closed").then(() => null),
      ]);
      // The answers that tell of a cash-out tell of the same one.
      for (const o of outcomes.filter((x) => x !== null)) expect(o).toEqual({ playerId: player.id, amount: 250, balance: 1000 });
      expect(await entries(player.id, "cash_out")).toEqual([
        { delta: 250, account: holdemTableAccount(tableId), requestId: cashOutOf(seat.seatId) },
      ]);
      expect(await balanceOf(t.sql, player.id)).toBe(1000);
      const [row] = await t.sql(`SELECT cashed_out, left_at FROM holdem_seats WHERE id = $1`, [seat.seatId]);
      expect(Number(row.cashed_out)).toBe(250);
      expect(await tableHolding(t.sql, tableId)).toBe(0);
    }
  });
});
