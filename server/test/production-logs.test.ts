import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@colyseus/sdk";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { FAKE_BOT_TOKEN, startFakeDiscord, type FakeDiscord } from "./fake-discord";
import { buildServer, startServerProcess } from "./server-process";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";
import { api, auditDatabase, guestOn, joinOn } from "./process-helpers";
import { ask, newRequestId } from "./room-helpers";

/**
 * The production build run as in production (NODE_ENV=production, a separate process, PostgreSQL and
 * Redis), at the debug level so it writes all it can: every line is one JSON object, the lines about a
 * bet carry its request id, and nothing secret is ever in the output: not the configured secrets (the
 * session secret, Discord's client secret and bot token, the metrics token, the database password),
 * nor a session token, a Discord access token or a reconnection token handed out during the run.
 */
describe.runIf(TEST_DB === "postgres")("the production server's log", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;
  let build: Awaited<ReturnType<typeof buildServer>>;
  let discord: FakeDiscord;
  let proxy: TcpProxy;

  beforeAll(async () => {
    [database, redis, build, discord] = await Promise.all([
      freshDatabaseUrl(),
      leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"),
      buildServer(),
      startFakeDiscord(),
    ]);
    const url = new URL(database.url!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  });
  afterAll(async () => {
    await proxy?.close();
    if (database?.url) expect((await auditDatabase(database.url)).mismatches).toEqual([]);
    await database?.drop();
    await redis?.release();
    await discord?.close();
    await build?.remove();
  });

  it("is one JSON object per line, names the request of each bet, and never holds a secret", async () => {
    const secret = (label: string) => `${label}-${randomBytes(24).toString("base64url")}`;
    const secrets = {
      session: secret("session"),
      clientSecret: secret("discord-client"),
      metrics: secret("metrics"),
      // Trust authentication: PostgreSQL never asks for it, so the server holds it but never sends it.
      dbPassword: secret("db"),
      bot: FAKE_BOT_TOKEN,
    };
    const dbUrl = new URL(database.url!);
    dbUrl.port = String(proxy.port);
    dbUrl.password = secrets.dbPassword;
    const server = await startServerProcess({
      entry: build.entry,
      name: "production",
      env: {
        NODE_ENV: "production",
        LOG_LEVEL: "debug",
        DATABASE_URL: dbUrl.toString(),
        REDIS_URL: redis.url!,
        SESSION_SECRET: secrets.session,
        DISCORD_CLIENT_ID: "client-id",
        DISCORD_CLIENT_SECRET: secrets.clientSecret,
        DISCORD_BOT_TOKEN: secrets.bot,
        DISCORD_API_BASE: discord.url,
        METRICS_TOKEN: secrets.metrics,
      },
    });
    const handedOut: string[] = [];
    let outageRequestId = "";
    const betRequestIds: string[] = [];
    try {
      // A guest and a Discord player, each with a session token; the Discord one also got an access token.
      const guest = await guestOn(server);
      handedOut.push(guest.token);
      // Signing in inside an activity instance: the server asks Discord about it with the bot token.
      discord.instances.set("i-4242", { guildId: "77", channelId: "78", users: ["4242"] });
      const signIn = await api(server, "POST", "/api/token", { body: { code: "ok:4242:Alice", instanceId: "i-4242" } });
      expect(signIn.status).toBe(200);
      expect(signIn.body.instance).toBeTruthy();
      handedOut.push(signIn.body.session_token, signIn.body.access_token);
      // A refused session token and a refused metrics token are not written either.
      expect((await api(server, "GET", `/api/player/${guest.player.id}`, { token: `${guest.token}x` })).status).toBe(401);
      expect((await api(server, "GET", "/metrics", { headers: { authorization: `Bearer ${secrets.metrics}x` } })).status).toBe(401);
      const refused = new Client(server.wsUrl);
      refused.auth.token = `${signIn.body.session_token}x`;
      await expect(refused.create("casino")).rejects.toMatchObject({ code: 401 });

      const { room, inbox } = await joinOn(server, signIn.body.session_token);
      handedOut.push(room.reconnectionToken);
      for (let i = 0; i < 3; i++) {
        const requestId = newRequestId();
        const answer = await ask(room, inbox, "bet", { requestId, game: "dice", amount: 100, params: { target: 50, direction: "under" } });
        expect(answer.type).toBe("result");
        betRequestIds.push(requestId);
      }
      const scrape = await api(server, "GET", "/metrics", { headers: { authorization: `Bearer ${secrets.metrics}` } });
      expect(scrape.status).toBe(200);
      expect(scrape.body).toContain('casino_bets_total{game="dice"');

      // PostgreSQL goes away under a bet: the player is told, the log says which request failed.
      await proxy.cut();
      outageRequestId = newRequestId();
      const failed = await ask(room, inbox, "bet", {
        requestId: outageRequestId,
        game: "dice",
        amount: 100,
        params: { target: 50, direction: "under" },
      });
      expect(failed.body.code).toMatch(/^(unavailable|outcome_unknown)$/);
      await server.waitForLine(new RegExp(`"level":"error".*${outageRequestId}`));
      const afterOutage = await api(server, "GET", "/metrics", { headers: { authorization: `Bearer ${secrets.metrics}` } });
      expect(afterOutage.body).toMatch(/^casino_group_commit_failures_total [1-9]/m);
      expect(afterOutage.body).toMatch(/^casino_ledger_errors_total\{code="(unavailable|outcome_unknown)"\} 1$/m);
      await proxy.restore();
      await room.leave();
    } finally {
      await proxy.restore().catch(() => undefined);
      expect((await server.stop("SIGTERM")).code).toBe(0);
    }

    const lines = server.lines.filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(5);
    const events = lines.map((line) => {
      const event = JSON.parse(line) as Record<string, unknown>;
      expect(event, line).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) });
      return event;
    });
    for (const requestId of betRequestIds) {
      expect(events.filter((e) => e.requestId === requestId).map((e) => e.msg)).toEqual(["room request answered"]);
    }
    const outage = events.filter((e) => e.requestId === outageRequestId);
    expect(outage.map((e) => e.level)).toContain("error");
    expect(outage.find((e) => e.level === "error")).toMatchObject({ messageType: "bet", outage: expect.any(String) });

    const output = lines.join("\n");
    for (const [name, value] of [...Object.entries(secrets), ...handedOut.map((token, i) => [`handed-out token ${i}`, token])]) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(output.includes(value), `${name} is in the log`).toBe(false);
    }
  });
});
