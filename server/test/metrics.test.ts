import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as SdkClient, type Room } from "@colyseus/sdk";
import { casesOf } from "../../common/test/games/cases";
import { Adjustments } from "../src/admin/adjustments";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { playRound } from "./ledger-audit";
import { Inbox, ask, joinCasino } from "./room-helpers";

const TOKEN = "metrics-token-for-the-test-0123";

/** One scrape: every sample by its series as printed (`name{label="value",...}`). */
type Scrape = Map<string, number>;

async function scrape(t: TestApp, token: string | null = TOKEN): Promise<{ status: number; samples: Scrape; text: string }> {
  const res = await fetch(`${t.baseUrl}/metrics`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const samples: Scrape = new Map();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return { status: res.status, samples, text };
}

/** How much each series moved between two scrapes (series that did not exist before count from 0). */
function moved(before: Scrape, after: Scrape, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [series, value] of after) {
    if (!series.startsWith(prefix)) continue;
    const delta = value - (before.get(series) ?? 0);
    if (delta !== 0) out[series] = delta;
  }
  return out;
}

/** Sends a request whose id was used before, and waits for the answer to this sending. */
async function askAgain(room: Room, inbox: Inbox, type: string, body: { requestId: string } & Record<string, unknown>) {
  const seen = inbox.messages.length;
  room.send(type, body);
  return inbox.wait((m) => inbox.messages.indexOf(m) >= seen && m.body?.requestId === body.requestId);
}

const outcomeOf = (answer: { result: string | null; voided?: true }) => (answer.voided ? "void" : (answer.result ?? "open"));

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN: TOKEN, SEED_CHANGES_PER_MINUTE: "2" });
});
afterAll(async () => t?.close());

