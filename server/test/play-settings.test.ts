import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const settingsOf = async (token: string, playerId: string) => {
  const { body } = await t.request("GET", `/api/player/${playerId}`, { token });
  return { soundOn: body.soundOn, soundVolume: body.soundVolume, animationsOn: body.animationsOn, resultToastsOn: body.resultToastsOn };
};

describe("PATCH /api/player/settings", () => {
  it("saves a signed-in player's sound, volume, animations, result toasts and reactions on the record", async () => {
    const { session_token: token, player } = (await t.request("POST", "/api/token", { body: { code: "ok:7301:Settings" } })).body;
    expect(player).toMatchObject({ soundOn: true, soundVolume: 100, animationsOn: true, resultToastsOn: true });
    const saved = await t.request("PATCH", "/api/player/settings", {
      token,
      body: { playerId: player.id, soundOn: false, soundVolume: 35 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ soundOn: false, soundVolume: 35, animationsOn: true });
    const again = await t.request("PATCH", "/api/player/settings", { token, body: { playerId: player.id, animationsOn: false } });
    expect(again.body).toMatchObject({ soundOn: false, soundVolume: 35, animationsOn: false });
    expect(await settingsOf(token, player.id)).toEqual({ soundOn: false, soundVolume: 35, animationsOn: false, resultToastsOn: true });
    const off = await t.request("PATCH", "/api/player/settings", { token, body: { playerId: player.id, resultToastsOn: false } });
    expect(off.body).toMatchObject({ animationsOn: false, resultToastsOn: false });
    expect(await settingsOf(token, player.id)).toEqual({ soundOn: false, soundVolume: 35, animationsOn: false, resultToastsOn: false });
    expect(off.body.reactionsOn).toBe(true);
    const muted = await t.request("PATCH", "/api/player/settings", { token, body: { playerId: player.id, reactionsOn: false } });
    expect(muted.body).toMatchObject({ resultToastsOn: false, reactionsOn: false });
    expect((await t.request("GET", `/api/player/${player.id}`, { token })).body.reactionsOn).toBe(false);
  });

  it("refuses bad input with the field and the reason, and changes nothing", async () => {
    const { session_token: token, player } = (await t.request("POST", "/api/token", { body: { code: "ok:7302:Strict" } })).body;
    await t.request("PATCH", "/api/player/settings", { token, body: { playerId: player.id, soundVolume: 60 } });
    const before = await settingsOf(token, player.id);
    expect(before).toEqual({ soundOn: true, soundVolume: 60, animationsOn: true, resultToastsOn: true });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ soundVolume: 101 }, "soundVolume: soundVolume must be from 0 to 100"],
      [{ soundVolume: -1 }, "soundVolume: soundVolume must be from 0 to 100"],
      [{ soundVolume: 12.5 }, "soundVolume: soundVolume must be a whole number from 0 to 100"],
      [{ soundVolume: "50" }, "soundVolume: soundVolume must be a number from 0 to 100"],
      [{ soundOn: "yes" }, "soundOn: soundOn must be true or false"],
      [{ animationsOn: 1, soundOn: false }, "animationsOn: animationsOn must be true or false"],
      [{ resultToastsOn: "off" }, "resultToastsOn: resultToastsOn must be true or false"],
      [{ reactionsOn: null }, "reactionsOn: reactionsOn must be true or false"],
      [{}, "give at least one of soundOn, soundVolume, animationsOn, resultToastsOn, reactionsOn"],
      [{ soundOn: false, turbo: true }, 'Unrecognized key: "turbo"'],
    ];
    for (const [fields, message] of cases) {
      const res = await t.request("PATCH", "/api/player/settings", { token, body: { playerId: player.id, ...fields } });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error, JSON.stringify(fields)).toBe(message);
    }
    expect(await settingsOf(token, player.id)).toEqual(before);
  });

  it("refuses a guest (settings stay on the device) and another player's record", async () => {
    const guest = await t.guest();
    const refused = await t.request("PATCH", "/api/player/settings", {
      token: guest.token,
      body: { playerId: guest.player.id, soundOn: false },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Guests keep their settings on this device only");
    expect(await settingsOf(guest.token, guest.player.id)).toEqual({
      soundOn: true,
      soundVolume: 100,
      animationsOn: true,
      resultToastsOn: true,
    });

    const { session_token: token } = (await t.request("POST", "/api/token", { body: { code: "ok:7303:Other" } })).body;
    const other = (await t.request("POST", "/api/token", { body: { code: "ok:7304:Victim" } })).body;
    const foreign = await t.request("PATCH", "/api/player/settings", { token, body: { playerId: other.player.id, soundOn: false } });
    expect(foreign.status).toBe(403);
    expect(await settingsOf(other.session_token, other.player.id)).toEqual({
      soundOn: true,
      soundVolume: 100,
      animationsOn: true,
      resultToastsOn: true,
    });
  });

  it("answers 401 without a session", async () => {
    expect((await t.request("PATCH", "/api/player/settings", { body: { playerId: "x", soundOn: false } })).status).toBe(401);
  });
});
