import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@colyseus/sdk";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startServerProcess, type ServerProcess } from "./server-process";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";
import { api, auditDatabase, guestOn, joinOn } from "./process-helpers";
import { ask, newRequestId, waitFor } from "./room-helpers";

/**
 * What a server process does while Redis or PostgreSQL is unreachable: it keeps its log readable (no
 * ioredis "Unhandled error event" lines, no stack per failed request), tells players what happened in
 * words (never "connect ECONNREFUSED ..."), and recovers when the service is back. The service is cut
 * by closing a TCP relay in front of it, so the machine's PostgreSQL and Redis keep running for others.
 */
const STACK_FRAME = /^\s+at /;
const RAW_ERROR = /ECONNREFUSED|ECONNRESET|Connection terminated|Connection is closed/;

/**
 * The log's promise during an outage: one line per kind of failure per 10-second window (a line without
 * a kind counts as a kind of its own), and few kinds. Which kinds appear depends on which connection
 * notices first, so the kinds are bounded, not listed.
 */
function expectFewLines(lines: string[], windows: number): void {
  const perKind = new Map<string, number>();
  for (const line of lines) {
    const kind = /"kind":"([^"]*)"/.exec(line)?.[1] ?? line;
    perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
  }
  const repeated = [...perKind].filter(([, n]) => n > windows);
  expect(repeated, lines.join("\n")).toEqual([]);
  expect(perKind.size, lines.join("\n")).toBeLessThanOrEqual(12);
}

describe.runIf(TEST_DB === "postgres")("outages", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  });
  afterAll(async () => {
    if (database?.url) expect((await auditDatabase(database.url)).mismatches).toEqual([]);
    await database?.drop();
    await redis?.release();
  });

  const waitForHealth = async (server: ServerProcess, status: number) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await api(server, "GET", "/api/health");
      if (res.status === status) return res.body;
      if (Date.now() > deadline)
        throw new Error(`health answers ${res.status} ${JSON.stringify(res.body)}, not ${status}:\n${server.lines.slice(-30).join("\n")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it("with Redis down: a few log lines, no unhandled error events, play goes on, and it recovers", async () => {
    const url = new URL(redis.url!);
    const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
    url.port = String(proxy.port);
    const server = await startServerProcess({ env: { DATABASE_URL: database.url!, REDIS_URL: url.toString() }, name: "redis-down" });
    try {
      const { token, player } = await guestOn(server);
      const { room, inbox } = await joinOn(server, token);
      expect((await ask(room, inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } })).type).toBe("result");

      const before = server.lines.length;
      const cutAt = Date.now();
      const clients = await proxy.refuse();
      expect(await waitForHealth(server, 503)).toEqual({ status: "degraded", database: "ok", redis: "down" });
      // Every Redis client has noticed by now: the log says so once.
      await server.waitForLine(/Redis \(.+ connection\)/);
      for (let i = 0; i < 10; i++) {
        const bet = await ask(room, inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "tails" } });
        expect(bet.type, JSON.stringify(bet.body)).toBe("result");
        expect((await api(server, "GET", `/api/player/${player.id}`, { token })).status).toBe(200);
      }
      // Until the Redis clients have retried five times each on average (ioredis waits 50 ms, 100 ms, ...
      // between tries): a log line per try would show by now.
      await waitFor(() => proxy.refused >= 5 * clients);
      const outage = server.lines.slice(before);
      const windows = 1 + Math.floor((Date.now() - cutAt) / 10_000);

      await proxy.restore();
      expect(await waitForHealth(server, 200)).toEqual({ status: "ok", database: "ok", redis: "ok" });
      expect((await ask(room, inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } })).type).toBe("result");
      await room.leave();

      expect(outage.filter((line) => /Unhandled error event/.test(line))).toEqual([]);
      expect(outage.filter((line) => STACK_FRAME.test(line))).toEqual([]);
      // One line per kind of failure (each Redis client, the limits, Colyseus's bookkeeping, the activity
      // feed's row and the watched table's step) per 10 s.
      expectFewLines(outage, windows);
      // The shutdown right after the outage finishes in time (exit code 0), whatever Redis owes it.
      expect((await server.stop("SIGTERM")).code, server.lines.slice(before).join("\n")).toBe(0);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });

  it("with PostgreSQL down: players get a stable code and words, on messages, REST and joins; one log line per kind", async () => {
    const url = new URL(database.url!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const server = await startServerProcess({ env: { DATABASE_URL: url.toString(), REDIS_URL: redis.url! }, name: "postgres-down" });
    try {
      const { token, player } = await guestOn(server);
      const { room, inbox } = await joinOn(server, token);
      expect((await ask(room, inbox, "bet", { game: "dice", amount: 25, params: { target: 50, direction: "under" } })).type).toBe("result");

      const before = server.lines.length;
      const cutAt = Date.now();
      await proxy.cut();
      expect(await waitForHealth(server, 503)).toEqual({ status: "degraded", database: "down", redis: "ok" });

      const ids = Array.from({ length: 20 }, () => newRequestId());
      for (const requestId of ids) room.send("bet", { requestId, game: "dice", amount: 25, params: { target: 50, direction: "under" } });
      for (const requestId of ids) {
        const answer = await inbox.answer(requestId);
        expect(answer.type).toBe("error");
        expect(answer.body).toEqual({
          requestId,
          code: "unavailable",
          message: "The casino is unavailable right now; please try again in a moment",
        });
      }
      const rest = await api(server, "GET", `/api/player/${player.id}`, { token });
      expect(rest).toEqual({
        status: 503,
        body: { error: "The casino is unavailable right now; please try again in a moment", code: "unavailable" },
      });
      const guest = await api(server, "POST", "/api/guest", { body: {} });
      expect(guest.status).toBe(503);
      expect(guest.body.code).toBe("unavailable");

      const client = new Client(server.wsUrl);
      client.auth.token = token;
      const join = await client.create("casino").then(
        () => ({ code: 0, message: "joined" }),
        (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
      );
      expect(join).toEqual({ code: 503, message: "The casino is unavailable right now; please try again in a moment" });
      const outage = server.lines.slice(before);
      const windows = 1 + Math.floor((Date.now() - cutAt) / 10_000);

      await proxy.restore();
      await waitForHealth(server, 200);
      expect((await ask(room, inbox, "bet", { game: "dice", amount: 25, params: { target: 50, direction: "under" } })).type).toBe("result");
      await room.leave();

      expect(outage.filter((line) => STACK_FRAME.test(line))).toEqual([]);
      // 20 failed bets, two failed REST calls, a failed join, the database breaker opening and the
      // activity feed's unpublished row and watched table's step: one line per kind of failure.
      expectFewLines(outage, windows);
      for (const message of inbox.messages) expect(JSON.stringify(message.body)).not.toMatch(RAW_ERROR);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });
});