describe("GET /metrics", () => {
  it("answers only the bearer of METRICS_TOKEN", async () => {
    expect((await scrape(t, null)).status).toBe(401);
    expect((await scrape(t, "metrics-token-for-the-test-0124")).status).toBe(401);
    expect((await scrape(t, TOKEN.slice(0, -1))).status).toBe(401);
    const ok = await scrape(t);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain("# TYPE casino_bets_total counter");
  });

  it("moves each counter by exactly what was played", async () => {
    const before = (await scrape(t)).samples;
    const { token } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const refused = new SdkClient(t.wsUrl);
    refused.auth.token = "not-a-session-token";
    await expect(refused.create("casino")).rejects.toMatchObject({ code: 401 });

    const bets: Record<string, number> = {};
    const actions: Record<string, number> = {};
    const count = (into: Record<string, number>, game: string, answer: { result: string | null; voided?: true }) => {
      const series = `{game="${game}",outcome="${outcomeOf(answer)}"}`;
      into[series] = (into[series] ?? 0) + 1;
    };
    let moneyRequests = 0;
    let betMessages = 0;
    for (let i = 0; i < 6; i++) {
      const answer = await ask(room, inbox, "bet", { game: "coin-flip", amount: 100, params: { side: "heads" } });
      expect(answer.type, JSON.stringify(answer.body)).toBe("result");
      count(bets, "coin-flip", answer.body);
      moneyRequests++;
      betMessages++;
    }
    const dice = await ask(room, inbox, "bet", { game: "dice", amount: 100, params: { target: 50, direction: "under" } });
    count(bets, "dice", dice.body);
    moneyRequests++;
    betMessages++;

    // A round of mines: the bet opens it, actions go on until it is over.
    const opened = await ask(room, inbox, "bet", { game: "mines", amount: 100, params: { mines: 3 } });
    expect(opened.body.done).toBe(false);
    count(bets, "mines", opened.body);
    moneyRequests++;
    betMessages++;
    let step = await ask(room, inbox, "act", { action: { type: "reveal", tile: 12 } });
    count(actions, "mines", step.body);
    moneyRequests++;
    if (!step.body.done) {
      step = await ask(room, inbox, "act", { action: { type: "cashout" } });
      count(actions, "mines", step.body);
      moneyRequests++;
    }
    expect(step.body.done).toBe(true);

    // Refused by the ledger: more than the balance; a request id used before for another bet.
    const poor = await ask(room, inbox, "bet", { game: "dice", amount: 1_000_000, params: { target: 50, direction: "under" } });
    expect(poor.body.code).toBe("insufficient_funds");
    const reused = await askAgain(room, inbox, "bet", {
      requestId: dice.body.requestId,
      game: "dice",
      amount: 101,
      params: { target: 50, direction: "under" },
    });
    expect(reused.body.code).toBe("request_id_reused");
    // The same bet again is answered with its first answer: it moves nothing and counts as no bet.
    const replayed = await askAgain(room, inbox, "bet", {
      requestId: dice.body.requestId,
      game: "dice",
      amount: 100,
      params: { target: 50, direction: "under" },
    });
    expect(replayed.body.replayed).toBe(true);
    moneyRequests += 3;
    betMessages += 3;
    // An invalid message never reaches the ledger, nor the clock.
    expect((await ask(room, inbox, "bet", { game: "dice", amount: -5, params: {} })).body.code).toBe("invalid_message");

    // Two seed rotations a minute: the third is refused by the room's budget.
    for (const expected of ["result", "result", "error"]) {
      const rotation = await ask(room, inbox, "seed:rotate", {});
      expect(rotation.type).toBe(expected);
    }
    moneyRequests += 2;

    await t.app.services.leaderboards.catchUp();
    const during = (await scrape(t)).samples;

    expect(moved(before, during, "casino_bets_total")).toEqual(
      Object.fromEntries(Object.entries(bets).map(([series, n]) => [`casino_bets_total${series}`, n])),
    );
    expect(moved(before, during, "casino_round_actions_total")).toEqual(
      Object.fromEntries(Object.entries(actions).map(([series, n]) => [`casino_round_actions_total${series}`, n])),
    );
    expect(moved(before, during, "casino_ledger_errors_total")).toEqual({
      'casino_ledger_errors_total{code="insufficient_funds"}': 1,
      'casino_ledger_errors_total{code="request_id_reused"}': 1,
    });
    // One at a time, each request was a batch of its own, and every batch committed.
    expect(moved(before, during, "casino_group_commit_batch_size_sum")).toEqual({ casino_group_commit_batch_size_sum: moneyRequests });
    expect(moved(before, during, "casino_group_commit_batch_size_count")).toEqual({
      casino_group_commit_batch_size_count: moneyRequests,
    });
    expect(moved(before, during, "casino_group_commit_commits_total")).toEqual({ casino_group_commit_commits_total: moneyRequests });
    expect(moved(before, during, "casino_group_commit_failures_total")).toEqual({});
    expect(moved(before, during, 'casino_room_request_duration_seconds_count{message="bet"}')).toEqual({
      'casino_room_request_duration_seconds_count{message="bet"}': betMessages,
    });
    expect(moved(before, during, 'casino_room_request_duration_seconds_count{message="act"}')).toEqual({
      'casino_room_request_duration_seconds_count{message="act"}': Object.values(actions).reduce((a, b) => a + b, 0),
    });
    expect(moved(before, during, "casino_rate_limit_refusals_total")).toEqual({ 'casino_rate_limit_refusals_total{limit="seed"}': 1 });
    expect(moved(before, during, "casino_matchmaking_")).toEqual({
      'casino_matchmaking_joins_total{room="casino"}': 1,
      'casino_matchmaking_refusals_total{room="casino",code="401"}': 1,
    });

    expect(during.get('casino_rooms{room="casino"}')).toBe(1);
    expect(during.get('casino_room_clients{room="casino"}')).toBe(1);
    expect(during.get("casino_connected_players")).toBe(1);
    expect(during.get('casino_redis_up{connection="app"}')).toBe(1);
    if (t.app.services.config.redisUrl) {
      for (const connection of ["boards", "presence", "matchmaking"])
        expect(during.get(`casino_redis_up{connection="${connection}"}`)).toBe(1);
    }
    if (TEST_DB === "postgres") {
      expect(during.get("casino_db_pool_waiting")).toBe(0);
      expect(during.get("casino_db_pool_in_use")).toBeGreaterThanOrEqual(0);
    }
    // Caught up: every ledger entry is on the boards' consumer's side.
    expect(during.get("casino_leaderboard_consumer_lag_entries")).toBe(0);
    expect(during.get("casino_leaderboard_consumer_lag_seconds")).toBe(0);
    // This month's partitions and the next two months' are made (at start, then by the sweep).
    expect(during.get("casino_partition_months_ahead")).toBe(2);
    expect(during.has("nodejs_eventloop_lag_p99_seconds")).toBe(true);

    await room.leave();
    // The room is disposed once its one client has left.
    let after = during;
    for (let tries = 0; after.get('casino_rooms{room="casino"}') !== 0; tries++) {
      expect(tries).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 50));
      after = (await scrape(t)).samples;
    }
    expect(after.get('casino_room_clients{room="casino"}')).toBe(0);
    expect(after.get("casino_connected_players")).toBe(0);
    await t.expectLedgerInvariant();
  });

  it("counts a player's connections, and the player once, through a dropped socket, its reconnection and the leaving", async () => {
    const clients = 'casino_room_clients{room="casino"}';
    const players = "casino_connected_players";
    const before = (await scrape(t)).samples;
    const base = { clients: before.get(clients) ?? 0, players: before.get(players) ?? 0 };
    /** Scrapes until both gauges read `clients` and `players` more than before. */
    const reads = async (more: { clients: number; players: number }) => {
      for (let tries = 0; ; tries++) {
        const samples = (await scrape(t)).samples;
        const read = { clients: (samples.get(clients) ?? 0) - base.clients, players: (samples.get(players) ?? 0) - base.players };
        if (read.clients === more.clients && read.players === more.players) return samples;
        if (tries >= 200) expect(read).toEqual(more);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const { token } = await t.guest();
    const first = await joinCasino(t, token);
    const second = await joinCasino(t, token);
    const during = await reads({ clients: 2, players: 1 });
    // The defaults that visit every connection's handle or descriptor at each scrape are left out.
    for (const name of ["process_open_fds", "nodejs_active_handles", "nodejs_active_handles_total", "nodejs_active_resources"])
      expect(during.has(name)).toBe(false);
    expect(during.has("process_resident_memory_bytes")).toBe(true);

    // The socket drops: the room keeps the seat for a reconnection, and lists the client again once it comes.
    second.room.reconnection.enabled = false;
    const left = new Promise<void>((resolve) => second.room.onLeave.once(() => resolve()));
    (second.room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await left;
    await reads({ clients: 1, players: 1 });
    const back = await new SdkClient(t.wsUrl).reconnect(second.room.reconnectionToken);
    expect(back.roomId).toBe(second.room.roomId);
    await reads({ clients: 2, players: 1 });

    await back.leave();
    await reads({ clients: 1, players: 1 });
    await first.room.leave();
    await reads({ clients: 0, players: 0 });
  });

  it("reports the house's result per game and the coins minted per source, as the rounds and grants recorded them", async () => {
    const { player } = await t.guest();
    for (const game of ["dice", "hi-lo"]) await playRound(t.app.services.ledger, player.id, game, casesOf(game).plays[0]!);
    await new Adjustments(t.app.services.db, t.app.services.announcements).adjust({
      playerId: player.id,
      requestId: `grant-${randomUUID()}`,
      kind: "grant",
      amount: 120,
      reason: "metrics test",
      operator: "tester",
    });
    const sql = (text: string) => t.app.services.db.run((em) => em.query(text));
    const rounds: { game: string; result: string }[] = await sql(
      `SELECT game_type AS game, sum(bet_amount - payout)::text AS result FROM game_sessions GROUP BY game_type`,
    );
    const [{ players }] = await sql(`SELECT count(*)::int AS players FROM players`);
    const expected: [string, number][] = [
      ...rounds.map((r): [string, number] => [`casino_house_result_coins{game="${r.game}"}`, Number(r.result)]),
      [`casino_minted_coins{source="starting-grant"}`, 1000 * players],
      [`casino_minted_coins{source="admin-grant"}`, 120],
    ];
    // The gauges are left out of a scrape whose read took more than a second (a loaded machine): scrape until they are in.
    let samples: Scrape = new Map();
    for (let tries = 0; tries < 20 && !samples.has(`casino_minted_coins{source="starting-grant"}`); tries++)
      samples = (await scrape(t)).samples;
    expect(expected.map(([series]) => [series, samples.get(series)])).toEqual(expected);
    await t.expectLedgerInvariant();
  });
});
