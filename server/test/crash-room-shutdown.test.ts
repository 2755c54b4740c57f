import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { CRASH_MESSAGES } from "@casino/common";
import { ManualClock } from "../src/platform/clock";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask } from "./room-helpers";
import { bettingRound, bustOf, runToBust, startRun, stateOf } from "./crash-room-helpers";

/** On a ManualClock: the room is shut down in the phase the test has brought it to, whatever the machine's load. */
let t: TestApp;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestApp({ CRASH_TICK_MS: "20", CRASH_CURVE_RATE: "0.006", BET_RATE_PER_SECOND: "1000" }, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

async function joinPlayers(n: number) {
  const players = await Promise.all(Array.from({ length: n }, () => t.guest()));
  const joined = await Promise.all(
    players.map(async (p) => {
      const room = await t.sdk(p.token).joinOrCreate("crash", { instanceId: null });
      return { room, inbox: new Inbox(room) };
    }),
  );
  return { players, joined };
}

const entriesOf = async (playerId: string) =>
  (await t.sql(`SELECT reason FROM ledger_entries WHERE player_id = $1 AND reference = 'crash-room' ORDER BY id`, [playerId])).map(
    (e) => e.reason,
  );

describe("shutting a room down", () => {
  it("settles its open round at once by the restart rule: a round still taking bets is void and refunded", async () => {
    const { players, joined } = await joinPlayers(2);
    await bettingRound(joined[0]!.room);
    const answers = await Promise.all([
      ask(joined[0]!.room, joined[0]!.inbox, CRASH_MESSAGES.bet, { amount: 40, autoCashOut: 1.01 }),
      ask(joined[1]!.room, joined[1]!.inbox, CRASH_MESSAGES.bet, { amount: 60 }),
    ]);
    expect(answers.map((a) => a.type)).toEqual(["result", "result"]);
    const roundId = answers[0]!.body.roundId as string;
    await matchMaker.getLocalRoomById(joined[0]!.room.roomId).disconnect();

    const q = t.sql;
    const [round] = await q(`SELECT phase, settled_by FROM crash_rounds WHERE id = $1`, [roundId]);
    expect(round).toEqual({ phase: "void", settled_by: "restart" });
    for (const [i, p] of players.entries()) {
      const [bet] = await q(`SELECT status, payout, settled_by FROM crash_bets WHERE round_id = $1 AND player_id = $2`, [
        roundId,
        p.player.id,
      ]);
      expect({ ...bet, payout: Number(bet.payout) }).toEqual({ status: "refunded", payout: i === 0 ? 40 : 60, settled_by: "restart" });
      expect(await entriesOf(p.player.id)).toEqual(["bet", "refund"]);
      const [{ balance }] = await q(`SELECT balance FROM players WHERE id = $1`, [p.player.id]);
      expect(Number(balance)).toBe(1000);
    }
  });

  it("mid-run: a cash-out already paid stands, a reached automatic target is paid at it, the rest refunded; never an early bust", async () => {
    const { players, joined } = await joinPlayers(3);
    const [ann, bob, cid] = players;
    const room = joined[0]!.room;
    // A round whose crash point leaves room for a run (above 1.01×): one that busts sooner is played out.
    let round = { roundId: "", crashPoint: 0, bustAt: 0 };
    while (round.crashPoint <= 101) {
      await bettingRound(room, round.roundId);
      await ask(joined[0]!.room, joined[0]!.inbox, CRASH_MESSAGES.bet, { amount: 100 });
      await ask(joined[1]!.room, joined[1]!.inbox, CRASH_MESSAGES.bet, { amount: 100, autoCashOut: 1.01 });
      await ask(joined[2]!.room, joined[2]!.inbox, CRASH_MESSAGES.bet, { amount: 100, autoCashOut: 1_000_000 });
      await startRun(t, clock, room);
      round = await bustOf(t, room);
      if (round.crashPoint <= 101) {
        await runToBust(t, clock, room);
        await clock.advance(t.app.services.config.crash.bustedMs);
      }
    }
    const { roundId, bustAt } = round;
    expect(stateOf(room).phase).toBe("running");
    // Ann cashes out half way to the bust; Bob's target (1.01×) is below the crash point.
    await clock.advance(Math.floor((bustAt - clock.now()) / 2));
    const cashOut = await ask(joined[0]!.room, joined[0]!.inbox, CRASH_MESSAGES.cashOut, {});
    expect(cashOut.type).toBe("result");
    await matchMaker.getLocalRoomById(room.roomId).disconnect();

    const q = t.sql;
    // The clock never reached the bust: the restart rule closed the round, not a bust.
    const [closed] = await q(`SELECT phase, settled_by FROM crash_rounds WHERE id = $1`, [roundId]);
    expect(closed).toEqual({ phase: "busted", settled_by: "restart" });
    const bets = await q(`SELECT player_id, status, cashed_out_at, payout, settled_by FROM crash_bets WHERE round_id = $1`, [roundId]);
    const of = (id: string) => bets.find((b) => b.player_id === id);
    expect(of(ann!.player.id)).toMatchObject({ status: "cashed_out", settled_by: "player" });
    expect(Number(of(ann!.player.id).cashed_out_at)).toBe(cashOut.body.cashedOutAt);
    // Bob's automatic cash-out fired in the run (the clock passed 1.01×) or is paid at it by the restart rule.
    expect(of(bob!.player.id)).toMatchObject({ status: "cashed_out" });
    expect(["auto", "restart"]).toContain(of(bob!.player.id).settled_by);
    expect(Number(of(bob!.player.id).cashed_out_at)).toBe(101);
    // Cid's target is beyond the crash point: his stake comes back.
    expect(of(cid!.player.id)).toMatchObject({ status: "refunded", settled_by: "restart" });
    expect(Number(of(cid!.player.id).payout)).toBe(100);
    // Every bet of every round played: one debit, and one credit per cash-out or refund.
    for (const p of [ann!, bob!, cid!]) {
      const mine = await q(`SELECT status FROM crash_bets WHERE player_id = $1`, [p.player.id]);
      const entries = await entriesOf(p.player.id);
      expect(entries.filter((e) => e === "bet")).toHaveLength(mine.length);
      expect(entries.filter((e) => e === "payout")).toHaveLength(mine.filter((b) => b.status === "cashed_out").length);
      expect(entries.filter((e) => e === "refund")).toHaveLength(mine.filter((b) => b.status === "refunded").length);
    }
  });
});
