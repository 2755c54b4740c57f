import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sqlRows } from "../src/platform/db/sql";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const get = async (path: string, token: string) => {
  const res = await t.request("GET", path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as any;
};
const historyOf = async (playerId: string, token: string, query = "") =>
  (await get(`/api/player/${playerId}/history?limit=100${query ? `&${query}` : ""}`, token)) as { items: any[]; nextBefore: string | null };

/** Finished rounds as the database stores them, at the given times (a record only: no coins move). */
async function insertRounds(playerId: string, rows: { game: string; result: string; stake: number; payout: number; at: string }[]) {
  await t.app.services.db.run((em) =>
    sqlRows(
      em,
      `INSERT INTO game_sessions (player_id, game_type, amount, bet_amount, result, payout, params, actions, outcome, created_at)
       SELECT $1, r.game, r.stake, r.stake, r.result, r.payout, '{}'::jsonb, '[]'::jsonb, '{}'::jsonb, r.at
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::timestamptz[]) AS r(game, result, stake, payout, at)`,
      [
        playerId,
        rows.map((r) => r.game),
        rows.map((r) => r.result),
        rows.map((r) => r.stake),
        rows.map((r) => r.payout),
        rows.map((r) => r.at),
      ],
    ),
  );
}

describe("the player's summary", () => {
  it("equals the sums of the player's history after real rounds, with the biggest win's seeds and the favourite game", async () => {
    const { token, player } = await t.guest();
    const empty = await get(`/api/player/${player.id}/summary`, token);
    expect(empty).toEqual({ rounds: 0, wagered: 0, net: 0, biggestWin: null, favouriteGame: null });

    const { room, inbox } = await joinCasino(t, token);
    // Likely wins and likely losses of two games, three dice rounds to one coin flip.
    const bets = [
      { game: "dice", amount: 10, params: { target: 90, direction: "under" } },
      { game: "dice", amount: 7, params: { target: 10, direction: "under" } },
      { game: "coin-flip", amount: 5, params: { side: "heads" } },
      { game: "dice", amount: 3, params: { target: 95, direction: "under" } },
    ];
    for (const bet of bets) {
      const answer = await ask(room, inbox, "bet", bet);
      expect(answer.type, JSON.stringify(answer.body)).toBe("result");
    }
    // a daily spin is in the history, but it is no round: the totals leave it out
    const spin = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } });
    expect(spin.status, JSON.stringify(spin.body)).toBe(200);

    const history = await historyOf(player.id, token);
    expect(history.items).toHaveLength(bets.length + 1);
    const rounds = history.items.filter((i) => i.kind === "round");
    const summary = await get(`/api/player/${player.id}/summary`, token);
    expect(summary.rounds).toBe(rounds.length);
    expect(summary.wagered).toBe(rounds.reduce((sum, i) => sum + i.betAmount, 0));
    expect(summary.wagered).toBe(25);
    expect(summary.net).toBe(rounds.reduce((sum, i) => sum + i.payout - i.betAmount, 0));
    expect(summary.favouriteGame).toEqual({ gameType: "dice", rounds: 3 });
    const wins = rounds.filter((i) => i.payout > i.betAmount);
    const best = Math.max(...wins.map((i) => i.payout - i.betAmount));
    if (wins.length === 0) expect(summary.biggestWin).toBeNull();
    else {
      expect(summary.biggestWin.payout - summary.biggestWin.betAmount).toBe(best);
      // the very row of the history, with what its verify link needs
      expect(summary.biggestWin).toEqual(rounds.find((i) => i.id === summary.biggestWin.id));
      expect(summary.biggestWin.fairness.serverSeed).toBeNull();
    }

    // once the pair is rotated, the biggest win carries its revealed server seed
    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");
    const after = await get(`/api/player/${player.id}/summary`, token);
    if (wins.length > 0) expect(after.biggestWin.fairness.serverSeed).toBe(rotated.body.revealed.serverSeed);
    await room.leave();
  });

  it("picks the largest win, not the largest payout, and the most played game", async () => {
    const { token, player } = await t.guest();
    await insertRounds(player.id, [
      { game: "slots", result: "win", stake: 100, payout: 150, at: "2026-03-01T00:00:00Z" },
      { game: "slots", result: "lose", stake: 40, payout: 0, at: "2026-03-01T00:00:01Z" },
      { game: "limbo", result: "win", stake: 10, payout: 90, at: "2026-03-01T00:00:02Z" },
      { game: "limbo", result: "push", stake: 10, payout: 10, at: "2026-03-01T00:00:03Z" },
      { game: "limbo", result: "lose", stake: 10, payout: 0, at: "2026-03-01T00:00:04Z" },
    ]);
    const summary = await get(`/api/player/${player.id}/summary`, token);
    expect(summary).toMatchObject({ rounds: 5, wagered: 170, net: 250 - 170, favouriteGame: { gameType: "limbo", rounds: 3 } });
    expect(summary.biggestWin).toMatchObject({ gameType: "limbo", betAmount: 10, payout: 90 });
  });

  it("is the player's own: another player's summary is refused", async () => {
    const a = await t.guest();
    const b = await t.guest();
    const refused = await t.request("GET", `/api/player/${a.player.id}/summary`, { token: b.token });
    const history = await t.request("GET", `/api/player/${a.player.id}/history`, { token: b.token });
    expect(refused.status).toBe(403);
    expect(history.status).toBe(403);
    expect((await t.request("GET", `/api/player/${a.player.id}/summary`, {})).status).toBe(401);
  });
});

