import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startFakeDiscord, type FakeDiscord } from "./fake-discord";
import { startServerProcess, type ServerProcess } from "./server-process";
import { api, auditDatabase, guestOn, joinOn } from "./process-helpers";
import { Inbox, ask, newRequestId, waitFor } from "./room-helpers";
import { Client, type Room } from "@colyseus/sdk";
import { TABLE_MESSAGES, type TableListing, type TableSnapshot } from "@casino/common";

/**
 * Two server processes on one PostgreSQL database and one Redis database, as in a scaled-out
 * deployment behind a proxy: a player reaches either, and every limit is one limit for both.
 */
describe.runIf(TEST_DB === "postgres")("two server processes on one PostgreSQL and Redis", () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;
  let discord: FakeDiscord;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    discord = await startFakeDiscord();
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: redis.url!,
      TRUST_PROXY: "loopback",
      BET_RATE_PER_SECOND: "1",
      SEED_CHANGES_PER_MINUTE: "3",
      DISCORD_CLIENT_ID: "client-id",
      DISCORD_CLIENT_SECRET: "client-secret",
      DISCORD_API_BASE: discord.url,
      TABLE_SETTLED_MS: "100",
    };
    // One after the other: the first migrates the database, the second finds it migrated.
    a = await startServerProcess({ env, name: "a" });
    b = await startServerProcess({ env, name: "b" });
  });

  afterAll(async () => {
    const exits = await Promise.all([a?.stop(), b?.stop()]);
    await discord?.close();
    if (database?.url) {
      const audit = await auditDatabase(database.url);
      expect(audit.mismatches).toEqual([]);
    }
    await database?.drop();
    await redis?.release();
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it("lets a player join through either process, and pushes a bet on one to the connection on the other", async () => {
    for (const [entry, join] of [
      [a, b],
      [b, a],
      [a, a],
      [b, b],
    ] as const) {
      const { token } = await guestOn(entry);
      const { room } = await joinOn(join, token);
      expect((room.state as any).balance).toBe(1000);
      await room.leave();
    }

    const { token } = await guestOn(a);
    const onA = await joinOn(a, token);
    const onB = await joinOn(b, token);
    const bet = await ask(onA.room, onA.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    expect(bet.type).toBe("result");
    const afterFirst = bet.body.balance as number;
    await waitFor(() => (onB.room.state as any).balance === afterFirst);

    const second = await ask(onB.room, onB.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "tails" } });
    expect(second.type).toBe("result");
    await waitFor(() => (onA.room.state as any).balance === second.body.balance);
    await onA.room.leave();
    await onB.room.leave();
  });

  it("seats players reaching either process at one instance table and one public table, and plays a round there", async () => {
    const instanceId = `procs-${Date.now()}`;
    const signIn = async (server: ServerProcess, id: string) => {
      const res = await api(server, "POST", "/api/token", { body: { code: `ok:${id}:Table${id.slice(-4)}`, instanceId } });
      expect(res.status).toBe(200);
      return res.body.session_token as string;
    };
    const onTable = async (server: ServerProcess, token: string, join: (c: Client) => Promise<Room>) => {
      const client = new Client(server.wsUrl);
      client.auth.token = token;
      const room = await join(client);
      const inbox = new Inbox(room);
      await waitFor(() => (room.state as { snapshot?: string })?.snapshot);
      return { room, inbox, snap: () => JSON.parse((room.state as { snapshot: string }).snapshot) as TableSnapshot };
    };

    // The instance's table is made on a; its second player reaches b, which relays the WebSocket to a.
    const [first, second] = [await signIn(a, "820000000000000001"), await signIn(b, "820000000000000002")];
    const p1 = await onTable(a, first, (c) => c.joinOrCreate("blackjack-table", { instanceId }));
    const p2 = await onTable(b, second, (c) => c.joinOrCreate("blackjack-table", { instanceId }));
    expect(p2.room.roomId).toBe(p1.room.roomId);
    expect(p2.snap().tableId).toBe(`instance:${instanceId}`);
    const listed = await api(b, "GET", `/api/tables?instanceId=${instanceId}`, { token: second });
    expect((listed.body.tables as TableListing[]).map((t) => t.roomId)).toEqual([p1.room.roomId]);

    // Both sit, bet and play the round out (standing, declining insurance) over the two processes.
    expect((await ask(p1.room, p1.inbox, TABLE_MESSAGES.sit, { seat: 1 })).type).toBe("result");
    expect((await ask(p2.room, p2.inbox, TABLE_MESSAGES.sit, { seat: 2 })).type).toBe("result");
    const seats = new Map([
      [1, p1],
      [2, p2],
    ]);
    await waitFor(() => p1.snap().phase === "betting" && p2.snap().players.length === 2, 10_000);
    for (const p of [p1, p2]) {
      expect((await ask(p.room, p.inbox, TABLE_MESSAGES.bet, { amount: 25 })).type).toBe("result");
      expect((await ask(p.room, p.inbox, TABLE_MESSAGES.ready, {})).type).toBe("result");
    }
    const acted: number[] = [];
    let settled: TableSnapshot | undefined;
    while (!settled) {
      await waitFor(() => p2.snap().toAct !== null || p2.snap().phase === "settled", 20_000);
      const shown = p2.snap();
      if (shown.phase === "settled") settled = shown;
      if (settled) break;
      const seat = shown.toAct!;
      const action = shown.phase === "insurance" ? { type: "insurance", take: false } : { type: "stand" };
      const answer = await ask(seats.get(seat)!.room, seats.get(seat)!.inbox, TABLE_MESSAGES.act, { action });
      expect(answer.type).toBe("result");
      if (action.type === "stand") acted.push(seat);
      await waitFor(() => JSON.stringify(p2.snap()) !== JSON.stringify(shown), 10_000);
    }
    // The settled pause's deadline, counted from the server's clock as sent (TABLE_SETTLED_MS).
    expect(settled.deadline! - settled.serverTime).toBeLessThanOrEqual(100);
    expect(settled.view?.seats.map((s) => [s.seat, s.bet])).toEqual([
      [1, 25],
      [2, 25],
    ]);
    // The seats without a dealt blackjack played in seat order (a natural skips its seat's turn).
    expect(acted).toEqual([...acted].sort((x, y) => x - y));

    // A public table made on a is listed by b, and joined through b by its id.
    const guest = await guestOn(a);
    const host = await onTable(a, guest.token, (c) => c.joinOrCreate("blackjack-table", { instanceId: null, freeSeat: true }));
    const visitor = await guestOn(b);
    await expect
      .poll(async () => ((await api(b, "GET", "/api/tables", { token: visitor.token })).body.tables as TableListing[]).map((t) => t.roomId))
      .toContain(host.room.roomId);
    const joined = await onTable(b, visitor.token, (c) => c.joinById(host.room.roomId, { instanceId: null }));
    expect(joined.snap().tableId).toBe(`public:${host.room.roomId}`);
    await waitFor(() => host.snap().watchers === 2);

    for (const p of [p1, p2, host, joined]) await p.room.leave();
  });

  it("hides a player who turns anonymous on one process from the leaderboard pages the other process serves", async () => {
    const signIn = async (server: ServerProcess, id: string, name: string) => {
      const res = await api(server, "POST", "/api/token", { body: { code: `ok:${id}:${name}` } });
      expect(res.status).toBe(200);
      return { token: (res.body as any).session_token as string, playerId: (res.body as any).player.id as string };
    };
    const hiding = await signIn(a, "810000000000000001", "HidingAcross");
    const viewer = await signIn(b, "810000000000000002", "ViewerAcross");
    const entries = async (server: typeof a) => {
      const page = await api(server, "GET", "/api/leaderboard?limit=100", { token: viewer.token });
      expect(page.status).toBe(200);
      return (page.body as any).entries as any[];
    };
    // The hiding player's row: by id while named; once masked the row carries a stand-in, found by its rank.
    const rank = async () =>
      ((await api(b, "GET", `/api/player/${hiding.playerId}/rank`, { token: hiding.token })).body as any).rank as number;
    const shown = async () => {
      const [all, at] = await Promise.all([entries(b), rank()]);
      const row = all.find((e) => e.playerId === hiding.playerId) ?? all.find((e) => e.rank === at);
      return JSON.stringify(all).includes(hiding.playerId) ? row?.username : `${row?.username} (no id)`;
    };
    // Process b has read (and cached) the profile before the switch.
    await expect.poll(shown, { timeout: 10_000 }).toBe("HidingAcross");
    const patched = await api(a, "PATCH", "/api/player/anonymous", {
      token: hiding.token,
      body: { playerId: hiding.playerId, enabled: true },
    });
    expect(patched.status).toBe(200);
    await expect.poll(shown, { timeout: 10_000 }).toBe("Anonymous (no id)");
    // Both processes give the masked row the same stand-in (they share the secret it is keyed by).
    const at = await rank();
    expect((await entries(a)).find((e) => e.rank === at).playerId).toBe((await entries(b)).find((e) => e.rank === at).playerId);
  });

  it("holds one bet budget for a player over both processes", async () => {
    const { token } = await guestOn(a);
    const onA = await joinOn(a, token);
    const onB = await joinOn(b, token);
    const started = Date.now();
    const sent = Array.from({ length: 20 }, (_, i) => ({ requestId: newRequestId(), via: i % 2 ? onA : onB }));
    for (const { requestId, via } of sent) via.room.send("bet", { requestId, game: "coin-flip", amount: 25, params: { side: "heads" } });
    const answers = await Promise.all(sent.map(({ requestId, via }) => via.inbox.answer(requestId)));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const accepted = answers.filter((m) => m.type === "result").length;
    // One bucket of 2 refilled at 1 a second; two per-process buckets would take at least 4.
    expect(accepted).toBeGreaterThanOrEqual(2);
    expect(accepted).toBeLessThanOrEqual(2 + Math.floor(elapsedSeconds));
    expect(answers.filter((m) => m.body.code === "rate_limited")).toHaveLength(20 - accepted);
    await onA.room.leave();
    await onB.room.leave();
  });

  it("holds one seed-change budget for a player over both processes", async () => {
    const { token } = await guestOn(b);
    const onA = await joinOn(a, token);
    const onB = await joinOn(b, token);
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 8; i++) {
      const via = i % 2 ? onA : onB;
      answers.push(await ask(via.room, via.inbox, i % 4 < 2 ? "seed:rotate" : "seed:client", i % 4 < 2 ? {} : { clientSeed: `seed-${i}` }));
    }
    const refills = Math.floor((Date.now() - started) / 20_000);
    const accepted = answers.filter((m) => m.type === "result").length;
    expect(accepted).toBeGreaterThanOrEqual(3);
    expect(accepted).toBeLessThanOrEqual(3 + refills);
    expect(answers.filter((m) => m.body.code === "rate_limited")).toHaveLength(8 - accepted);
    await onA.room.leave();
    await onB.room.leave();
  });

  it("holds the REST budgets per player and per client address over both processes", async () => {
    const { token, player } = await guestOn(a);
    const statuses = async (count: number, call: (i: number) => Promise<{ status: number }>) => {
      const all: number[] = [];
      for (let start = 0; start < count; start += 40) {
        const batch = await Promise.all(Array.from({ length: Math.min(40, count - start) }, (_, i) => call(start + i)));
        all.push(...batch.map((r) => r.status));
      }
      return all;
    };
    const count = (list: number[], status: number) => list.filter((s) => s === status).length;

    const perPlayer = await statuses(320, (i) => api(i % 2 ? a : b, "GET", `/api/player/${player.id}`, { token }));
    expect(count(perPlayer, 200)).toBe(300);
    expect(count(perPlayer, 429)).toBe(20);

    // Behind a proxy both processes trust (TRUST_PROXY=loopback), the client is the forwarded address.
    const client = { "x-forwarded-for": "203.0.113.50" };
    const perAddress = await statuses(640, (i) => api(i % 2 ? a : b, "GET", "/api/nowhere", { headers: client }));
    expect(count(perAddress, 404)).toBe(600);
    expect(count(perAddress, 429)).toBe(40);
    const neighbour = await api(b, "GET", "/api/nowhere", { headers: { "x-forwarded-for": "203.0.113.51" } });
    expect(neighbour.status).toBe(404);
  });

  it("holds the suggestion limit (5 in 10 minutes) over both processes", async () => {
    const signIn = await api(a, "POST", "/api/token", { body: { code: "ok:4242:Suggester" } });
    expect(signIn.status).toBe(200);
    const { session_token: token, player } = signIn.body;
    const results = [];
    for (let i = 0; i < 6; i++) {
      results.push(await api(i % 2 ? a : b, "POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: `idea ${i}` } }));
    }
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(results[5]!.body).toEqual({ error: "Too many suggestions; please wait a few minutes", code: "rate_limited" });
  });
});
