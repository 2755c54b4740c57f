import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DiscordOAuth } from "../src/core/auth/discord";
import { Instances } from "../src/core/players/instances";
import { startTestApp, type TestApp } from "./harness";
import { FAKE_BOT_TOKEN } from "./fake-discord";
import { diceBet, discordPlayer, setBalance } from "./leaderboard-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DISCORD_BOT_TOKEN: FAKE_BOT_TOKEN });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const lb = () => t.app.services.leaderboards;
const board = async (token: string, query: string) => t.request("GET", `/api/leaderboard?limit=100&${query}`, { token });

describe("the guild scope", () => {
  it("ranks only the players who share the guild, from the token exchange's guild list", async () => {
    const a = await discordPlayer(t, "GuildA", { guilds: ["500100", "500101"] });
    const b = await discordPlayer(t, "GuildB", { guilds: ["500100"] });
    const c = await discordPlayer(t, "GuildC", { guilds: ["500102"] });
    const guest = await t.guest();
    await setBalance(t, a.player.id, 2_000);
    await setBalance(t, b.player.id, 9_000);
    await setBalance(t, c.player.id, 50_000);
    await lb().catchUp();

    const shared = await board(a.token, "scope=guild&guildId=500100");
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ total: 2, scope: "guild" });
    expect(shared.body.entries.map((e: any) => [e.rank, e.playerId, e.balance])).toEqual([
      [1, b.player.id, 9_000],
      [2, a.player.id, 2_000],
    ]);
    expect((await board(a.token, "scope=guild&guildId=500101")).body.entries.map((e: any) => e.playerId)).toEqual([a.player.id]);

    expect(await board(c.token, "scope=guild&guildId=500100")).toMatchObject({
      status: 403,
      body: { error: "You are not a member of that guild" },
    });
    expect((await board(guest.token, "scope=guild&guildId=500100")).status).toBe(403);

    const rank = await t.request("GET", `/api/player/${a.player.id}/rank?scope=guild&guildId=500100`, { token: a.token });
    expect(rank.body).toEqual({ rank: 2, total: 2 });
    const outsider = await t.request("GET", `/api/player/${c.player.id}/rank?scope=guild&guildId=500100`, { token: a.token });
    expect(outsider.body).toEqual({ rank: null, total: 2 });
  });

  it("follows the guild list at each sign-in, and keeps it when Discord will not list guilds", async () => {
    const first = await discordPlayer(t, "Mover", { guilds: ["600100"] });
    expect((await board(first.token, "scope=guild&guildId=600100")).status).toBe(200);
    t.discord.guilds.set(first.discordId, ["600200"]);
    const again = await t.request("POST", "/api/token", { body: { code: `ok:${first.discordId}:Mover` } });
    const token = again.body.session_token;
    expect((await board(token, "scope=guild&guildId=600100")).status).toBe(403);
    expect((await board(token, "scope=guild&guildId=600200")).status).toBe(200);

    t.discord.noGuildsScope.add(first.discordId);
    const noScope = await t.request("POST", "/api/token", { body: { code: `ok:${first.discordId}:Mover` } });
    expect(noScope.status).toBe(200);
    expect((await board(noScope.body.session_token, "scope=guild&guildId=600200")).status).toBe(200);
  });

  it("reads every page of a long guild list", async () => {
    const many = Array.from({ length: 450 }, (_, i) => String(800_000 + i));
    const p = await discordPlayer(t, "Collector", { guilds: many });
    expect(await t.app.services.guilds.of(p.player.id)).toEqual([...many].sort());
  });
});

