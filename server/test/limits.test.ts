import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../src/platform/clock";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino, newRequestId } from "./room-helpers";

/**
 * Per-player budgets of room messages, the connection backstop, and the per-IP REST limit, in one
 * process (the same limits across two processes: multi-process.test.ts).
 */
let t: TestApp;
// The budgets are counted on Redis's clock; the connection backstop on the server's, moved by the test.
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestApp(
    {
      BET_RATE_PER_SECOND: "1",
      SEED_CHANGES_PER_MINUTE: "3",
      DAILY_SPINS_PER_MINUTE: "2",
      ROOM_MAX_MESSAGES_PER_SECOND: "30",
    },
    { clock },
  );
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const seedRows = async (playerId: string) =>
  Number(
    (await t.app.services.db.run((em) => em.query(`SELECT count(*)::int AS n FROM fairness_seeds WHERE player_id = $1`, [playerId])))[0].n,
  );

describe("seed changes", () => {
  it("allows SEED_CHANGES_PER_MINUTE rotations and client-seed changes per player, over all of the player's connections", async () => {
    const { token, player } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    const seedsBefore = await seedRows(player.id);
    const sends = [
      () => ask(a.room, a.inbox, "seed:rotate", {}),
      () => ask(b.room, b.inbox, "seed:client", { clientSeed: "my-own-seed" }),
      () => ask(a.room, a.inbox, "seed:client", { clientSeed: "another-seed" }),
      () => ask(b.room, b.inbox, "seed:rotate", {}),
      () => ask(a.room, a.inbox, "seed:rotate", {}),
      () => ask(b.room, b.inbox, "seed:client", { clientSeed: "third-seed" }),
    ];
    // One after another: concurrent rotations of one player are the ledger's business, not this test's.
    const started = Date.now();
    const answers = [];
    for (const send of sends) answers.push(await send());
    const accepted = answers.filter((m) => m.type === "result");
    const refused = answers.filter((m) => m.type === "error");
    // A burst of 3, refilled at 3 a minute (one per 20 s) over however long this took.
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    expect(accepted.length).toBeLessThanOrEqual(3 + Math.floor((Date.now() - started) / 20_000));
    for (const r of refused) {
      expect(r.body).toMatchObject({ code: "rate_limited", message: "Too many seed changes; wait a moment" });
      expect(r.body.details.retryAfterMs).toBeGreaterThan(0);
    }
    // A refused change wrote nothing: one new seed row per accepted change.
    expect(await seedRows(player.id)).toBe(seedsBefore + accepted.length);

    // Another player's budget is their own.
    const other = await t.guest();
    const c = await joinCasino(t, other.token);
    expect((await ask(c.room, c.inbox, "seed:rotate", {})).type).toBe("result");
    for (const r of [a.room, b.room, c.room]) await r.leave();
  });

  it("checks the message before charging the budget", async () => {
    const { token } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    for (let i = 0; i < 5; i++) {
      const bad = await ask(room, inbox, "seed:client", { clientSeed: "" });
      expect(bad.body.code).toBe("invalid_message");
    }
    expect((await ask(room, inbox, "seed:rotate", {})).type).toBe("result");
    await room.leave();
  });
});

