import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@colyseus/sdk";
import pg from "pg";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startServerProcess, type ServerProcess } from "./server-process";
import { auditDatabase, guestOn, joinOn } from "./process-helpers";
import { Inbox, ask, newRequestId, waitFor } from "./room-helpers";

/**
 * Reconnection against the server in its own process, so nothing this test process defines (a global
 * WebSocket, say) can make the server work where it would not on its own. Runs on the Node version of
 * the test run, which is the one the server runs on.
 */
describe.runIf(TEST_DB === "postgres")(`reconnection to a separate server process (Node ${process.versions.node})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;
  let sql: pg.Client;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    server = await startServerProcess({ env: { DATABASE_URL: database.url!, REDIS_URL: redis.url! }, name: "reconnect" });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await server?.stop();
    if (database?.url) expect((await auditDatabase(database.url)).mismatches).toEqual([]);
    await database?.drop();
    await redis?.release();
  });

  const balanceOf = async (playerId: string) =>
    Number((await sql.query(`SELECT balance FROM players WHERE id = $1`, [playerId])).rows[0].balance);
  const playsOf = async (requestId: string) =>
    Number((await sql.query(`SELECT count(*)::int AS n FROM game_sessions WHERE request_id = $1`, [requestId])).rows[0].n);
  /** Drops the client's socket the way a network does: no close frame, no consent. */
  const dropSocket = (room: { connection: unknown }) =>
    (room.connection as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();

  it("reconnects on its own after the socket drops, and delivers a bet queued during the gap exactly once", async () => {
    const { token, player } = await guestOn(server);
    const { room, inbox } = await joinOn(server, token);
    room.reconnection.minUptime = 0;
    room.reconnection.delay = 50;
    room.reconnection.minDelay = 50;
    const sessionId = room.sessionId;
    const dropped = new Promise<void>((resolve) => room.onDrop.once(() => resolve()));
    const reconnected = new Promise<void>((resolve) => room.onReconnect.once(() => resolve()));
    const left = new Promise<number>((resolve) => room.onLeave.once((code: number) => resolve(code)));

    dropSocket(room);
    await dropped;
    const requestId = newRequestId();
    room.send("bet", { requestId, game: "coin-flip", amount: 25, params: { side: "tails" } });
    await Promise.race([reconnected, left.then((code) => Promise.reject(new Error(`left with ${code} instead of reconnecting`)))]);

    const answer = await inbox.answer(requestId);
    expect(answer.type).toBe("result");
    expect(room.sessionId).toBe(sessionId);
    expect(await balanceOf(player.id)).toBe(1000 - 25 + answer.body.payout);
    expect(await playsOf(requestId)).toBe(1);
    await waitFor(() => (room.state as any).balance === 1000 - 25 + answer.body.payout);

    // The same room goes on taking bets.
    const next = await ask(room, inbox, "bet", { game: "dice", amount: 25, params: { target: 50, direction: "under" } });
    expect(next.type).toBe("result");
    await room.leave();
    expect(server.lines.join("\n")).not.toMatch(/WebSocket is not defined|reconnection denied/);
  });

  it("takes client.reconnect(token) from a new client after the socket drops", async () => {
    const { token, player } = await guestOn(server);
    const first = await joinOn(server, token);
    first.room.reconnection.enabled = false;
    const bet = await ask(first.room, first.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    expect(bet.type).toBe("result");
    const reconnectionToken = first.room.reconnectionToken;
    const left = new Promise<void>((resolve) => first.room.onLeave.once(() => resolve()));
    dropSocket(first.room);
    await left;

    const client = new Client(server.wsUrl);
    const room = await client.reconnect(reconnectionToken);
    const inbox = new Inbox(room);
    expect(room.roomId).toBe(first.room.roomId);
    expect(room.sessionId).toBe(first.room.sessionId);
    await waitFor(() => (room.state as any).balance === bet.body.balance);

    const again = await ask(room, inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "tails" } });
    expect(again.type).toBe("result");
    expect(await balanceOf(player.id)).toBe(again.body.balance);
    await room.leave();
  });
});
