import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { faceOf } from "../src/core/players/face";
import { LEADERBOARD_MAX_LIMIT } from "@casino/common";
import { startTestApp, TEST_DB, type TestApp } from "./harness";
import { diceBet, discordPlayer, restBoard, setBalance, sqlBoard, sqlRank } from "./leaderboard-helpers";
import { KEYS } from "../src/leaderboard/keys";
import { guestSql } from "../src/platform/db/guest-rule";

let t: TestApp;
const BADGE_ID = "424242424242";
beforeAll(async () => {
  t = await startTestApp({ SPECIAL_BADGES: JSON.stringify({ [BADGE_ID]: "Creator" }) });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const lb = () => t.app.services.leaderboards;

describe("the balance board", () => {
  it("orders by balance, ties by player id, exactly as PostgreSQL does", async () => {
    const players = await Promise.all(["Ann", "Ben", "Cat", "Dan", "Eve"].map((n) => discordPlayer(t, n)));
    const balances = [5_000_000, 3_000_000, 3_000_000, 3_000_000, 100];
    for (const [i, p] of players.entries()) await setBalance(t, p.player.id, balances[i]!);
    await lb().catchUp();

    const board = await restBoard(t, players[0]!.token);
    const expected = await sqlBoard(t);
    expect(board.total).toBe(expected.length);
    expect(board.entries.map((e) => [e.playerId, e.balance])).toEqual(expected.map((r) => [r.id, r.balance]));
    expect(board.entries.map((e) => e.rank)).toEqual(expected.map((_, i) => i + 1));

    const tied = players
      .slice(1, 4)
      .map((p) => p.player.id)
      .sort();
    const tiedRanks = tied.map((id) => board.entries.find((e) => e.playerId === id).rank);
    expect(tiedRanks).toEqual([tiedRanks[0], tiedRanks[0] + 1, tiedRanks[0] + 2]);
    const first = board.entries.find((e) => e.playerId === players[0]!.player.id);
    expect(first).toMatchObject({
      username: "Ann",
      balance: 5_000_000,
      anonymousMode: false,
      discordId: players[0]!.discordId,
      activeTag: null,
      badge: null,
    });
  });

  it("pages: the last page is partial, a page beyond the end is empty, and the limit is bounded", async () => {
    const { token } = await discordPlayer(t, "Pager");
    for (let i = 0; i < 4; i++) await discordPlayer(t, `Filler${i}`);
    await lb().catchUp();
    const { total } = (await t.request("GET", "/api/leaderboard", { token })).body;
    expect(total).toBeGreaterThanOrEqual(5);

    const limit = 2;
    const pages = Math.ceil(total / limit);
    const last = await t.request("GET", `/api/leaderboard?page=${pages}&limit=${limit}`, { token });
    expect(last.body.entries.length).toBe(total - (pages - 1) * limit);
    expect(last.body.entries[0].rank).toBe((pages - 1) * limit + 1);
    const beyond = await t.request("GET", `/api/leaderboard?page=${pages + 1}&limit=${limit}`, { token });
    expect(beyond).toMatchObject({ status: 200, body: { entries: [], total, page: pages + 1, limit } });

    const byDefault = await t.request("GET", "/api/leaderboard", { token });
    expect(byDefault.body).toMatchObject({ page: 1, limit: 25, scope: "global", window: "all" });
    expect((await t.request("GET", `/api/leaderboard?limit=${LEADERBOARD_MAX_LIMIT}`, { token })).status).toBe(200);
    expect(await t.request("GET", `/api/leaderboard?limit=${LEADERBOARD_MAX_LIMIT + 1}`, { token })).toMatchObject({
      status: 400,
      body: { error: "limit: limit must be at most 100" },
    });
    expect((await t.request("GET", "/api/leaderboard?limit=0", { token })).body.error).toBe("limit: limit must be at least 1");
    expect((await t.request("GET", "/api/leaderboard?page=0", { token })).body.error).toBe("page: page must be at least 1");
    expect((await t.request("GET", "/api/leaderboard?page=two", { token })).status).toBe(400);
    expect((await t.request("GET", "/api/leaderboard?page=1.5", { token })).body.error).toBe("page: page must be a whole number");
    expect((await t.request("GET", "/api/leaderboard?window=month", { token })).body.error).toBe("window: window must be all, day or week");
    expect((await t.request("GET", "/api/leaderboard?scope=guild", { token })).body.error).toBe(
      "guildId: guildId is required for the guild scope",
    );
    expect((await t.request("GET", "/api/leaderboard")).status).toBe(401);
  });

  it("never ranks guests, however rich", async () => {
    const guest = await t.guest();
    await setBalance(t, guest.player.id, 900_000_000);
    await diceBet(t, guest.player.id);
    await lb().catchUp();
    const board = await restBoard(t, guest.token);
    expect(board.entries.some((e) => e.playerId === guest.player.id)).toBe(false);
    expect(board.total).toBe((await sqlBoard(t)).length);
    const rank = await t.request("GET", `/api/player/${guest.player.id}/rank`, { token: guest.token });
    expect(rank).toMatchObject({ status: 200, body: { rank: null, total: board.total } });
    const byDiscordId = await t.request("GET", `/api/player/${guest.player.discordId}/rank`, { token: guest.token });
    expect(byDiscordId.body.rank).toBeNull();
  });

  it("shows an anonymous player as Anonymous to everyone but themselves, and special badges otherwise", async () => {
    const hidden = await discordPlayer(t, "Secretive");
    const shy = await discordPlayer(t, "Shy");
    const viewer = await discordPlayer(t, "Curious");
    const res = await t.request("POST", "/api/token", { body: { code: `ok:${BADGE_ID}:Maker` } });
    const maker = { token: res.body.session_token, player: res.body.player };
    await setBalance(t, hidden.player.id, 77_000_001);
    await setBalance(t, shy.player.id, 77_000_002);
    await setBalance(t, maker.player.id, 77_000_000);
    for (const p of [hidden, shy])
      expect(
        (await t.request("PATCH", "/api/player/anonymous", { token: p.token, body: { playerId: p.player.id, enabled: true } })).status,
      ).toBe(200);
    await lb().catchUp();

    const seenByOthers = await t.request("GET", "/api/leaderboard?limit=100", { token: viewer.token });
    // Neither anonymous player's id, name or Discord id is anywhere in the others' page.
    const text = JSON.stringify(seenByOthers.body);
    for (const p of [hidden, shy]) {
      expect(text).not.toContain(p.player.id);
      expect(text).not.toContain(p.discordId);
    }
    expect(text).not.toContain("Secretive");
    const entry = seenByOthers.body.entries.find((e: any) => e.balance === 77_000_001);
    expect(entry).toEqual({
      rank: entry.rank,
      playerId: expect.stringMatching(/^anon-[A-Za-z0-9_-]{22}$/),
      username: "Anonymous",
      avatarUrl: null,
      anonymousMode: true,
      face: null,
      badge: null,
      activeTag: null,
      balance: 77_000_001,
    });
    // Two anonymous players on one page: two stand-ins, so rows keep distinct keys.
    const shyEntry = seenByOthers.body.entries.find((e: any) => e.balance === 77_000_002);
    expect(shyEntry).toMatchObject({ username: "Anonymous", playerId: expect.stringMatching(/^anon-/) });
    expect(shyEntry.playerId).not.toBe(entry.playerId);
    // The stand-in stays put from one read to the next, and is no player's id: no rank is found for it.
    const next = await t.request("GET", "/api/leaderboard?limit=100", { token: viewer.token });
    expect(next.body.entries.find((e: any) => e.balance === 77_000_001).playerId).toBe(entry.playerId);
    expect((await t.request("GET", `/api/player/${entry.playerId}/rank`, { token: viewer.token })).status).toBe(404);
    // Nor does the rank call tie a known id to the masked row: an anonymous player's rank is told to themself only.
    for (const p of [hidden, shy])
      expect((await t.request("GET", `/api/player/${p.player.id}/rank`, { token: viewer.token })).body).toEqual({
        rank: null,
        total: seenByOthers.body.total,
      });
    expect((await t.request("GET", `/api/player/${hidden.discordId}/rank`, { token: viewer.token })).body.rank).toBeNull();
    expect((await t.request("GET", `/api/player/${hidden.player.id}/rank`, { token: hidden.token })).body.rank).toBe(entry.rank);
    expect(seenByOthers.body.entries.find((e: any) => e.playerId === maker.player.id)).toMatchObject({
      username: "Maker",
      badge: "Creator",
      discordId: BADGE_ID,
    });

    // The player themself gets their own entry whole, real id included; the other anonymous one stays masked.
    const seenBySelf = await t.request("GET", "/api/leaderboard?limit=100", { token: hidden.token });
    expect(seenBySelf.body.entries.find((e: any) => e.playerId === hidden.player.id)).toMatchObject({
      username: "Secretive",
      anonymousMode: true,
      discordId: hidden.discordId,
      avatarUrl: `https://cdn.discordapp.com/avatars/${hidden.discordId}/abc123.png`,
      face: faceOf(hidden.player.id),
      balance: 77_000_001,
    });
    expect(JSON.stringify(seenBySelf.body)).not.toContain(shy.player.id);
    expect(seenBySelf.body.entries.find((e: any) => e.balance === 77_000_002).playerId).toBe(shyEntry.playerId);

    // Switching back shows the name and id again at once: the change refreshes the stored profile before it is answered.
    for (const p of [hidden, shy])
      await t.request("PATCH", "/api/player/anonymous", { token: p.token, body: { playerId: p.player.id, enabled: false } });
    const again = await t.request("GET", "/api/leaderboard?limit=100", { token: viewer.token });
    expect(again.body.entries.find((e: any) => e.playerId === hidden.player.id).username).toBe("Secretive");
    // The face is the player's, the same one to every viewer once shown, and not the player id.
    expect(again.body.entries.find((e: any) => e.playerId === hidden.player.id).face).toBe(faceOf(hidden.player.id));
    expect(faceOf(hidden.player.id)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(faceOf(hidden.player.id)).not.toBe(faceOf(viewer.player.id));
  });

  it("answers a rank after each bet equal to the rank computed from PostgreSQL", async () => {
    const { token, player } = await discordPlayer(t, "Bettor");
    await setBalance(t, player.id, 3_000_000);
    for (let i = 0; i < 6; i++) {
      const answer = await diceBet(t, player.id, 250_000);
      // No catching up here: a read waits for the consumer to apply what this process committed.
      const rank = await t.request("GET", `/api/player/${player.id}/rank`, { token });
      expect(rank.body.rank).toBe(await sqlRank(t, player.id));
      const page = await t.request("GET", `/api/leaderboard?page=${Math.ceil(rank.body.rank / 25)}&limit=25`, { token });
      expect(page.body.entries.find((e: any) => e.playerId === player.id)).toMatchObject({ rank: rank.body.rank, balance: answer.balance });
    }
  });

  it("rebuilds the boards from PostgreSQL when Redis is flushed mid-test", async () => {
    const { token, player } = await discordPlayer(t, "Survivor");
    await setBalance(t, player.id, 12_345_678);
    await diceBet(t, player.id);
    await lb().catchUp();
    const before = await restBoard(t, token);
    const dayBefore = (await t.request("GET", "/api/leaderboard?window=day&limit=100", { token })).body;

    await t.app.services.redis.flushdb();
    const after = await restBoard(t, token);
    expect(after).toEqual(before);
    expect((await t.request("GET", "/api/leaderboard?window=day&limit=100", { token })).body).toEqual(dayBefore);
    expect(after.entries.map((e) => [e.playerId, e.balance])).toEqual((await sqlBoard(t)).map((r) => [r.id, r.balance]));

    // The consumer follows the new build: later movements still land.
    const answer = await diceBet(t, player.id, 1000);
    const rank = await t.request("GET", `/api/player/${player.id}/rank`, { token });
    expect(rank.body.rank).toBe(await sqlRank(t, player.id));
    const board = await restBoard(t, token);
    expect(board.entries.find((e) => e.playerId === player.id).balance).toBe(answer.balance);
  });

  it("answers a profile change even when Redis never answers the refresh of its stored copy", async () => {
    const { token, player } = await discordPlayer(t, "Stalled");
    await lb().catchUp();
    const redis = t.app.services.boardsRedis as unknown as { storeProfiles: (...args: unknown[]) => Promise<number> };
    const working = redis.storeProfiles;
    redis.storeProfiles = () => new Promise<number>(() => undefined); // a Redis that holds the command
    try {
      const res = await t.request("PATCH", "/api/player/anonymous", { token, body: { playerId: player.id, enabled: true } });
      expect(res.status).toBe(200);
      const [row] = await t.app.services.db.run((em) => em.query(`SELECT anonymous_mode FROM players WHERE id = $1`, [player.id]));
      expect(row.anonymous_mode).toBe(true);
    } finally {
      redis.storeProfiles = working;
    }
    // Named again, so the later tests' boards show every id (an anonymous player's row carries a stand-in).
    expect((await t.request("PATCH", "/api/player/anonymous", { token, body: { playerId: player.id, enabled: false } })).status).toBe(200);
  });

  it("loses no update while Redis refuses writes for a moment", async () => {
    const { token, player } = await discordPlayer(t, "Patient");
    await lb().catchUp();
    const redis = t.app.services.boardsRedis as unknown as { applyLedger: (...args: unknown[]) => Promise<string> };
    const working = redis.applyLedger;
    let refused = 0;
    redis.applyLedger = async () => {
      refused++;
      throw new Error("Connection is closed.");
    };
    try {
      await setBalance(t, player.id, 31_415_926);
      await lb().catchUp();
      expect(refused).toBeGreaterThan(0);
    } finally {
      redis.applyLedger = working;
    }
    await lb().catchUp();
    const board = await restBoard(t, token);
    expect(board.entries.find((e) => e.playerId === player.id).balance).toBe(31_415_926);
    expect(board.entries.map((e) => e.playerId)).toEqual((await sqlBoard(t)).map((r) => r.id));
  });

  it("repairs a board that lost or gained members behind the consumers' back", async () => {
    const { token, player } = await discordPlayer(t, "Lost");
    await lb().catchUp();
    const redis = t.app.services.redis;
    await redis.zrem("lb:v1:balance", player.id);
    expect(await lb().repair(0)).toBe(true);
    expect((await restBoard(t, token)).entries.some((e) => e.playerId === player.id)).toBe(true);
    await redis.zadd("lb:v1:balance", -5, "00000000-0000-0000-0000-00000000beef");
    expect(await lb().repair(0)).toBe(true);
    expect((await restBoard(t, token)).entries.map((e) => e.playerId)).toEqual((await sqlBoard(t)).map((r) => r.id));
    expect(await lb().repair(0)).toBe(false);
  });
});

describe("the day and week boards", () => {
  it("rank net winnings from games since the start of the UTC day and week, not grants", async () => {
    const a = await discordPlayer(t, "DayA");
    const b = await discordPlayer(t, "DayB");
    await setBalance(t, a.player.id, 50_000_000); // a grant: not winnings
    for (let i = 0; i < 3; i++) await diceBet(t, a.player.id, 100);
    for (let i = 0; i < 3; i++) await diceBet(t, b.player.id, 50);
    for (const window of ["day", "week"] as const) {
      const board = (await t.request("GET", `/api/leaderboard?window=${window}&limit=100`, { token: a.token })).body;
      const sql = await t.app.services.db.run((em) =>
        em.query(
          `SELECT e.player_id, sum(e.delta)::bigint AS net FROM ledger_entries e JOIN players p ON p.id = e.player_id
            WHERE NOT (${guestSql()}) AND e.reason IN ('bet','payout','refund','reward')
              AND e.created_at >= date_trunc($1, now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
            GROUP BY e.player_id ORDER BY sum(e.delta) DESC, e.player_id ASC`,
          [window],
        ),
      );
      expect(board.total).toBe(sql.length);
      expect(board.entries.map((e: any) => [e.playerId, e.net])).toEqual(sql.map((r: any) => [r.player_id, Number(r.net)]));
      const entryA = board.entries.find((e: any) => e.playerId === a.player.id);
      expect(entryA.balance).toBe(
        Number((await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE id = $1`, [a.player.id])))[0].balance),
      );
    }
  });
});

describe("the Connect the Dots and Dot Battle boards", () => {
  const insertSpeed = (playerId: string, ms: number) =>
    t.app.services.db.run((em) =>
      em.query(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, $2)`, [playerId, ms]),
    );
  const insertKills = (playerId: string, kills: number) =>
    t.app.services.db.run((em) => em.query(`INSERT INTO dot_battle_scores (player_id, kills) VALUES ($1, $2)`, [playerId, kills]));

  it("rank each player's best time ascending and best kills descending, guests left out", async () => {
    const fast = await discordPlayer(t, "Fast");
    const slow = await discordPlayer(t, "Slow");
    const guest = await t.guest();
    for (const [p, ms] of [
      [fast, 9_000],
      [fast, 7_500],
      [slow, 61_000],
      [fast, 8_000],
    ] as const) {
      await insertSpeed(p.player.id, ms);
      await lb().recordSpeed(p.player.id, ms);
    }
    await insertSpeed(guest.player.id, 10);
    await lb().recordSpeed(guest.player.id, 10);
    // A record stored without telling the leaderboard (another process, a crash) is picked up by the consumer.
    await insertKills(slow.player.id, 30);
    for (const [p, kills] of [
      [fast, 12],
      [fast, 4],
      [guest, 999],
    ] as const) {
      await insertKills(p.player.id, kills);
      await lb().recordKills(p.player.id, kills);
    }
    await lb().catchUp();

    const speed = await t.request("GET", "/api/game/dots/leaderboard?limit=25", { token: fast.token });
    expect(speed.status).toBe(200);
    expect(speed.body.entries).toEqual([
      {
        rank: 1,
        playerId: fast.player.id,
        username: "Fast",
        avatarUrl: fast.player.avatarUrl,
        face: faceOf(fast.player.id),
        anonymousMode: false,
        discordId: fast.discordId,
        badge: null,
        activeTag: null,
        completionTimeMs: 7_500,
      },
      {
        rank: 2,
        playerId: slow.player.id,
        username: "Slow",
        avatarUrl: slow.player.avatarUrl,
        face: faceOf(slow.player.id),
        anonymousMode: false,
        discordId: slow.discordId,
        badge: null,
        activeTag: null,
        completionTimeMs: 61_000,
      },
    ]);
    expect(speed.body.total).toBe(2);
    const kills = await t.request("GET", "/api/game/dot-battle/leaderboard?limit=25", { token: slow.token });
    expect(kills.body.entries.map((e: any) => [e.playerId, e.kills, e.rank])).toEqual([
      [slow.player.id, 30, 1],
      [fast.player.id, 12, 2],
    ]);
    expect(Object.keys(kills.body.entries[0]).sort()).toEqual([
      "anonymousMode",
      "avatarUrl",
      "badge",
      "discordId",
      "face",
      "kills",
      "playerId",
      "rank",
      "username",
    ]);
    const rank = await t.request("GET", `/api/player/${fast.player.id}/rank?board=speed`, { token: fast.token });
    expect(rank.body).toEqual({ rank: 1, total: 2 });
    expect((await t.request("GET", `/api/player/${fast.player.id}/rank?board=kills&window=day`, { token: fast.token })).status).toBe(400);
    expect((await t.request("GET", "/api/game/dots/leaderboard?limit=500", { token: fast.token })).status).toBe(400);

    await t.app.services.redis.flushdb();
    expect((await t.request("GET", "/api/game/dots/leaderboard?limit=25", { token: fast.token })).body).toEqual(speed.body);
  });

  it("gives anonymous players on the speed and kills boards stand-ins, never their ids, but their own entry to themselves", async () => {
    const hidden = await discordPlayer(t, "Quiet");
    const shy = await discordPlayer(t, "Quieter");
    const viewer = await discordPlayer(t, "Looker");
    for (const [i, p] of [hidden, shy].entries()) {
      await t.app.services.players.update(p.player.id, { anonymousMode: true });
      await t.app.services.db.run((em) =>
        em.query(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, $2)`, [p.player.id, 1_001 + i]),
      );
      await lb().recordSpeed(p.player.id, 1_001 + i);
      await t.app.services.db.run((em) =>
        em.query(`INSERT INTO dot_battle_scores (player_id, kills) VALUES ($1, $2)`, [p.player.id, 9_001 + i]),
      );
      await lb().recordKills(p.player.id, 9_001 + i);
    }
    await lb().catchUp();
    const boards = [
      { path: "/api/game/dots/leaderboard?limit=100", value: "completionTimeMs", of: [1_001, 1_002] },
      { path: "/api/game/dot-battle/leaderboard?limit=100", value: "kills", of: [9_001, 9_002] },
    ];
    const standIns: string[] = [];
    for (const board of boards) {
      const seen = await t.request("GET", board.path, { token: viewer.token });
      expect(seen.status).toBe(200);
      const text = JSON.stringify(seen.body);
      for (const p of [hidden, shy]) {
        expect(text).not.toContain(p.player.id);
        expect(text).not.toContain(p.discordId);
      }
      const [a, b] = board.of.map((v) => seen.body.entries.find((e: any) => e[board.value] === v));
      expect(a).toMatchObject({ username: "Anonymous", face: null, playerId: expect.stringMatching(/^anon-[A-Za-z0-9_-]{22}$/) });
      expect(b).toMatchObject({ username: "Anonymous", face: null, playerId: expect.stringMatching(/^anon-[A-Za-z0-9_-]{22}$/) });
      expect(a.playerId).not.toBe(b.playerId);
      standIns.push(a.playerId, b.playerId);
      const self = await t.request("GET", board.path, { token: hidden.token });
      expect(self.body.entries.find((e: any) => e[board.value] === board.of[0])).toMatchObject({
        playerId: hidden.player.id,
        username: "Quiet",
        discordId: hidden.discordId,
      });
    }
    // Each board its own stand-ins: a player's row on one cannot be matched with their row on another.
    expect(new Set(standIns).size).toBe(4);
    // Out of anonymous mode, the rows carry the ids again.
    for (const p of [hidden, shy]) await t.app.services.players.update(p.player.id, { anonymousMode: false });
    const named = await t.request("GET", boards[1]!.path, { token: viewer.token });
    expect(named.body.entries.find((e: any) => e.kills === 9_001)).toMatchObject({ playerId: hidden.player.id, username: "Quiet" });
  });
});

describe.skipIf(TEST_DB === "pglite")("commits out of id order (PostgreSQL)", () => {
  /** Takes a ledger id in a transaction that stays open until `commit` is called. */
  async function openMovement(playerId: string, amount: number) {
    const runner = t.app.services.db.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    const [[row]] = await runner.query(`UPDATE players SET balance = balance + $2 WHERE id = $1 RETURNING balance`, [playerId, amount]);
    await runner.query(
      `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) VALUES ($1, $2, $3, 'grant', 'late', $4, 'mint:admin-grant')`,
      [playerId, amount, row.balance, `late-${Date.now()}-${Math.random()}`],
    );
    return {
      balance: Number(row.balance),
      commit: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
    };
  }

  it("applies an entry that committed after a later id was already consumed", async () => {
    const late = await discordPlayer(t, "Late");
    const early = await discordPlayer(t, "Early");
    await lb().catchUp();
    const pending = await openMovement(late.player.id, 40_000_000);
    await setBalance(t, early.player.id, 2_500_000);
    await lb().catchUp();
    expect((await restBoard(t, late.token)).entries.find((e) => e.playerId === early.player.id).balance).toBe(2_500_000);

    await pending.commit();
    await lb().catchUp();
    const board = await restBoard(t, late.token);
    expect(board.entries.find((e) => e.playerId === late.player.id).balance).toBe(pending.balance);
    expect(board.entries.map((e) => e.playerId)).toEqual((await sqlBoard(t)).map((r) => r.id));
  });

  it("applies an entry that was in flight while the board was rebuilt, exactly once", async () => {
    const player = await discordPlayer(t, "InFlight");
    const other = await discordPlayer(t, "After");
    await lb().catchUp();
    const pending = await openMovement(player.player.id, 1_234);
    // A later id commits first, so the open one is a hole below the snapshot's top.
    await setBalance(t, other.player.id, 4_321);
    await lb().rebuild();
    await pending.commit();
    await lb().catchUp();
    await lb().catchUp();
    const board = await restBoard(t, player.token);
    expect(board.entries.find((e) => e.playerId === player.player.id).balance).toBe(pending.balance);
    expect(board.entries.map((e) => [e.playerId, e.balance])).toEqual((await sqlBoard(t)).map((r) => [r.id, r.balance]));
  });
});

describe("the cheap page path", () => {
  it("answers exactly what the general path answers, on every board and window, for every kind of viewer", async () => {
    const res = await t.request("POST", "/api/token", { body: { code: `ok:${BADGE_ID}:Maker` } });
    const maker = res.body.player;
    const hidden = await discordPlayer(t, "Hidden");
    const tagged = await discordPlayer(t, "Tagged");
    const plain = await discordPlayer(t, 'Plain "quoted" \\ name');
    const [tag] = await t.app.services.db.run((em) => em.query(`SELECT id FROM tags ORDER BY id LIMIT 1`));
    await t.app.services.players.update(tagged.player.id, { activeTagId: tag.id });
    await t.app.services.players.update(hidden.player.id, { anonymousMode: true });
    for (const [i, p] of [maker, hidden.player, tagged.player, plain.player].entries()) {
      await setBalance(t, p.id, 60_000_000 + i);
      await diceBet(t, p.id, 100 + i);
      await t.app.services.db.run((em) =>
        em.query(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, $2)`, [p.id, 5_000 + i]),
      );
      await lb().recordSpeed(p.id, 5_000 + i);
      await t.app.services.db.run((em) => em.query(`INSERT INTO dot_battle_scores (player_id, kills) VALUES ($1, $2)`, [p.id, 50 + i]));
      await lb().recordKills(p.id, 50 + i);
    }
    await lb().catchUp();
    // A profile missing from Redis is read from PostgreSQL on the way.
    await t.app.services.redis.hdel(KEYS.profiles, plain.player.id);

    const specs = [
      { board: "balance", window: "all" },
      { board: "balance", window: "day" },
      { board: "balance", window: "week" },
      { board: "speed", window: "all" },
      { board: "kills", window: "all" },
    ] as const;
    let compared = 0;
    for (const spec of specs) {
      for (const viewer of [hidden.player.id, plain.player.id, null]) {
        for (const [page, limit] of [
          [1, 100],
          [2, 3],
          [1000, 10],
        ] as const) {
          const board = { ...spec, scope: "global" as const };
          const cheap = JSON.parse(await lb().pageJson(board, page, limit, viewer));
          expect(cheap).toEqual(await lb().page(board, page, limit, viewer));
          compared += cheap.entries.length;
        }
      }
    }
    // The pages held the special kinds: a badge, a tag, an anonymous player seen by themselves and by others.
    const all = JSON.parse(await lb().pageJson({ board: "balance", window: "all", scope: "global" }, 1, 100, hidden.player.id)).entries;
    expect(all.find((e: any) => e.playerId === maker.id).badge).toBe("Creator");
    expect(all.find((e: any) => e.playerId === tagged.player.id).activeTag).toEqual({ name: expect.any(String) });
    expect(all.find((e: any) => e.playerId === hidden.player.id).username).toBe("Hidden");
    expect(all.find((e: any) => e.playerId === plain.player.id).username).toBe('Plain "quoted" \\ name');
    const others = JSON.parse(await lb().pageJson({ board: "kills", window: "all", scope: "global" }, 1, 100, null)).entries;
    expect(others.find((e: any) => e.kills === 51)).toMatchObject({
      username: "Anonymous",
      badge: null,
      playerId: expect.stringMatching(/^anon-/),
    });
    expect(JSON.stringify(others)).not.toContain(hidden.player.id);
    expect(compared).toBeGreaterThan(40);
  });
});