describe("daily spin attempts", () => {
  it("allows DAILY_SPINS_PER_MINUTE attempts per player; the spin still pays once", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const ids = Array.from({ length: 6 }, () => newRequestId());
    const started = Date.now();
    for (const requestId of ids) room.send("daily-spin", { requestId });
    const answers = await Promise.all(ids.map((id) => inbox.answer(id)));
    const refills = Math.floor((Date.now() - started) / 30_000);
    const spins = answers.filter((m) => m.type === "spin");
    const tooEarly = answers.filter((m) => m.body.code === "already_spun" || m.body.message === "Already spun today");
    const limited = answers.filter((m) => m.body.code === "rate_limited");
    expect(spins).toHaveLength(1);
    // Two attempts reach the wheel (one pays, one is too early); the budget refills 2 a minute.
    expect(spins.length + tooEarly.length).toBeGreaterThanOrEqual(2);
    expect(spins.length + tooEarly.length).toBeLessThanOrEqual(2 + refills);
    expect(limited.length).toBe(6 - spins.length - tooEarly.length);
    for (const r of limited) expect(r.body.message).toBe("Too many spin requests; wait a moment");
    const [{ balance }] = await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE id = $1`, [player.id]));
    expect(Number(balance)).toBe(1000 + spins[0]!.body.prize);
    await room.leave();
  });
});

describe("bets", () => {
  it("holds BET_RATE_PER_SECOND with bursts of twice that, per player over all connections", async () => {
    const { token } = await t.guest();
    const a = await joinCasino(t, token);
    const b = await joinCasino(t, token);
    const started = Date.now();
    const ids = Array.from({ length: 12 }, () => newRequestId());
    ids.forEach((requestId, i) => {
      const { room } = i % 2 ? a : b;
      room.send("bet", { requestId, game: "coin-flip", amount: 25, params: { side: "heads" } });
    });
    const answers = await Promise.all(ids.map((id, i) => (i % 2 ? a : b).inbox.answer(id)));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const accepted = answers.filter((m) => m.type === "result").length;
    const limited = answers.filter((m) => m.body.code === "rate_limited");
    // Burst of 2, refilled at 1 a second over however long this took.
    expect(accepted).toBeGreaterThanOrEqual(2);
    expect(accepted).toBeLessThanOrEqual(2 + Math.floor(elapsedSeconds * 1));
    expect(limited.length).toBe(12 - accepted);
    expect(limited[0]!.body.message).toBe("Too many bets; slow down a little");
    await a.room.leave();
    await b.room.leave();
  });
});

describe("the connection backstop", () => {
  it("keeps a calm connection whose messages change nothing: the limit counts the clock's seconds", async () => {
    const { token } = await t.guest();
    const calm = await joinCasino(t, token);
    calm.room.reconnection.enabled = false;
    let closed: number | undefined;
    calm.room.onLeave.once((code: number) => (closed = code));
    // 120 refused bets at 20 a second of the server's clock (6 s): four times the limit of 30 in all,
    // never 30 in one second. Nothing about the room's state changes, so a per-second window that only
    // ends when the state does would drop the connection after the 31st.
    for (let i = 0; i < 120; i++) {
      const refused = await ask(calm.room, calm.inbox, "bet", { game: "nope", amount: 25 });
      expect(refused.body.code).toBe("invalid_message");
      expect(closed).toBeUndefined();
      await clock.advance(50);
    }
    await calm.room.leave();
  });

  it("drops a connection that sends three times ROOM_MAX_MESSAGES_PER_SECOND in a second; other connections are untouched", async () => {
    const { token } = await t.guest();
    const calm = await joinCasino(t, token);
    for (let i = 0; i < 20; i++) calm.room.send("seed:client", { requestId: newRequestId(), clientSeed: "" });
    const last = newRequestId();
    calm.room.send("seed:client", { requestId: last, clientSeed: "" });
    expect((await calm.inbox.answer(last)).body.code).toBe("invalid_message");
    const other = await t.guest();
    const neighbour = await joinCasino(t, other.token);

    const flood = await joinCasino(t, token);
    flood.room.reconnection.enabled = false;
    const left = new Promise<number>((resolve) => flood.room.onLeave.once((code: number) => resolve(code)));
    for (let i = 0; i < 90; i++) flood.room.send("seed:client", { requestId: newRequestId(), clientSeed: "" });
    expect(await left).toBe(4002);
    expect(flood.inbox.messages.filter((m) => m.type === "error").length).toBeLessThan(90);

    // The calm connection of the same player, and another player's, are untouched.
    expect((await ask(calm.room, calm.inbox, "seed:client", { clientSeed: "" })).body.code).toBe("invalid_message");
    expect((await ask(neighbour.room, neighbour.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } })).type).toBe(
      "result",
    );
    await calm.room.leave();
    await neighbour.room.leave();
  });
});

// Spends this file's per-IP budget (every request here comes from 127.0.0.1): keep it last.
describe("REST per client address", () => {
  it("refuses past 600 requests a minute from one address, whatever X-Forwarded-For says without TRUST_PROXY", async () => {
    const statuses: number[] = [];
    const refusals = new Set<string>();
    for (let batch = 0; batch < 13; batch++) {
      // Were the header believed, these would be 250 clients with 2-3 requests each.
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${t.baseUrl}/api/nowhere`, { headers: { "x-forwarded-for": `198.51.100.${(batch * 50 + i) % 250}` } }),
        ),
      );
      for (const res of answers) {
        statuses.push(res.status);
        if (res.status === 429) refusals.add(await res.text());
        else await res.arrayBuffer();
      }
    }
    const served = statuses.filter((s) => s === 404).length;
    // Earlier tests of this file already spent some of the address's 600.
    expect(served).toBeLessThanOrEqual(600);
    expect(served).toBeGreaterThan(500);
    expect(statuses.filter((s) => s === 429).length).toBe(650 - served);
    expect([...refusals].map((text) => JSON.parse(text))).toEqual([{ error: "Too many requests; please slow down", code: "rate_limited" }]);
  });
});
