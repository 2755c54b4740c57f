import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";
import { diceBet, discordPlayer, setBalance } from "./leaderboard-helpers";
import { ManualClock } from "../src/platform/clock";
import { boardScripts } from "../src/leaderboard/scripts";
import { KEYS, scoreOf } from "../src/leaderboard/keys";
import { PROFILE_TTL_MS, encodeProfile, profileOf, splitProfile } from "../src/leaderboard/profiles";
import { PAGE_CACHE_MS } from "../src/leaderboard/page-cache";
import { BOARD_CHANGES_CHANNEL } from "../src/leaderboard/leaderboards";
import { faceOf } from "../src/core/players/face";

/**
 * The cache of global pages (server/src/leaderboard/page-cache.ts), through the REST call on the real
 * PostgreSQL and Redis. The app runs on a clock that moves only when the test says so: a page can only
 * change before PAGE_CACHE_MS has passed if the cache was emptied by the change itself. A page is kept
 * from its second ask within PAGE_CACHE_MS, so a test asks twice before a change the cache must not hide.
 */
let t: TestApp;
const clock = new ManualClock(Date.now());
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const lb = () => t.app.services.leaderboards;
const redis = () => boardScripts(t.app.services.redis);
/** The top entry of the balance board as `token`'s player sees it. */
const top = async (token: string) => {
  const res = await t.request("GET", "/api/leaderboard?page=1&limit=5", { token });
  expect(res.status).toBe(200);
  return res.body.entries[0];
};

