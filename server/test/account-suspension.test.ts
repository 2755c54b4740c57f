import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client, type Room } from "@colyseus/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEADERBOARD_ROOM } from "@casino/common";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb } from "./harness";
import { startFakeDiscord, type FakeDiscord } from "./fake-discord";
import { startServerProcess, type ServerProcess } from "./server-process";
import { api, auditDatabase, joinOn } from "./process-helpers";
import { Inbox } from "./room-helpers";

/**
 * Suspension as it happens in a deployment: the servers run as processes of their own, the operator
 * runs `npm run admin -- suspend` in another, and the players' connections are already open. With
 * Redis the servers hear it on the presence channel at once; without, each reads the closed accounts
 * from PostgreSQL every few seconds.
 */
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SUSPENDED = "This account is suspended and cannot play until an operator restores it";

async function admin(env: Record<string, string>, ...args: string[]) {
  return promisify(execFile)(process.execPath, ["--import", "tsx", "server/src/admin/cli.ts", "--by", "test-operator", "--json", ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: "memory://", ...env },
  });
}

let nextDiscordId = 810_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

/** A Discord player signed in on `server` through the fake Discord. */
async function discordPlayerOn(server: ServerProcess, name: string) {
  const discordId = String(nextDiscordId++);
  const res = await api(server, "POST", "/api/token", { body: { code: `ok:${discordId}:${name}` } });
  expect(res.status).toBe(200);
  return { token: res.body.session_token as string, player: res.body.player, discordId };
}

/** Resolves with the close code and reason once the room's connection ends. */
const closed = (room: Room) =>
  new Promise<{ code: number; reason?: string }>((resolve) => room.onLeave((code, reason) => resolve({ code, reason })));

describe.runIf(TEST_DB === "postgres")("suspending an account on running servers", { timeout: 180_000 }, () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let redis: Awaited<ReturnType<typeof leaseRedisDb>>;
  let discord: FakeDiscord;
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    redis = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    discord = await startFakeDiscord();
    env = { DATABASE_URL: database.url!, REDIS_URL: redis.url! };
    server = await startServerProcess({
      env: { ...env, DISCORD_CLIENT_ID: "client-id", DISCORD_CLIENT_SECRET: "client-secret", DISCORD_API_BASE: discord.url },
    });
  });

  afterAll(async () => {
    const exit = await server?.stop();
    await discord?.close();
    if (database?.url) expect((await auditDatabase(database.url)).mismatches).toEqual([]);
    await database?.drop();
    await redis?.release();
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it("closes the player's open casino, crash and leaderboard connections with the reason, refuses REST and joins, and restores", async () => {
    const p = await discordPlayerOn(server, "Abuser");
    const viewer = await discordPlayerOn(server, "Onlooker");
    const casino = await joinOn(server, p.token);
    const sdk = new Client(server.wsUrl);
    sdk.auth.token = p.token;
    const crash = await sdk.joinOrCreate("crash", { instanceId: null });
    const board = await sdk.joinOrCreate(LEADERBOARD_ROOM, {});
    const crashInbox = new Inbox(crash);
    const ends = [closed(casino.room), closed(crash), closed(board)];
    const onBoard = async () => {
      const res = await api(server, "GET", "/api/leaderboard?limit=100", { token: viewer.token });
      return { ids: res.body.entries.map((e: any) => e.playerId) as string[], total: res.body.total as number };
    };
    const before = await onBoard();
    expect(before.ids).toContain(p.player.id);

    const suspended = JSON.parse((await admin(env, "suspend", p.player.id, "--reason", "spamming the crash room")).stdout);
    expect(suspended).toMatchObject({
      playerId: p.player.id,
      from: "active",
      to: "suspended",
      changed: true,
      boards: { players: before.total - 1 },
    });

    // Already open: each connection gets the refusal, then is closed with the account-closed code.
    for (const end of await Promise.all(ends)) expect(end).toEqual({ code: 4403, reason: SUSPENDED });
    expect(casino.inbox.messages).toContainEqual({ type: "error", body: { code: "account_suspended", message: SUSPENDED } });
    expect(crashInbox.messages).toContainEqual({ type: "error", body: { code: "account_suspended", message: SUSPENDED } });

    expect(await api(server, "GET", `/api/player/${p.player.id}`, { token: p.token })).toEqual({
      status: 403,
      body: { code: "account_suspended", error: SUSPENDED },
    });
    expect((await api(server, "POST", "/api/daily-spin", { token: p.token, body: { playerId: p.player.id } })).status).toBe(403);
    await expect(joinOn(server, p.token)).rejects.toThrow(/suspended/);
    expect((await onBoard()).ids).not.toContain(p.player.id);
    expect((await onBoard()).total).toBe(before.total - 1);

    const restored = JSON.parse((await admin(env, "restore", p.discordId, "--reason", "appeal accepted")).stdout);
    expect(restored).toMatchObject({ from: "suspended", to: "active", changed: true });
    expect((await api(server, "GET", `/api/player/${p.player.id}`, { token: p.token })).status).toBe(200);
    const again = await joinOn(server, p.token);
    expect(again.room.state.balance).toBe(1000);
    await again.room.leave();
    expect(await onBoard()).toEqual({ ids: expect.arrayContaining([p.player.id]), total: before.total });
  });

  it("reaches a server without Redis from PostgreSQL within seconds", async () => {
    const lone = await startServerProcess({
      env: {
        DATABASE_URL: database.url!,
        DISCORD_CLIENT_ID: "client-id",
        DISCORD_CLIENT_SECRET: "client-secret",
        DISCORD_API_BASE: discord.url,
      },
      name: "no-redis",
    });
    try {
      const p = await discordPlayerOn(lone, "Quiet");
      const casino = await joinOn(lone, p.token);
      const end = closed(casino.room);
      const out = await admin({ DATABASE_URL: database.url! }, "suspend", p.player.id, "--reason", "no Redis here");
      expect(JSON.parse(out.stdout)).toMatchObject({ changed: true, boards: null });
      // No channel reaches this server: its read of PostgreSQL (every CLOSED_ACCOUNTS_REFRESH_MS) does.
      expect(await end).toEqual({ code: 4403, reason: SUSPENDED });
      expect((await api(lone, "GET", `/api/player/${p.player.id}`, { token: p.token })).status).toBe(403);
      await admin({ DATABASE_URL: database.url! }, "restore", p.player.id, "--reason", "done");
    } finally {
      expect(await lone.stop()).toEqual({ code: 0, signal: null });
    }
  });
});
