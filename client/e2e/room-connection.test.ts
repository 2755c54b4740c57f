import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { startTestApp, type TestApp } from "../../server/test/harness";
import { CasinoConnection } from "../src/net/room";
import { RoomFailure, type ConnectionStatus } from "../src/net/room-failure";

/**
 * The client's room connection (the one the game tables get through GameConnection), run in Node
 * against the real server: requests are answered by request id, and a request caught by a dropped
 * connection is resent with the same id and placed once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

function connect(token: string) {
  const statuses: ConnectionStatus[] = [];
  const pushes: { type: string; body: unknown }[] = [];
  let balance = -1;
  const connection = new CasinoConnection(
    token,
    { status: (s) => statuses.push(s), state: (s) => (balance = s.balance), push: (type, body) => pushes.push({ type, body }) },
    t.wsUrl,
  );
  return { connection, statuses, pushes, balance: () => balance };
}

const internals = (c: CasinoConnection) => c as unknown as { room: { roomId: string; reconnection: Record<string, number> } | null };
const until = async (cond: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
};
const betsWith = async (requestId: string) =>
  Number(
    (await t.app.services.db.run((em) => em.query(`SELECT count(*) AS n FROM game_sessions WHERE request_id = $1`, [requestId])))[0].n,
  );
const dropFromServer = (c: CasinoConnection) => {
  const serverRoom = matchMaker.getLocalRoomById(internals(c).room!.roomId)!;
  (serverRoom.clients[0] as unknown as { ref: { terminate(): void } }).ref.terminate();
};

describe("the client's room connection", () => {
  it("answers a request with the result of its request id, and refuses with the room's error", async () => {
    const { token, player } = await t.guest();
    const c = connect(token.toString());
    await c.connection.start();
    await until(() => c.balance() === 1000);
    const answer = await c.connection.request<{ requestId: string; stake: number; payout: number; balance: number }>("bet", {
      game: "coin-flip",
      amount: 25,
      params: { side: "heads" },
    });
    expect(answer.stake).toBe(25);
    expect(answer.balance).toBe(1000 - 25 + answer.payout);
    expect(await betsWith(answer.requestId)).toBe(1);
    const refused = await c.connection.request("bet", { game: "coin-flip", amount: 0, params: { side: "heads" } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RoomFailure);
    expect(refused).toMatchObject({ code: "invalid_message", message: expect.stringContaining("amount") });
    const [row] = await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE id = $1`, [player.id]));
    expect(Number(row.balance)).toBe(answer.balance);
    c.connection.close();
    await t.expectLedgerInvariant();
  });

  it("resends a bet caught by a dropped connection with the same id, after the SDK reconnects, and it is placed once", async () => {
    const { token } = await t.guest();
    const c = connect(token);
    await c.connection.start();
    Object.assign(internals(c.connection).room!.reconnection, { minUptime: 0, delay: 50, minDelay: 50 });
    const pending = c.connection.request<{ requestId: string }>("bet", {
      game: "dice",
      amount: 5,
      params: { target: 49.5, direction: "under" },
    });
    dropFromServer(c.connection);
    const answer = await pending;
    expect(c.statuses).toContain("reconnecting");
    expect(c.statuses.at(-1)).toBe("open");
    expect(await betsWith(answer.requestId)).toBe(1);
    c.connection.close();
    await t.expectLedgerInvariant();
  });

  it("joins a new room when the seat is lost for good, and the unanswered bet is still placed once", async () => {
    const { token } = await t.guest();
    const c = connect(token);
    await c.connection.start();
    const first = internals(c.connection).room!.roomId;
    // Dropped before the SDK's minimum uptime: the SDK gives the room up instead of reconnecting.
    Object.assign(internals(c.connection).room!.reconnection, { minUptime: 60_000 });
    const pending = c.connection.request<{ requestId: string }>("bet", { game: "limbo", amount: 4, params: { target: 2 } });
    dropFromServer(c.connection);
    const answer = await pending;
    expect(internals(c.connection).room!.roomId).not.toBe(first);
    expect(await betsWith(answer.requestId)).toBe(1);
    c.connection.close();
    await t.expectLedgerInvariant();
  });
});