describe("the page cache", () => {
  it("serves a change made behind the server's back for at most PAGE_CACHE_MS, then reads it", async () => {
    const { token, player } = await discordPlayer(t, "Handmade");
    await setBalance(t, player.id, 999_999_999);
    await lb().catchUp();
    expect(await top(token)).toMatchObject({ playerId: player.id, username: "Handmade", balance: 999_999_999 });
    expect((await top(token)).balance).toBe(999_999_999); // asked again within the second: now kept

    // A score written into Redis that no consumer or process announced: cached until the bound...
    await t.app.services.redis.zadd(KEYS.balance, scoreOf("balance", 999_999_998), player.id);
    await clock.advance(PAGE_CACHE_MS - 1);
    expect((await top(token)).balance).toBe(999_999_999);
    // ...and never longer.
    await clock.advance(1);
    expect((await top(token)).balance).toBe(999_999_998);

    // A change made by hand in PostgreSQL: the stored profile is shown until it is older than its
    // time limit, then the page reads the player again, at the latest PAGE_CACHE_MS later.
    await t.app.services.db.run((em) => em.query(`UPDATE players SET username = 'Renamed' WHERE id = $1`, [player.id]));
    const stored = profileOf(splitProfile(await redis().hget(KEYS.profiles, player.id), Date.now())!);
    expect(stored.username).toBe("Handmade");
    await redis().hset(KEYS.profiles, player.id, encodeProfile(stored, Date.now() - PROFILE_TTL_MS - 1));
    await clock.advance(PAGE_CACHE_MS);
    expect((await top(token)).username).toBe("Renamed");
    expect(profileOf(splitProfile(await redis().hget(KEYS.profiles, player.id), Date.now())!).username).toBe("Renamed");

    // A slow reader that read before the copy there does not overwrite it; a later read does.
    await redis().storeProfiles(KEYS.profiles, player.id, encodeProfile({ ...stored, username: "Slow" }, Date.now() - 60_000));
    await clock.advance(PAGE_CACHE_MS);
    expect((await top(token)).username).toBe("Renamed");
    await redis().storeProfiles(KEYS.profiles, player.id, encodeProfile({ ...stored, username: "Later" }, Date.now() + 1));
    await clock.advance(PAGE_CACHE_MS);
    expect((await top(token)).username).toBe("Later");
  });

  it("shows a player's own bet in the next read, without the cache's time passing", async () => {
    const { token, player } = await discordPlayer(t, "Bettor");
    const viewer = await discordPlayer(t, "Watcher");
    await setBalance(t, player.id, 1_999_999_999);
    await lb().catchUp();
    expect(await top(viewer.token)).toMatchObject({ playerId: player.id, balance: 1_999_999_999 });
    expect((await top(viewer.token)).balance).toBe(1_999_999_999); // asked again within the second: now kept
    for (let i = 0; i < 5; i++) {
      const answer = await diceBet(t, player.id, 1000);
      // No catching up and no time passing: the read waits for the consumer, which empties the cache.
      expect(await top(token)).toMatchObject({ playerId: player.id, balance: answer.balance });
      expect(await top(viewer.token)).toMatchObject({ playerId: player.id, balance: answer.balance });
    }
  });

  it("shows an anonymous switch, a new name and a new tag to every viewer in the next read", async () => {
    const star = await discordPlayer(t, "Starlet");
    const viewer = await discordPlayer(t, "Onlooker");
    await setBalance(t, star.player.id, 2_999_999_999);
    await lb().catchUp();
    expect(await top(viewer.token)).toMatchObject({ playerId: star.player.id, username: "Starlet", activeTag: null });
    expect((await top(viewer.token)).username).toBe("Starlet"); // asked again within the second: now kept

    const anonymous = async (enabled: boolean) =>
      expect(
        (await t.request("PATCH", "/api/player/anonymous", { token: star.token, body: { playerId: star.player.id, enabled } })).status,
      ).toBe(200);
    await anonymous(true);
    expect(await top(viewer.token)).toMatchObject({
      playerId: expect.stringMatching(/^anon-[A-Za-z0-9_-]{22}$/),
      username: "Anonymous",
      avatarUrl: null,
      badge: null,
    });
    expect(JSON.stringify(await top(viewer.token))).not.toContain(star.discordId);
    expect(JSON.stringify(await top(viewer.token))).not.toContain(star.player.id);
    // The same cached page, seen by the anonymous player: their own entry unmasked.
    expect(await top(star.token)).toMatchObject({ playerId: star.player.id, username: "Starlet", discordId: star.discordId });
    await anonymous(false);
    expect(await top(viewer.token)).toMatchObject({ playerId: star.player.id, username: "Starlet", discordId: star.discordId });

    // A new name from Discord (signing in again), then a tag.
    const again = await t.request("POST", "/api/token", { body: { code: `ok:${star.discordId}:Superstar` } });
    expect(again.status).toBe(200);
    expect((await top(viewer.token)).username).toBe("Superstar");
    const [tag] = await t.app.services.db.run((em) => em.query(`SELECT id, name FROM tags ORDER BY id LIMIT 1`));
    await t.app.services.players.update(star.player.id, { activeTagId: tag.id });
    expect((await top(viewer.token)).activeTag).toEqual({ name: tag.name });
  });

  it("empties the cache when another process announces a board change", async () => {
    const { token, player } = await discordPlayer(t, "Remote");
    await setBalance(t, player.id, 3_999_999_999);
    await lb().catchUp();
    expect((await top(token)).balance).toBe(3_999_999_999);
    expect((await top(token)).balance).toBe(3_999_999_999); // asked again within the second: now kept
    // What another process does: its consumer writes the board, then announces the change.
    await t.app.services.redis.zadd(KEYS.balance, scoreOf("balance", 3_999_999_990), player.id);
    expect((await top(token)).balance).toBe(3_999_999_999);
    await t.app.services.presence.publish(BOARD_CHANGES_CHANNEL, { keys: [KEYS.balance] });
    let shown = 0;
    for (let i = 0; i < 1500 && shown !== 3_999_999_990; i++) {
      shown = (await top(token)).balance;
      if (shown !== 3_999_999_990) await new Promise((r) => setTimeout(r, 10));
    }
    expect(shown).toBe(3_999_999_990);
  });

  it("pastes each entry's face from the stored copy, and reads again a copy stored without one (the older encoding)", async () => {
    const { token, player } = await discordPlayer(t, "Faced");
    await setBalance(t, player.id, 4_999_999_999);
    await lb().catchUp();
    expect(await top(token)).toMatchObject({ playerId: player.id, username: "Faced", face: faceOf(player.id) });
    const stored = await redis().hget(KEYS.profiles, player.id);
    expect(splitProfile(stored, Date.now())!.face).toBe(faceOf(player.id));

    // The page is pasted from the stored text: the face there is the one shown (no hash per read).
    const copy = profileOf(splitProfile(stored, Date.now())!);
    const withFace = (face: string) => `${encodeProfile(copy, Date.now()).replace(/\t[^\t]*$/, "")}\t${face}`;
    await redis().hset(KEYS.profiles, player.id, withFace("storedFace012345"));
    await clock.advance(PAGE_CACHE_MS);
    expect((await top(token)).face).toBe("storedFace012345");

    // A copy in the encoding of before (no face; here with a name PostgreSQL does not have) counts as
    // missing: the page reads the player from PostgreSQL and stores a copy with the face again.
    const older = encodeProfile({ ...copy, username: "Older copy" }, Date.now()).replace(/\t[^\t]*$/, "");
    expect(older.split("\t")).toHaveLength(6);
    await redis().hset(KEYS.profiles, player.id, older);
    await clock.advance(PAGE_CACHE_MS);
    expect(await top(token)).toMatchObject({ playerId: player.id, username: "Faced", face: faceOf(player.id) });
    const again = splitProfile(await redis().hget(KEYS.profiles, player.id), Date.now())!;
    expect(again.face).toBe(faceOf(player.id));
    expect(profileOf(again).username).toBe("Faced");
  });
});
