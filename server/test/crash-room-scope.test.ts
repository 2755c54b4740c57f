import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import type { Room } from "@colyseus/sdk";
import { ManualClock } from "../src/platform/clock";
import { startTestApp, type TestApp } from "./harness";
import { FAKE_BOT_TOKEN } from "./fake-discord";
import { waitFor } from "./room-helpers";

/**
 * Which shared crash room a player lands in is decided on the server from the player's own activity
 * instance membership (server/src/core/players/instances.ts), never from the id the client names.
 */
let checked: TestApp;
beforeAll(async () => {
  // With the bot token the server asks Discord's activity-instance lookup (crash-room.test.ts runs
  // without it: there a player's own session joining the instance is what counts). Only seats are
  // tested: on a ManualClock nobody moves, the rooms stay in their first betting phase.
  checked = await startTestApp({ DISCORD_BOT_TOKEN: FAKE_BOT_TOKEN }, { clock: new ManualClock() });
});
afterAll(async () => checked?.close());

async function signIn(t: TestApp, id: string, instanceId?: string) {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:scope${id}`, ...(instanceId ? { instanceId } : {}) } });
  expect(res.status).toBe(200);
  return { discordId: id, token: res.body.session_token as string, player: res.body.player, instance: res.body.instance ?? null };
}

async function joinCrash(t: TestApp, token: string, instanceId: string | null): Promise<Room> {
  const room = await t.sdk(token).joinOrCreate("crash", { instanceId });
  await waitFor(() => (room.state as { terminatingHash?: string })?.terminatingHash);
  return room;
}

describe("a crash room per activity instance, checked with Discord", () => {
  it("with the bot token, only a player Discord lists in the instance is seated, whatever the database says", async () => {
    checked.discord.instances.set("inst-scope-2", { guildId: "9100", channelId: "9101", users: ["7100001"] });
    const alice = await signIn(checked, "7100001", "inst-scope-2");
    expect(alice.instance).toMatchObject({ instanceId: "inst-scope-2", verified: true, guildId: "9100" });
    const room = await joinCrash(checked, alice.token, "inst-scope-2");

    // Bob signs in from the same instance id, but Discord does not list him in it.
    const bob = await signIn(checked, "7100002", "inst-scope-2");
    expect(bob.instance).toBeNull();
    const refused = await checked.request("POST", "/api/instances/join", { token: bob.token, body: { instanceId: "inst-scope-2" } });
    expect(refused.status).toBe(403);
    await expect(joinCrash(checked, bob.token, "inst-scope-2")).rejects.toThrow(/You have not joined that activity instance/);
    // A membership recorded without Discord's confirmation (before the server had the bot token) is not enough.
    await checked.app.services.db.run((em) =>
      em.query(`INSERT INTO activity_instance_members (instance_id, player_id, verified) VALUES ($1, $2, false)`, [
        "inst-scope-2",
        bob.player.id,
      ]),
    );
    await expect(joinCrash(checked, bob.token, "inst-scope-2")).rejects.toThrow(/You have not joined that activity instance/);
    expect(matchMaker.getLocalRoomById(room.roomId)!.clients.length).toBe(1);

    // Listed by Discord, Bob joins the instance and shares Alice's room.
    checked.discord.instances.get("inst-scope-2")!.users.push(bob.discordId);
    expect(
      (await checked.request("POST", "/api/instances/join", { token: bob.token, body: { instanceId: "inst-scope-2" } })).body.verified,
    ).toBe(true);
    const bobRoom = await joinCrash(checked, bob.token, "inst-scope-2");
    expect(bobRoom.roomId).toBe(room.roomId);
    await Promise.all([room.leave(), bobRoom.leave()]);
  });
});