describe("the instance scope", () => {
  it("joins an instance only when Discord lists the player in it, and ranks only its players", async () => {
    const instanceId = "i-1276580072400224306-gc-500100-600600";
    const host = await discordPlayer(t, "Host");
    const friend = await discordPlayer(t, "Friend");
    const stranger = await discordPlayer(t, "Stranger");
    t.discord.instances.set(instanceId, { guildId: "500100", channelId: "600600", users: [host.discordId, friend.discordId] });

    const joined = await t.request("POST", "/api/instances/join", { token: host.token, body: { instanceId } });
    expect(joined).toMatchObject({ status: 200, body: { instanceId, verified: true, guildId: "500100" } });
    const viaToken = await t.request("POST", "/api/token", { body: { code: `ok:${friend.discordId}:Friend`, instanceId } });
    expect(viaToken.body.instance).toEqual({ instanceId, verified: true, guildId: "500100" });
    const friendToken = viaToken.body.session_token;

    const refused = await t.request("POST", "/api/instances/join", { token: stranger.token, body: { instanceId } });
    expect(refused).toMatchObject({ status: 403, body: { error: "You are not connected to that activity instance" } });
    const unknown = await t.request("POST", "/api/instances/join", { token: host.token, body: { instanceId: "i-does-not-exist" } });
    expect(unknown.status).toBe(403);
    const refusedAtSignIn = await t.request("POST", "/api/token", { body: { code: `ok:${stranger.discordId}:Stranger`, instanceId } });
    expect(refusedAtSignIn).toMatchObject({ status: 200, body: { instance: null } });
    const guest = await t.guest();
    expect((await t.request("POST", "/api/instances/join", { token: guest.token, body: { instanceId } })).status).toBe(403);
    expect((await t.request("POST", "/api/instances/join", { token: host.token, body: { instanceId: "bad id!" } })).status).toBe(400);

    await setBalance(t, host.player.id, 1_500);
    await setBalance(t, stranger.player.id, 99_999_999);
    await diceBet(t, friend.player.id, 10);
    await lb().catchUp();
    const scoped = await board(host.token, `scope=instance&instanceId=${instanceId}`);
    expect(scoped.body.total).toBe(2);
    expect(scoped.body.entries.map((e: any) => e.playerId).sort()).toEqual([host.player.id, friend.player.id].sort());
    const today = await board(friendToken, `scope=instance&instanceId=${instanceId}&window=day`);
    expect(today.body.entries.map((e: any) => e.playerId)).toEqual([friend.player.id]);
    expect(await board(stranger.token, `scope=instance&instanceId=${instanceId}`)).toMatchObject({
      status: 403,
      body: { error: "You have not joined that activity instance" },
    });

    // The same scope works for the game boards.
    await t.app.services.db.run((em) =>
      em.query(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, 4000), ($2, 3000)`, [
        host.player.id,
        stranger.player.id,
      ]),
    );
    await lb().catchUp();
    const speed = await t.request("GET", `/api/game/dots/leaderboard?limit=25&scope=instance&instanceId=${instanceId}`, {
      token: host.token,
    });
    expect(speed.body.entries.map((e: any) => [e.rank, e.playerId, e.completionTimeMs])).toEqual([[1, host.player.id, 4000]]);
  });

  it("without the bot token, accepts an instance from a Discord session but never from a guest", async () => {
    const instances = new Instances(
      t.app.services.db,
      new DiscordOAuth({ apiBase: t.discord.url, clientId: "client-id", clientSecret: "x" }),
    );
    const player = await discordPlayer(t, "Unverified");
    const guest = await t.guest();
    const claims = { playerId: player.player.id, discordId: player.discordId, guest: false };
    expect(await instances.join(claims, "i-unlisted")).toEqual({ instanceId: "i-unlisted", verified: false, guildId: null });
    expect(await instances.isMember(player.player.id, "i-unlisted")).toBe(true);
    await expect(
      instances.join({ playerId: guest.player.id, discordId: guest.player.discordId, guest: true }, "i-unlisted"),
    ).rejects.toMatchObject({ status: 403 });
    expect(t.discord.requests.some((r) => r.path.includes("i-unlisted"))).toBe(false);
  });
});
