import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyRound } from "@casino/common";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { ask, joinCasino, newRequestId, waitFor } from "./room-helpers";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    BET_RATE_PER_SECOND: "100000",
    SEED_CHANGES_PER_MINUTE: "100000",
    DAILY_SPINS_PER_MINUTE: "100000",
    ROOM_MAX_MESSAGES_PER_SECOND: "100000",
  });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

/** Open rounds whose server seed has been revealed: the one thing that must never exist. */
const exposedRounds = async (playerId: string) =>
  Number(
    (
      await t.sql(
        `SELECT count(*)::int AS n FROM open_rounds r JOIN fairness_seeds s ON s.id = r.seed_id WHERE r.player_id = $1 AND s.revealed_at IS NOT NULL`,
        [playerId],
      )
    )[0].n,
  );

type Connection = Awaited<ReturnType<typeof joinCasino>>;

/** Sends without waiting; the answer is awaited later. */
function send(c: Connection, type: string, body: Record<string, unknown>) {
  const requestId = newRequestId();
  c.room.send(type, { ...body, requestId });
  return c.inbox.answer(requestId);
}

/** Actions that move each game of these tests towards its end, in order of preference. */
function nextActions(game: string, state: any): unknown[] {
  if (game === "mines") return [{ type: "reveal", tile: [...Array(25).keys()].find((tile) => !state.revealed.includes(tile)) }];
  if (game === "hi-lo") return state.correct > 0 ? [{ type: "cashout" }] : [{ type: "higher" }, { type: "lower" }];
  return state.phase === "insurance" ? [{ type: "insurance", take: false }] : [{ type: "stand" }];
}

/** Plays the player's open round (if any) to its end. */
async function finishOpenRound(c: Connection, playerId: string) {
  for (let i = 0; i < 50; i++) {
    const [round] = await t.sql(`SELECT game, state FROM open_rounds WHERE player_id = $1`, [playerId]);
    if (!round) return;
    const replies = [];
    for (const action of nextActions(round.game, round.state)) {
      const reply = await ask(c.room, c.inbox, "act", { action });
      replies.push(reply.body);
      if (reply.type === "result") break;
    }
    expect(
      replies.some((r) => r.code === undefined),
      JSON.stringify(replies),
    ).toBe(true);
  }
  throw new Error("the open round did not finish");
}

/**
 * Tries of each race: PostgreSQL runs the transactions side by side, where the races happen; PGlite runs
 * them one after the other through its queue, where a few tries prove the queue keeps the same rules.
 */
const TRIES = TEST_DB === "postgres" ? { rotation: 20, deadlock: 40 } : { rotation: 5, deadlock: 10 };

describe("seed rotation racing a multi-step bet", () => {
  it(`never reveals the seed of an open round (two connections, ${TRIES.rotation} tries)`, async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    let exposed = 0;
    for (let i = 0; i < TRIES.rotation; i++) {
      const [opened, rotated] = await Promise.all([
        send(a, "bet", { game: "mines", amount: 2, params: { mines: 24 } }),
        send(b, "seed:rotate", {}),
      ]);
      exposed += await exposedRounds(player.id);
      expect(opened.type, JSON.stringify(opened.body)).toBe("result");
      // Either the rotation came first (the round then uses the promoted seed) or it was refused.
      if (rotated.type === "error") expect(rotated.body.code).toBe("round_open");
      else expect(opened.body.fairness.serverSeedHash).not.toBe(rotated.body.revealed.serverSeedHash);
      await finishOpenRound(a, player.id);
    }
    expect(exposed).toBe(0);
    await a.room.leave();
    await b.room.leave();
  });

  it("voids, with a refund, an open round whose seed is no longer active, instead of continuing it", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const opened = await ask(c.room, c.inbox, "bet", { game: "mines", amount: 72, params: { mines: 3 } });
    expect(opened.body.done).toBe(false);
    // What the rotation race used to leave behind: the round's seed revealed, another pair active.
    await t.sql(`UPDATE fairness_seeds SET active = false, revealed_at = now() WHERE player_id = $1 AND active`, [player.id]);
    await t.sql(`INSERT INTO fairness_seeds (player_id, server_seed, server_seed_hash, client_seed) VALUES ($1, $2, 'x', 'y')`, [
      player.id,
      randomBytes(32).toString("hex"),
    ]);
    const act = await ask(c.room, c.inbox, "act", { action: { type: "reveal", tile: 7 } });
    expect(act.type).toBe("result");
    expect(act.body).toMatchObject({
      done: true,
      voided: true,
      stake: 0,
      payout: 72,
      totalStake: 72,
      totalPayout: 72,
      result: "push",
      balance: 1000,
    });
    expect(act.body.view.revealed).toEqual([]); // the reveal was never applied
    expect(await t.balanceOf(player.id)).toBe(1000);
    expect((await t.sql(`SELECT count(*)::int AS n FROM open_rounds WHERE player_id = $1`, [player.id]))[0].n).toBe(0);
    const [entry] = await t.sql(`SELECT delta, reason FROM ledger_entries WHERE player_id = $1 ORDER BY id DESC LIMIT 1`, [player.id]);
    expect([Number(entry.delta), entry.reason]).toEqual([72, "refund"]);
    await c.room.leave();
  });
});

