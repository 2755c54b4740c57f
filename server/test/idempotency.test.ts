import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";
import { type Inbox, balancesOf, joinCasino, newRequestId, waitFor } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const ledgerCount = async (playerId: string) =>
  Number((await t.sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1`, [playerId]))[0].n);

const DICE = { game: "dice", amount: 10, params: { target: 49.5, direction: "under" } };
/** Opening a mines round debits its stake and pays nothing yet: a bet whose balance is known in advance. */
const MARKER = { game: "mines", amount: 79, params: { mines: 1 } };

const answersTo = (inbox: Inbox, requestId: string) =>
  inbox.messages.filter((m) => m.body?.requestId === requestId && ["result", "spin", "error"].includes(m.type));

/** Sends a request and waits for the answer to this sending (an id used before already has answers). */
async function askNew(c: { room: { send(type: string, body: unknown): void }; inbox: Inbox }, type: string, body: Record<string, unknown>) {
  const requestId = (body.requestId as string | undefined) ?? newRequestId();
  const seen = answersTo(c.inbox, requestId).length;
  c.room.send(type, { ...body, requestId });
  await waitFor(() => answersTo(c.inbox, requestId).length > seen, 10_000);
  return answersTo(c.inbox, requestId)[seen]!;
}

describe("a request id belongs to one request", () => {
  it("a bet reusing a daily spin's id is refused with 409 request_id_reused, and the reverse too", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const spinId = newRequestId();
    expect((await askNew(c, "daily-spin", { requestId: spinId })).type).toBe("spin");
    const before = [await t.balanceOf(player.id), await ledgerCount(player.id)];
    const bet = await askNew(c, "bet", { ...DICE, requestId: spinId });
    expect(bet.type).toBe("error");
    expect(bet.body).toMatchObject({ code: "request_id_reused", requestId: spinId });
    expect(bet.body.message).toMatch(/already used for a different request/);
    expect([await t.balanceOf(player.id), await ledgerCount(player.id)]).toEqual(before);

    const betId = newRequestId();
    expect((await askNew(c, "bet", { ...DICE, requestId: betId })).type).toBe("result");
    const after = [await t.balanceOf(player.id), await ledgerCount(player.id)];
    await t.sql(`UPDATE players SET last_daily_spin = NULL WHERE id = $1`, [player.id]);
    const spin = await askNew(c, "daily-spin", { requestId: betId });
    expect(spin.body.code).toBe("request_id_reused");
    const rest = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id, requestId: betId } });
    expect(rest).toMatchObject({ status: 409, body: { code: "request_id_reused" } });
    expect([await t.balanceOf(player.id), await ledgerCount(player.id)]).toEqual(after);
    await c.room.leave();
  });

  it("an act reusing a bet's id, a bet with the same id but other contents, and a rotation reusing a bet's id are refused", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const betId = newRequestId();
    const opened = await askNew(c, "bet", { requestId: betId, game: "mines", amount: 80, params: { mines: 3 } });
    expect(opened.body.done).toBe(false);
    const balance = await t.balanceOf(player.id);
    expect((await askNew(c, "act", { requestId: betId, action: { type: "reveal", tile: 4 } })).body.code).toBe("request_id_reused");
    expect((await askNew(c, "bet", { requestId: betId, game: "mines", amount: 81, params: { mines: 3 } })).body.code).toBe(
      "request_id_reused",
    );
    expect((await askNew(c, "bet", { requestId: betId, game: "mines", amount: 80, params: { mines: 4 } })).body.code).toBe(
      "request_id_reused",
    );
    expect((await askNew(c, "seed:rotate", { requestId: betId })).body.code).toBe("request_id_reused");
    expect(await t.balanceOf(player.id)).toBe(balance);
    // The same bet again is the same request: its first answer, flagged as a replay.
    const again = await askNew(c, "bet", { requestId: betId, game: "mines", amount: 80, params: { mines: 3 } });
    expect(again.body).toEqual({ ...opened.body, replayed: true });
    expect((await askNew(c, "act", { action: { type: "reveal", tile: 4 } })).type).toBe("result");
    await c.room.leave();
  });

  it("ids that look like the ledger's own entry ids are ordinary, fresh requests", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const spinId = newRequestId();
    expect((await askNew(c, "daily-spin", { requestId: spinId })).type).toBe("spin");
    const betId = newRequestId();
    expect((await askNew(c, "bet", { ...DICE, requestId: betId })).type).toBe("result");
    for (const requestId of [
      `${spinId}:spin`,
      `${spinId}:daily_spin`,
      `${betId}:bet`,
      `${betId}:payout`,
      "grant:starting",
      "starting:grant",
    ]) {
      const answer = await askNew(c, "bet", { ...DICE, requestId });
      expect(answer.type, `${requestId}: ${JSON.stringify(answer.body)}`).toBe("result");
      expect(answer.body.replayed).toBeUndefined();
    }
    const bets = await t.sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND reason = 'bet'`, [player.id]);
    expect(bets[0].n).toBe(7);
    await c.room.leave();
  });

  it("a repeated rotation rotates once", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const requestId = newRequestId();
    const first = await askNew(c, "seed:rotate", { requestId });
    const second = await askNew(c, "seed:rotate", { requestId });
    expect(second.body).toEqual({ ...first.body, replayed: true });
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    expect(seeds.body.revealed).toHaveLength(1);
    expect(seeds.body.active.serverSeedHash).toBe(first.body.active.serverSeedHash);
    // The same id with a different client seed is another request.
    expect((await askNew(c, "seed:rotate", { requestId, clientSeed: "other" })).body.code).toBe("request_id_reused");
    await c.room.leave();
  });
});

