import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAILY_SPIN, verifyRound } from "@casino/common";
import { sqlRows } from "../src/platform/db/sql";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const historyOf = async (playerId: string, token: string, query = "limit=100") => {
  const res = await t.request("GET", `/api/player/${playerId}/history?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: any[]; nextBefore: string | null };
};

/** Every row, page after page of `limit`, following nextBefore. */
async function allPages(playerId: string, token: string, limit: number) {
  const ids: string[] = [];
  let before: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const page = await historyOf(playerId, token, `limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ""}`);
    ids.push(...page.items.map((i) => i.id));
    before = page.nextBefore;
    if (before === null) return ids;
  }
  throw new Error("the history never ended");
}

describe("history paging", () => {
  it("pages through rows that share a millisecond (and rows that share a time), each exactly once", async () => {
    const { token, player } = await t.guest();
    // Finished rounds as the database stores them: microsecond times, four within one millisecond and
    // two at the very same time. (A record of past rounds only: no coins move.)
    const times = [
      "2026-01-01T00:00:00.000100Z",
      "2026-01-01T00:00:00.000200Z",
      "2026-01-01T00:00:00.000300Z",
      "2026-01-01T00:00:00.000300Z",
      "2026-01-01T00:00:00.000900Z",
      "2026-01-01T00:00:00.001500Z",
      "2026-01-01T00:00:00.002000Z",
    ];
    const inserted = await t.app.services.db.run((em) =>
      sqlRows(
        em,
        `INSERT INTO game_sessions (player_id, game_type, amount, bet_amount, result, payout, params, actions, outcome, created_at)
         SELECT $1, 'dice', 10, 10, 'lose', 0, '{}'::jsonb, '[]'::jsonb, '{}'::jsonb, t FROM unnest($2::timestamptz[]) AS t
         RETURNING id, created_at`,
        [player.id, times],
      ),
    );
    expect(inserted).toHaveLength(times.length);
    const whole = await historyOf(player.id, token);
    expect(whole.items).toHaveLength(times.length);
    expect(whole.nextBefore).toBeNull();
    // newest first, with the database's microseconds
    expect(whole.items.map((i) => i.createdAt)).toEqual([...times].sort().reverse());
    const expected = whole.items.map((i) => i.id);
    expect(new Set(expected).size).toBe(times.length);
    for (const limit of [1, 2, 3]) {
      expect(await allPages(player.id, token, limit), `pages of ${limit}`).toEqual(expected);
    }
  });

  it("still reads a plain time as before (rows strictly older) and refuses anything else", async () => {
    const { token, player } = await t.guest();
    await t.app.services.db.run((em) =>
      sqlRows(
        em,
        `INSERT INTO game_sessions (player_id, game_type, amount, bet_amount, result, payout, params, actions, outcome, created_at)
         SELECT $1, 'slots', 10, 10, 'lose', 0, '{}'::jsonb, '[]'::jsonb, '{}'::jsonb, t FROM unnest($2::timestamptz[]) AS t`,
        [player.id, ["2026-02-01T00:00:00.000500Z", "2026-02-01T00:00:01.000000Z"]],
      ),
    );
    const older = await historyOf(player.id, token, `before=${encodeURIComponent("2026-02-01T00:00:01Z")}`);
    expect(older.items.map((i) => i.createdAt)).toEqual(["2026-02-01T00:00:00.000500Z"]);
    const refused = await t.request("GET", `/api/player/${player.id}/history?before=yesterday`, { token });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("before must be the nextBefore of a history page");
  });
});

describe("daily spins in the history", () => {
  it("a spin is a row of its own, with its seed and nonce, and re-derives to its prize once the pair is rotated", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const bet = await ask(room, inbox, "bet", { game: "dice", amount: 1, params: { target: 50, direction: "under" } });
    expect(bet.type).toBe("result");
    const spin = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } });
    expect(spin.status, JSON.stringify(spin.body)).toBe(200);

    const before = await historyOf(player.id, token);
    expect(before.items.map((i) => i.kind)).toEqual(["daily_spin", "round"]);
    const row = before.items[0];
    expect(row).toMatchObject({
      gameType: DAILY_SPIN,
      betAmount: 0,
      payout: spin.body.prize,
      result: "win",
      requestId: expect.stringMatching(/^spin-/),
      outcome: { segment: spin.body.segment, prize: spin.body.prize },
      fairness: { ...spin.body.fairness, serverSeed: null },
    });
    expect(spin.body.fairness.nonce).toBe(bet.body.fairness.nonce + 1);
    // the spin pages like any row
    expect(await allPages(player.id, token, 1)).toEqual(before.items.map((i) => i.id));
    // and each kind can be asked for alone
    expect((await historyOf(player.id, token, "kind=daily_spin")).items.map((i) => i.id)).toEqual([row.id]);
    expect((await historyOf(player.id, token, "kind=round")).items.map((i) => i.id)).toEqual([before.items[1].id]);

    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");
    const after = (await historyOf(player.id, token)).items[0];
    expect(after.fairness.serverSeed).toBe(rotated.body.revealed.serverSeed);
    const v = verifyRound({
      game: after.gameType,
      serverSeed: after.fairness.serverSeed,
      serverSeedHash: after.fairness.serverSeedHash,
      clientSeed: after.fairness.clientSeed,
      nonce: after.fairness.nonce,
    });
    expect(v.commitment.matches).toBe(true);
    expect(v.view).toEqual(after.outcome);
    expect(v.totalPayout).toBe(after.payout);
    await room.leave();
  });
});

describe("the opening bet of a multi-step round", () => {
  it("is kept apart from everything the round staked, and is what the verifier needs", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const amount = 10;
    const opened = await ask(room, inbox, "bet", { game: "poker", amount, params: {} });
    expect(opened.type, JSON.stringify(opened.body)).toBe("result");
    const raised = await ask(room, inbox, "act", { action: { type: "raise" } });
    expect(raised.type, JSON.stringify(raised.body)).toBe("result");
    expect(raised.body.done).toBe(true);
    expect(raised.body.totalStake).toBeGreaterThan(amount);
    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");

    const [row] = (await historyOf(player.id, token)).items;
    expect(row).toMatchObject({
      kind: "round",
      gameType: "poker",
      amount,
      betAmount: raised.body.totalStake,
      payout: raised.body.totalPayout,
    });
    const v = verifyRound({
      game: row.gameType,
      serverSeed: row.fairness.serverSeed,
      clientSeed: row.fairness.clientSeed,
      nonce: row.fairness.nonce,
      amount: row.amount,
      params: row.params,
      actions: row.actions,
      rounding: row.rounding,
    });
    expect(v.totalStake).toBe(row.betAmount);
    expect(v.totalPayout).toBe(row.payout);
    expect(v.view).toEqual(row.outcome);
    await room.leave();
  });
});