describe("one connection's money messages", () => {
  it("run in the order they were sent: a bet, then acts and a rotation behind it", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    for (let i = 0; i < 10; i++) {
      const opened = send(c, "bet", { game: "mines", amount: 2, params: { mines: 24 } });
      const rotate = send(c, "seed:rotate", {});
      const reveal = send(c, "act", { action: { type: "reveal", tile: i } });
      const rotateAfter = send(c, "seed:rotate", {});
      expect((await opened).body.done).toBe(false);
      expect((await rotate).body.code).toBe("round_open");
      expect((await reveal).body).toMatchObject({ done: true, roundId: (await opened).body.roundId });
      expect((await rotateAfter).type).toBe("result");
    }
    expect(await exposedRounds(player.id)).toBe(0);
    await c.room.leave();
  });
});

describe("daily spin racing bets", () => {
  it(`surfaces no deadlock: 1 spin and 4 bets at once, ${TRIES.deadlock} tries`, async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    const codes: string[] = [];
    for (let i = 0; i < TRIES.deadlock; i++) {
      await t.sql(`UPDATE players SET last_daily_spin = NULL WHERE id = $1`, [player.id]);
      const dice = { game: "dice", amount: 1, params: { target: 49.5, direction: "under" } };
      const answers = await Promise.all([
        send(b, "daily-spin", {}),
        send(a, "bet", dice),
        send(b, "bet", dice),
        send(a, "bet", dice),
        send(b, "bet", dice),
      ]);
      for (const answer of answers) if (answer.type === "error") codes.push(answer.body.code);
    }
    expect(codes).toEqual([]);
    await a.room.leave();
    await b.room.leave();
  });
});

describe.runIf(TEST_DB === "postgres")("Database.transaction", () => {
  it("runs a transaction PostgreSQL aborted for a deadlock again, so both sides complete", async () => {
    // Two locks no other work takes: advisory locks of keys drawn for this test. Two new players' rows
    // would also be locked by the server's own work (the daily-spin reminders' sweep updates both in one
    // statement), which can deadlock with a unit a second time and count a try that is not the retry's.
    const base = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
    const [x, y] = [base, base + 1];
    let tries = 0;
    let holding = 0;
    let bothHold!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHold = resolve));
    // Two units that take two locks in opposite orders: the textbook deadlock, on the first try only.
    const unit = (first: number, second: number) =>
      t.app.services.db.transaction(async (em) => {
        tries += 1;
        await em.query(`SELECT pg_advisory_xact_lock($1)`, [first]);
        if (tries <= 2) {
          if (++holding === 2) bothHold();
          await barrier;
        }
        await em.query(`SELECT pg_advisory_xact_lock($1)`, [second]);
        return first;
      });
    expect(await Promise.all([unit(x, y), unit(y, x)])).toEqual([x, y]);
    // The deadlock's victim ran again, once.
    expect(tries).toBe(3);
  });
});

describe("everything at once", () => {
  it("multi-step bets, rotations, client seeds, daily spins (room and REST) and acts from two connections: no exposed seed, no error, ledger intact", async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    let exposedSeen = 0;
    let monitoring = true;
    const monitor = (async () => {
      while (monitoring) {
        exposedSeen += await exposedRounds(player.id);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    // Refusals the players' own timing explains; anything else (internal, outcome_unknown, a 500) is a failure.
    const expected = new Set([
      "round_open",
      "no_open_round",
      "already_spun",
      "invalid_action",
      "insurance_pending",
      "round_over",
      "certain_guess",
      "insufficient_funds",
    ]);
    const unexpected: unknown[] = [];
    const iterations = 12;
    for (let i = 0; i < iterations; i++) {
      await t.sql(`UPDATE players SET last_daily_spin = NULL WHERE id = $1`, [player.id]);
      const room = await Promise.all([
        send(a, "bet", { game: "mines", amount: 2, params: { mines: 24 } }),
        send(b, "seed:rotate", {}),
        send(a, "seed:client", { clientSeed: `soak-a-${i}` }),
        send(b, "daily-spin", {}),
        send(b, "act", { action: { type: "reveal", tile: i % 25 } }),
        send(a, "bet", { game: "blackjack", amount: 3, params: {} }),
        send(b, "seed:client", { clientSeed: `soak-b-${i}` }),
        send(a, "daily-spin", {}),
        send(a, "act", { action: { type: "stand" } }),
        send(b, "bet", { game: "hi-lo", amount: 1, params: {} }),
        send(b, "act", { action: { type: "higher" } }),
      ]);
      const rest = await Promise.all([
        t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } }),
        t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id, requestId: newRequestId() } }),
      ]);
      for (const answer of room) if (answer.type === "error" && !expected.has(answer.body.code)) unexpected.push(answer.body);
      for (const answer of rest) if (answer.status !== 200 && answer.body.code !== "already_spun") unexpected.push(answer.body);
      expect(room.filter((x) => x.type === "spin").length + rest.filter((x) => x.status === 200).length).toBe(1);
      await finishOpenRound(a, player.id);
    }
    monitoring = false;
    await monitor;
    expect(unexpected).toEqual([]);
    expect(exposedSeen).toBe(0);

    // Every finished round and every daily spin re-derives from its seed once revealed.
    expect((await ask(a.room, a.inbox, "seed:rotate", {})).type).toBe("result");
    const history = await t.request("GET", `/api/player/${player.id}/history?limit=100`, { token });
    expect(history.body.items.filter((item: { kind: string }) => item.kind === "round").length).toBeGreaterThanOrEqual(iterations);
    for (const item of history.body.items) {
      expect(item.fairness.serverSeed).toBeTruthy();
      const replay = verifyRound({
        serverSeed: item.fairness.serverSeed,
        clientSeed: item.fairness.clientSeed,
        nonce: item.fairness.nonce,
        game: item.gameType,
        amount: item.amount ?? undefined,
        params: item.params,
        actions: item.actions,
        rounding: item.rounding,
      });
      expect(replay.totalPayout).toBe(item.payout);
    }
    await a.room.leave();
    await b.room.leave();
  });
});

