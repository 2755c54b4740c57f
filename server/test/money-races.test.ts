import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";
import { joinCasino, newRequestId } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "100000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params));

/** Open rounds whose server seed has been revealed: the one thing that must never exist. */
const exposedRounds = async (playerId: string) =>
  Number((await sql(`SELECT count(*)::int AS n FROM open_rounds r JOIN fairness_seeds s ON s.id = r.seed_id WHERE r.player_id = $1 AND s.revealed_at IS NOT NULL`, [playerId]))[0].n);

describe("seed rotation racing a multi-step bet", () => {
  it("never reveals the seed of an open round (two connections, 20 tries)", async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    let exposed = 0;
    for (let i = 0; i < 20; i++) {
      const bet = newRequestId();
      const rotate = newRequestId();
      a.room.send("bet", { requestId: bet, game: "mines", amount: 1, params: { mines: 24 } });
      b.room.send("seed:rotate", { requestId: rotate });
      const [opened] = await Promise.all([a.inbox.answer(bet), b.inbox.answer(rotate)]);
      exposed += await exposedRounds(player.id);
      if (opened.type === "result" && !opened.body.done) {
        const act = newRequestId();
        a.room.send("act", { requestId: act, action: { type: "reveal", tile: 0 } });
        expect((await a.inbox.answer(act)).type).toBe("result");
      }
    }
    expect(exposed).toBe(0);
    await a.room.leave();
    await b.room.leave();
  });
});

describe("daily spin racing bets", () => {
  it("surfaces no deadlock: 1 spin and 4 bets at once, 40 tries", async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    const codes: string[] = [];
    for (let i = 0; i < 40; i++) {
      await sql(`UPDATE players SET last_daily_spin = NULL WHERE id = $1`, [player.id]);
      const spin = newRequestId();
      const bets = Array.from({ length: 4 }, () => newRequestId());
      b.room.send("daily-spin", { requestId: spin });
      bets.forEach((requestId, k) => (k % 2 ? a : b).room.send("bet", { requestId, game: "dice", amount: 1, params: { target: 50, direction: "under" } }));
      const answers = await Promise.all([b.inbox.answer(spin), ...bets.map((id, k) => (k % 2 ? a : b).inbox.answer(id))]);
      for (const answer of answers) if (answer.type === "error") codes.push(answer.body.code);
    }
    expect(codes).toEqual([]);
    await a.room.leave();
    await b.room.leave();
  });
});
