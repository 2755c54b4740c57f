import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as PgClient } from "pg";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startServerProcess } from "./server-process";
import { startTcpProxy } from "./tcp-proxy";
import { api, auditDatabase, guestOn, joinOn } from "./process-helpers";
import { ask, newRequestId, waitFor, type Inbox } from "./room-helpers";

/**
 * A PostgreSQL that hangs (it accepts connections and answers nothing), in front of the real server in
 * its own process: no money request waits longer than DB_QUERY_TIMEOUT_MS for it. The first batch that
 * gets no answer (or a health check that gets none) opens the database breaker: what was queued behind
 * that batch and what arrives later is refused at once with `unavailable`, until a probe is answered.
 * The hang is a TCP relay that stops forwarding, so the machine's PostgreSQL keeps running for others.
 */
const QUERY_TIMEOUT_MS = 3000;
const dice = { game: "dice", amount: 25, params: { target: 50, direction: "under" } };

describe.runIf(TEST_DB === "postgres")("a database that does not answer", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  });
  afterAll(async () => {
    await database?.drop();
    await redis?.release();
  });

  it("answers every bet within the query timeout, refuses new ones at once, and recovers when it answers again", async () => {
    const url = new URL(database.url!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const server = await startServerProcess({
      env: {
        DATABASE_URL: url.toString(),
        REDIS_URL: redis.url!,
        DB_CONNECT_TIMEOUT_MS: "2000",
        DB_STATEMENT_TIMEOUT_MS: "2500",
        DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
        DB_HEALTH_TIMEOUT_MS: "500",
      },
      name: "frozen-postgres",
    });
    const acknowledged = new Map<string, string>(); // request id -> player id, for every bet answered `result`
    const track = (playerId: string, requestId: string, answer: { type: string }) => {
      if (answer.type === "result") acknowledged.set(requestId, playerId);
    };
    try {
      const a = await guestOn(server);
      const b = await guestOn(server);
      const roomA = await joinOn(server, a.token);
      const roomB = await joinOn(server, b.token);
      const warm = await ask(roomA.room, roomA.inbox, "bet", dice);
      expect(warm.type).toBe("result");
      track(a.player.id, warm.body.requestId, warm);

      proxy.freeze();
      const answered: { label: string; type: string; code?: string; waitedMs: number }[] = [];
      const send = (label: string, room: { room: any; inbox: Inbox }, playerId: string, requestId = newRequestId()) => {
        const sent = performance.now();
        room.room.send("bet", { ...dice, requestId });
        return room.inbox.answer(requestId).then((answer) => {
          answered.push({
            label,
            type: answer.type,
            code: answer.body.code,
            waitedMs: Math.round(performance.now() - sent),
          });
          track(playerId, requestId, answer);
          return { requestId, answer };
        });
      };
      // A's first bet starts a batch that hangs; A's second queues behind it (one batch per player at a
      // time); B's starts a batch of its own beside it.
      const heldBefore = proxy.held;
      const first = send("A first", roomA, a.player.id);
      // Its batch has started when the frozen relay holds what it sent (its BEGIN).
      await waitFor(() => proxy.held > heldBefore);
      const queued = send("A queued", roomA, a.player.id);
      const beside = send("B beside", roomB, b.player.id);
      const health = await api(server, "GET", "/api/health");
      expect(health.status).toBe(503);
      expect(health.body.database).toBe("down");
      const late = await send("B after health said down", roomB, b.player.id);
      expect(late.answer.body).toMatchObject({
        code: "unavailable",
        message: "The casino is unavailable right now; please try again in a moment",
      });
      // Each is answered while the database is still frozen, within the query timeout and a margin of
      // its sending (queued behind the first batch, the second would wait two timeouts).
      const outcomes = await Promise.all([first, queued, beside]);
      proxy.thaw();
      console.log("answers while frozen:", JSON.stringify(answered));
      for (const entry of answered) {
        expect(entry.type, JSON.stringify(entry)).toBe("error");
        expect(entry.waitedMs, JSON.stringify(entry)).toBeLessThan(QUERY_TIMEOUT_MS + 1_500);
      }
      // The first batch's outcome is not known to the server; everything else was never sent.
      expect(["outcome_unknown", "unavailable"]).toContain(outcomes[0]!.answer.body.code);
      expect(outcomes[1]!.answer.body.code).toBe("unavailable");
      expect(["outcome_unknown", "unavailable"]).toContain(outcomes[2]!.answer.body.code);

      // The breaker closes on the first probe that is answered: bets go through again.
      for (;;) {
        const retry = await ask(roomB.room, roomB.inbox, "bet", dice);
        track(b.player.id, retry.body.requestId, retry);
        if (retry.type === "result") break;
        expect(retry.body.code).toBe("unavailable");
        await new Promise((r) => setTimeout(r, 100));
      }
      // Sending the unknown ones again with their ids is safe: each is charged at most once.
      for (const [i, { requestId }] of outcomes.entries()) {
        const [room, player] = i === 2 ? [roomB, b.player.id] : [roomA, a.player.id];
        const before = room.inbox.messages.length;
        room.room.send("bet", { ...dice, requestId });
        const again = await room.inbox.wait((m) => m.body?.requestId === requestId && room.inbox.messages.indexOf(m) >= before);
        expect(again.type, JSON.stringify(again.body)).toBe("result");
        track(player, requestId, again);
      }
      await roomA.room.leave();
      await roomB.room.leave();
    } finally {
      await server.stop();
      await proxy.close();
    }

    // Every acknowledged bet is in the ledger exactly once, and the ledger adds up.
    const pg = new PgClient({ connectionString: database.url });
    await pg.connect();
    try {
      for (const [requestId, playerId] of acknowledged) {
        const { rows } = await pg.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND request_id = $2`, [
          playerId,
          `${requestId}#bet`,
        ]);
        expect(rows[0].n, requestId).toBe(1);
      }
    } finally {
      await pg.end();
    }
    expect((await auditDatabase(database.url!)).mismatches).toEqual([]);
  });
});