describe.runIf(TEST_DB === "postgres")("database timeouts (PostgreSQL)", () => {
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const dbName = `casino_timeouts_${process.pid}_${randomBytes(4).toString("hex")}`;
  let proxy: TcpProxy;
  let slow: TestApp;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const target = new URL(adminUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(adminUrl);
    url.port = String(proxy.port);
    url.pathname = `/${dbName}`;
    slow = await startTestApp(
      {
        DATABASE_URL: url.toString(),
        BET_RATE_PER_SECOND: "1000",
        DB_CONNECT_TIMEOUT_MS: "3000",
        DB_STATEMENT_TIMEOUT_MS: "1000",
        DB_QUERY_TIMEOUT_MS: "2500",
        DB_HEALTH_TIMEOUT_MS: "300",
      },
      { redis: false },
    );
  });
  afterAll(async () => {
    proxy?.thaw();
    await slow?.close();
    await proxy?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it("a bet stuck behind a lock answers outcome_unknown, and its retry with the same id charges once", async () => {
    const { token, player } = await slow.guest();
    const c = await joinCasino(slow, token);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query(`SELECT 1 FROM players WHERE id = $1 FOR UPDATE`, [player.id]);
    const requestId = newRequestId();
    const bet = { requestId, game: "coin-flip", amount: 25, params: { side: "heads" } };
    c.room.send("bet", bet);
    const stuck = await c.inbox.answer(requestId);
    await holder.query("ROLLBACK");
    await holder.end();
    expect(stuck.type).toBe("error");
    expect(stuck.body.code).toBe("outcome_unknown");
    expect(stuck.body.message).toMatch(/outcome is unknown.*same requestId/);
    const retried = await retryUntilKnown(c, bet);
    expect(retried.type).toBe("result");
    expect(
      await slow.app.services.db.run(async (em) =>
        Number((await em.query(`SELECT balance FROM players WHERE id = $1`, [player.id]))[0].balance),
      ),
    ).toBe(1000 - 25 + retried.body.payout);
    await slow.expectLedgerInvariant();
    await c.room.leave();
  });

  it("with the database frozen, health says down and a bet is refused at once as unavailable; after it thaws the retry is applied once", async () => {
    const { token, player } = await slow.guest();
    const c = await joinCasino(slow, token);
    proxy.freeze();
    const health = await slow.request("GET", "/api/health");
    expect(health.status).toBe(503);
    expect(health.body.database).toBe("down");
    const requestId = newRequestId();
    const bet = { requestId, game: "dice", amount: 10, params: { target: 49.5, direction: "under" } };
    c.room.send("bet", bet);
    // The health check opened the database breaker: nothing is sent to the database meanwhile.
    const refused = await c.inbox.answer(requestId);
    expect(refused.body.code).toBe("unavailable");
    proxy.thaw();
    const retried = await retryUntilKnown(c, bet);
    expect(retried.type, JSON.stringify(retried.body)).toBe("result");
    const bets = await slow.app.services.db.run((em) =>
      em.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND reason = 'bet'`, [player.id]),
    );
    expect(bets[0].n).toBe(1);
    await slow.expectLedgerInvariant();
    await c.room.leave();
  });
});

/** What a client does with outcome_unknown: send the same request again until the outcome is known. */
async function retryUntilKnown(c: Connection, bet: { requestId: string } & Record<string, unknown>) {
  const answers = () =>
    c.inbox.messages.filter(
      (m: { type: string; body: any }) => m.body?.requestId === bet.requestId && ["result", "error"].includes(m.type),
    );
  for (let attempt = 0; attempt < 20; attempt++) {
    const seen = answers().length;
    c.room.send("bet", bet);
    await waitFor(() => answers().length > seen, 15_000);
    const answer = answers()[seen]!;
    // unavailable: refused before anything was sent (the database breaker is still open); try again shortly.
    if (answer.body.code === "unavailable") await new Promise((r) => setTimeout(r, 100));
    else if (answer.body.code !== "outcome_unknown") return answer;
  }
  throw new Error("the outcome stayed unknown");
}
