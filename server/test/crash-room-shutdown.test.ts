import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { CRASH_MESSAGES } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask, waitFor } from "./room-helpers";

/** A long betting phase, so that the shutdown certainly comes before the run. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CRASH_BETTING_MS: "5000", CRASH_TICK_MS: "20", BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

describe("shutting a room down", () => {
  it("settles its open round at once by the restart rule: a round still taking bets is void and refunded", async () => {
    const players = await Promise.all([t.guest(), t.guest()]);
    const joined = await Promise.all(
      players.map(async (p) => {
        const room = await t.sdk(p.token).joinOrCreate("crash", { instanceId: null });
        return { room, inbox: new Inbox(room) };
      }),
    );
    await waitFor(() => (joined[0]!.room.state as any).phase === "betting", 10_000);
    const answers = await Promise.all([
      ask(joined[0]!.room, joined[0]!.inbox, CRASH_MESSAGES.bet, { amount: 40, autoCashOut: 1.01 }),
      ask(joined[1]!.room, joined[1]!.inbox, CRASH_MESSAGES.bet, { amount: 60 }),
    ]);
    expect(answers.map((a) => a.type)).toEqual(["result", "result"]);
    const roundId = answers[0]!.body.roundId as string;
    await matchMaker.getLocalRoomById(joined[0]!.room.roomId).disconnect();

    const q = (text: string, params: unknown[]) => t.app.services.db.run((em) => em.query(text, params)) as Promise<any[]>;
    const [round] = await q(`SELECT phase, settled_by FROM crash_rounds WHERE id = $1`, [roundId]);
    expect(round).toEqual({ phase: "void", settled_by: "restart" });
    for (const [i, p] of players.entries()) {
      const [bet] = await q(`SELECT status, payout, settled_by FROM crash_bets WHERE round_id = $1 AND player_id = $2`, [
        roundId,
        p.player.id,
      ]);
      expect({ ...bet, payout: Number(bet.payout) }).toEqual({ status: "refunded", payout: i === 0 ? 40 : 60, settled_by: "restart" });
      const entries = await q(`SELECT reason FROM ledger_entries WHERE player_id = $1 AND reference = 'crash-room' ORDER BY id`, [
        p.player.id,
      ]);
      expect(entries.map((e) => e.reason)).toEqual(["bet", "refund"]);
      const [{ balance }] = await q(`SELECT balance FROM players WHERE id = $1`, [p.player.id]);
      expect(Number(balance)).toBe(1000);
    }
  });
});