describe("history filters", () => {
  const rows = [
    { game: "dice", result: "win", stake: 10, payout: 20, at: "2026-04-01T10:00:00Z" },
    { game: "dice", result: "lose", stake: 10, payout: 0, at: "2026-04-02T10:00:00Z" },
    { game: "slots", result: "push", stake: 5, payout: 5, at: "2026-04-03T10:00:00Z" },
    { game: "dice", result: "lose", stake: 10, payout: 0, at: "2026-04-04T10:00:00Z" },
    { game: "slots", result: "win", stake: 5, payout: 50, at: "2026-04-05T10:00:00Z" },
  ];
  const times = (page: { items: any[] }) => page.items.map((i) => i.createdAt.slice(0, 10));

  it("filters by game, result and dates, together and while paging", async () => {
    const { token, player } = await t.guest();
    await insertRounds(player.id, rows);
    expect(times(await historyOf(player.id, token, "game=dice"))).toEqual(["2026-04-04", "2026-04-02", "2026-04-01"]);
    expect(times(await historyOf(player.id, token, "result=win"))).toEqual(["2026-04-05", "2026-04-01"]);
    expect(times(await historyOf(player.id, token, "result=push"))).toEqual(["2026-04-03"]);
    expect(times(await historyOf(player.id, token, "game=dice&result=lose"))).toEqual(["2026-04-04", "2026-04-02"]);
    // from is included, to is not
    const span = `from=${encodeURIComponent("2026-04-02T10:00:00Z")}&to=${encodeURIComponent("2026-04-04T10:00:00Z")}`;
    expect(times(await historyOf(player.id, token, span))).toEqual(["2026-04-03", "2026-04-02"]);
    expect(times(await historyOf(player.id, token, `from=${encodeURIComponent("2026-04-04T00:00:00+02:00")}`))).toEqual([
      "2026-04-05",
      "2026-04-04",
    ]);
    expect(times(await historyOf(player.id, token, "game=limbo"))).toEqual([]);

    // pages of one through the dice rounds: each once, no other game
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page = (await get(
        `/api/player/${player.id}/history?limit=1&game=dice${before ? `&before=${encodeURIComponent(before)}` : ""}`,
        token,
      )) as { items: any[]; nextBefore: string | null };
      seen.push(...times(page));
      expect(page.items.every((i) => i.gameType === "dice")).toBe(true);
      before = page.nextBefore;
    } while (before !== null && seen.length < 10);
    expect(seen).toEqual(["2026-04-04", "2026-04-02", "2026-04-01"]);
  });

  it("finds daily spins by their game and as wins only", async () => {
    const { token, player } = await t.guest();
    const spin = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } });
    expect(spin.status, JSON.stringify(spin.body)).toBe(200);
    await insertRounds(player.id, rows.slice(0, 2));
    expect((await historyOf(player.id, token, "game=daily-spin")).items.map((i) => i.kind)).toEqual(["daily_spin"]);
    expect((await historyOf(player.id, token, "result=lose")).items.map((i) => i.kind)).toEqual(["round"]);
    expect((await historyOf(player.id, token, "result=win")).items.map((i) => i.kind)).toEqual(["daily_spin", "round"]);
  });

  it("gives the summary's totals under the same filters as the history's rows", async () => {
    const { token, player } = await t.guest();
    const spin = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } });
    expect(spin.status, JSON.stringify(spin.body)).toBe(200);
    await insertRounds(player.id, rows);
    const summaryOf = (query: string) => get(`/api/player/${player.id}/summary?${query}`, token);
    const span = `from=${encodeURIComponent("2026-04-02T10:00:00Z")}&to=${encodeURIComponent("2026-04-05T10:00:00Z")}`;
    for (const query of ["", "game=dice", "game=slots", "result=win", "result=lose", "game=dice&result=lose", span, `game=slots&${span}`]) {
      // the rounds of the history page that answers the same filter, summed here
      const listed = (await historyOf(player.id, token, query)).items.filter((i) => i.kind === "round");
      const summary = await summaryOf(query);
      expect(summary.rounds, query).toBe(listed.length);
      expect(summary.wagered, query).toBe(listed.reduce((sum, i) => sum + i.betAmount, 0));
      expect(summary.net, query).toBe(listed.reduce((sum, i) => sum + i.payout - i.betAmount, 0));
    }
    // the figures themselves, not only their agreement with the history
    expect(await summaryOf("game=dice")).toMatchObject({
      rounds: 3,
      wagered: 30,
      net: -10,
      favouriteGame: { gameType: "dice", rounds: 3 },
    });
    expect((await summaryOf("game=dice")).biggestWin).toMatchObject({ gameType: "dice", payout: 20 });
    expect(await summaryOf("result=lose")).toMatchObject({ rounds: 2, wagered: 20, net: -20, biggestWin: null });
    expect(await summaryOf(span)).toMatchObject({
      rounds: 3,
      wagered: 25,
      net: -20,
      biggestWin: null,
      favouriteGame: { gameType: "dice", rounds: 2 },
    });
    // the wheel's spins are no rounds: its game has none to sum
    expect(await summaryOf("game=daily-spin")).toEqual({ rounds: 0, wagered: 0, net: 0, biggestWin: null, favouriteGame: null });
    expect(await summaryOf("")).toMatchObject({ rounds: 5, wagered: 40, net: 75 - 40 });
  });

  it("refuses a bad summary filter with the history's 400", async () => {
    const { token, player } = await t.guest();
    for (const [query, message] of [
      ["game=roulette-royale", "game must be a game's id, daily-spin or holdem"],
      ["result=won", "result must be win, lose or push"],
      ["from=yesterday", "from must be an ISO 8601 time with its offset"],
      [
        `from=${encodeURIComponent("2026-04-03T00:00:00Z")}&to=${encodeURIComponent("2026-04-02T00:00:00Z")}`,
        "from must be earlier than to",
      ],
    ]) {
      const res = await t.request("GET", `/api/player/${player.id}/summary?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(message);
    }
  });

  it("refuses a bad filter with a precise 400", async () => {
    const { token, player } = await t.guest();
    await insertRounds(player.id, rows);
    const cases: [string, string][] = [
      ["game=roulette-royale", "game must be a game's id, daily-spin or holdem"],
      ["result=won", "result must be win, lose or push"],
      ["from=yesterday", "from must be an ISO 8601 time with its offset"],
      ["to=2026-04-02", "to must be an ISO 8601 time with its offset"],
      [
        `from=${encodeURIComponent("2026-04-03T00:00:00Z")}&to=${encodeURIComponent("2026-04-03T00:00:00Z")}`,
        "from must be earlier than to",
      ],
    ];
    for (const [query, message] of cases) {
      const res = await t.request("GET", `/api/player/${player.id}/history?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(message);
    }
    expect((await historyOf(player.id, token)).items).toHaveLength(rows.length);
  });
});