describe("one request-id rule for REST and the room", () => {
  it("the REST daily spin refuses a request id the room would refuse, with the same message", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    for (const requestId of ["short", "x".repeat(65), "has space in it", "hash#inside-it", "slash/inside-it"]) {
      const rest = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id, requestId } });
      const room = await askNew(c, "daily-spin", { requestId });
      expect(rest.status, requestId).toBe(400);
      expect(room.body.code, requestId).toBe("invalid_message");
      expect(rest.body.error, requestId).toBe(room.body.message);
    }
    expect(await t.balanceOf(player.id)).toBe(1000);
    await c.room.leave();
  });
});

describe("a replayed answer is never published", () => {
  it("replaying an old bet does not push its old balance to the player's other connection", async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    const heard = balancesOf(b.room);
    const first = newRequestId();
    const r1 = await askNew(a, "bet", { ...DICE, requestId: first });
    const r2 = await askNew(a, "bet", { ...DICE, amount: 17 });
    await waitFor(() => heard.at(-1) === r2.body.balance);
    // The replay of the first bet: its answer carries the balance of its time.
    const replayed = await askNew(a, "bet", { ...DICE, requestId: first });
    // A bet after the replay is a marker: every balance event before it was heard by then.
    const marker = await askNew(a, "bet", MARKER);
    await waitFor(() => heard.at(-1) === marker.body.balance);
    expect(heard).toEqual([1000, r1.body.balance, r2.body.balance, marker.body.balance]);
    expect(replayed.body).toEqual({ ...r1.body, replayed: true });
    const balance = await t.balanceOf(player.id);
    expect(balance).toBe(marker.body.balance);
    await waitFor(() => (a.room.state as any).balance === balance && (b.room.state as any).balance === balance);
    await a.room.leave();
    await b.room.leave();
  });

  it("a replayed REST daily spin answers the first spin, flagged, without publishing", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const heard = balancesOf(c.room);
    const requestId = newRequestId();
    const first = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id, requestId } });
    expect(first.status).toBe(200);
    await waitFor(() => heard.at(-1) === first.body.balance);
    const again = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id, requestId } });
    const marker = await askNew(c, "bet", MARKER);
    await waitFor(() => heard.at(-1) === marker.body.balance);
    expect(heard).toEqual([1000, first.body.balance, marker.body.balance]);
    expect(again).toEqual({ status: 200, body: { ...first.body, replayed: true } });
    await c.room.leave();
  });
});
