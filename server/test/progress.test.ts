import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Progress } from "../src/progress/progress";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino } from "./room-helpers";
import { diceBet, discordPlayer, setBalance } from "./leaderboard-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const progress = () => t.app.services.progress;
const query = (sql: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(sql, params));
const tags = async (token: string, playerId: string) => {
  const res = await t.request("GET", `/api/player/${playerId}/tags`, { token });
  expect(res.status).toBe(200);
  return new Map<string, { unlocked: boolean; progress: number }>(
    res.body.map((x: any) => [x.tag.name, { unlocked: x.unlocked, progress: x.progress }]),
  );
};

/** Finished rounds as the ledger writes them (the test picks the results; no coins move). */
async function rounds(playerId: string, ...games: [game: string, result: "win" | "lose" | "push"][]) {
  for (const [game, result] of games) {
    await query(`INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout) VALUES ($1, $2, 0, $3, 0)`, [
      playerId,
      game,
      result,
    ]);
  }
}

describe("tag progress", () => {
  it("unlocks Newcomer in the job that counts the first game and tells the player on the room", async () => {
    const { token, player } = await t.guest();
    await progress().catchUp();
    const before = await tags(token, player.id);
    expect([...before.values()].every((x) => !x.unlocked)).toBe(true);
    expect(before.get("Newcomer")!.progress).toBe(0);
    expect(before.get("Comfortable")!.progress).toBe(1000); // the starting grant is the peak so far

    const { room, inbox } = await joinCasino(t, token);
    const answer = await ask(room, inbox, "bet", { game: "dice", amount: 5, params: { target: 49.5, direction: "under" } });
    expect(answer.type).toBe("result");
    const notice = await inbox.wait((m) => m.type === "notice" && m.body.title === "Tag Unlocked!");
    expect(notice.body.description).toBe("You earned the Newcomer tag.");
    await room.leave();

    const after = await tags(token, player.id);
    expect(after.get("Newcomer")).toEqual({ unlocked: true, progress: 1 });
    expect(after.get("Regular")).toEqual({ unlocked: false, progress: 1 });
    expect(after.get("Dice Roller")).toEqual({ unlocked: false, progress: 1 });
    const [row] = await query(
      `SELECT unlocked_at FROM player_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.player_id = $1 AND t.name = 'Newcomer'`,
      [player.id],
    );
    expect(row.unlocked_at).not.toBeNull();
    expect(
      (await t.request("PATCH", "/api/player/active-tag", { token, body: { playerId: player.id, tagId: await tagId("Newcomer") } })).status,
    ).toBe(200);
  });

  it("counts card and dice games and win streaks incrementally, from rounds, not by counting plays on read", async () => {
    const { token, player } = await t.guest();
    await rounds(
      player.id,
      ["blackjack", "win"],
      ["baccarat", "win"],
      ["dice", "lose"],
      ["craps", "win"],
      ["poker", "win"],
      ["sic-bo", "win"],
      ["slots", "push"],
    );
    await progress().catchUp();
    const [counters] = await query(`SELECT * FROM player_progress WHERE player_id = $1`, [player.id]);
    expect(counters).toMatchObject({ games: 7, card_games: 3, dice_games: 3, current_win_streak: 0, best_win_streak: 3 });
    const shown = await tags(token, player.id);
    expect(shown.get("Hot Hand")).toEqual({ unlocked: true, progress: 3 });
    expect(shown.get("On Fire")).toEqual({ unlocked: false, progress: 3 });
    expect(shown.get("Card Shark")).toEqual({ unlocked: false, progress: 3 });
    expect(shown.get("Dice Roller")).toEqual({ unlocked: false, progress: 3 });

    // A round recorded but not yet consumed is not counted when tags are read: progress comes from the counters only.
    await rounds(player.id, ["dice", "lose"], ["dice", "lose"]);
    expect((await tags(token, player.id)).get("Dice Roller")!.progress).toBe(3);
  });

  it("reading tags never writes", async () => {
    const { token, player } = await t.guest();
    await rounds(player.id, ["dice", "win"]);
    await progress().catchUp();
    const snapshot = async () =>
      JSON.stringify(await query(`SELECT * FROM player_tags WHERE player_id = $1 ORDER BY tag_id`, [player.id])) +
      JSON.stringify(await query(`SELECT * FROM player_progress WHERE player_id = $1`, [player.id]));
    const before = await snapshot();
    for (let i = 0; i < 3; i++) await tags(token, player.id);
    expect(await snapshot()).toBe(before);
  });

  it("keeps the peak balance, so a balance tag stays earned after the coins are gone", async () => {
    const { token, player } = await discordPlayer(t, "Peaky");
    await setBalance(t, player.id, 6_000);
    await setBalance(t, player.id, 300);
    await progress().catchUp();
    const shown = await tags(token, player.id);
    expect(shown.get("Comfortable")).toEqual({ unlocked: true, progress: 6_000 });
    expect(shown.get("High Roller")).toEqual({ unlocked: false, progress: 6_000 });
  });

  it("counts each round once, even when a second consumer replays everything from the start", async () => {
    const { player } = await t.guest();
    await rounds(player.id, ["dice", "win"], ["dice", "win"]);
    await diceBet(t, player.id);
    await progress().catchUp();
    const counts = async () => ({
      progress: await query(`SELECT games, dice_games, best_win_streak, peak_balance FROM player_progress ORDER BY player_id`),
      perGame: await query(`SELECT * FROM game_play_counts ORDER BY game_type`),
      perPlayer: await query(`SELECT * FROM player_game_counts ORDER BY player_id, game_type`),
      unlocked: await query(`SELECT player_id, tag_id, unlocked FROM player_tags ORDER BY player_id, tag_id`),
    });
    const before = await counts();

    await query(`UPDATE consumer_cursors SET position = 0`);
    const replay = new Progress(t.app.services.db, t.app.services.events, t.app.services.log);
    await replay.catchUp();
    await replay.stop();
    expect(await counts()).toEqual(before);
  });
});

describe("game stats", () => {
  it("answers plays per game for everyone and, with mine=1, for the caller", async () => {
    const { token, player } = await t.guest();
    await rounds(player.id, ["keno", "lose"], ["keno", "win"], ["mines", "lose"]);
    await diceBet(t, player.id);
    await progress().catchUp();

    const all = await t.request("GET", "/api/game-stats", { token });
    expect(all.status).toBe(200);
    const expected = await query(
      `SELECT game_type, count(*)::int AS n FROM game_sessions GROUP BY game_type ORDER BY count(*) DESC, game_type`,
    );
    expect(all.body).toEqual(expected.map((r: any) => ({ gameType: r.game_type, playCount: r.n })));

    const mine = await t.request("GET", "/api/game-stats?mine=1", { token });
    expect(mine.body).toEqual([
      { gameType: "keno", playCount: 2 },
      { gameType: "dice", playCount: 1 },
      { gameType: "mines", playCount: 1 },
    ]);
    expect((await t.request("GET", "/api/game-stats?mine=yes", { token })).status).toBe(400);
    expect((await t.request("GET", "/api/game-stats")).status).toBe(401);
  });
});

async function tagId(name: string): Promise<number> {
  const [row] = await query(`SELECT id FROM tags WHERE name = $1`, [name]);
  return Number(row.id);
}
