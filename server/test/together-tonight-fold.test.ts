import { afterAll, describe, expect, it } from "vitest";
import { TOGETHER_ROOM, tonightBoardPush, type TonightBoardPush, type TonightRow } from "@casino/common";
import { tonightBoards, tonightReads } from "../src/together/tonight";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb, startTestApp, type TestApp } from "./harness";
import { startFakeDiscord } from "./fake-discord";
import { startServerProcess, type ServerProcess } from "./server-process";
import { joinOn } from "./process-helpers";
import { betAndLeave, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * The tonight board kept up to date by its room (TonightTally): after a burst of rounds from several
 * members, one of them playing on a second server process (their rows reach this process's room through
 * Redis), the pushed board equals a fresh full read of the database, and the room read the whole board
 * only a bounded number of times, not once per round or per push.
 */
const INSTANCE = "inst-tonight-fold";
const servers: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL").catch(() => undefined);
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

interface Member {
  name: string;
  token: string;
  playerId: string;
}

async function signIn(t: TestApp, discordId: string, name: string): Promise<Member> {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${discordId}:${name}`, instanceId: INSTANCE } });
  expect(res.status).toBe(200);
  return { name, token: res.body.session_token as string, playerId: res.body.player.id as string };
}

const boards = (inbox: Inbox): TonightBoardPush[] =>
  inbox.messages.filter((m) => m.type === "board").map((m) => tonightBoardPush.parse(m.body) as TonightBoardPush);

/** Bets of limbo and dice that win and lose, and a card game's rounds (hands), `n` in all. */
const bets = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) =>
    (i + seed) % 5 === 0
      ? { game: "baccarat", amount: 10 + i, params: { bets: { player: 10 + i } } }
      : (i + seed) % 2 === 0
        ? { game: "limbo", amount: 10 + i, params: { target: 1.5 + ((i * 7 + seed) % 4) } }
        : { game: "dice", amount: 5 + i, params: { target: 30 + ((i * 11 + seed) % 40), direction: "over" } },
  );

describe.runIf(TEST_DB === "postgres")("the tonight board's incremental reads", () => {
  it("after a burst of rounds from several members and two processes, pushes the full read's board with few full reads", async () => {
    const database = await freshDatabaseUrl();
    cleanups.push(() => database.drop());
    const redis = await leaseRedisDb();
    cleanups.push(() => redis.release());
    const on = { databaseUrl: database.url!, redisUrl: redis.url! };
    const env = { BET_RATE_PER_SECOND: "1000" };
    // This process's app first (it migrates the database), then a second server process on the same data.
    const t = await startTestApp(env, { on });
    cleanups.push(() => t.close());
    const discord = await startFakeDiscord();
    cleanups.push(() => discord.close());
    const other = await startServerProcess({
      env: {
        ...env,
        DATABASE_URL: database.url!,
        REDIS_URL: redis.url!,
        DISCORD_CLIENT_ID: "client-id",
        DISCORD_CLIENT_SECRET: "client-secret",
        DISCORD_API_BASE: discord.url,
      },
      name: "tonight-b",
    });
    servers.push(other);

    const alice = await signIn(t, "8700001", "Alice");
    const bob = await signIn(t, "8700002", "Bob");
    const carol = await signIn(t, "8700003", "Carol");
    const dan = await signIn(t, "8700004", "Dan");
    const members = [alice, bob, carol, dan];
    // Carol plays anonymously: hidden from the others, biggest win without its verify link.
    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token: carol.token, body: { playerId: carol.playerId, enabled: true } })).status,
    ).toBe(200);
    // Every member in this process's together room: the room that keeps the board.
    const views = new Map<Member, Inbox>();
    for (const m of members) {
      const room = await t.sdk(m.token).joinOrCreate(TOGETHER_ROOM, { instanceId: INSTANCE });
      cleanups.push(() => room.leave(true).then(() => undefined));
      views.set(m, new Inbox(room));
    }
    const aliceView = views.get(alice)!;
    await waitFor(() => boards(aliceView).at(-1)?.rows.length === members.length, 30_000);

    const before = { ...tonightReads };
    const pushesBefore = boards(aliceView).length;
    // The burst, in waves: three members on this process and Dan on the other one, all at once; each
    // wave is on every member's board before the next one starts (so each is at least one push).
    const WAVES = 5;
    const perWave = new Map<Member, number>([
      [alice, 4],
      [bob, 3],
      [carol, 3],
      [dan, 3],
    ]);
    const played = new Map<Member, number>(members.map((m) => [m, 0]));
    const roundsOf = (rows: TonightRow[] | undefined, m: Member) => rows?.find((r) => (r.hidden ? "Carol" : r.username) === m.name)?.rounds;
    for (let wave = 0; wave < WAVES; wave++) {
      const casinos = await Promise.all([alice, bob, carol].map((m) => joinCasino(t, m.token)));
      const danCasino = await joinOn(other, dan.token);
      await Promise.all([
        ...[alice, bob, carol].map((m, i) => betAndLeave(casinos[i]!, bets(perWave.get(m)!, wave * 4 + i))),
        betAndLeave(danCasino, bets(perWave.get(dan)!, wave * 4 + 3)),
      ]);
      for (const m of members) played.set(m, played.get(m)! + perWave.get(m)!);
      // Every member's board catches up with every round, the other process's too.
      for (const m of members) {
        const view = views.get(m)!;
        await waitFor(() => {
          const rows = boards(view).at(-1)?.rows;
          return members.every((each) => roundsOf(rows, each) === played.get(each));
        }, 30_000);
      }
    }

    // Each member's pushed board is the one a fresh full read of the database gives, as they see it.
    const fresh = await tonightBoards(
      t.app.services.db,
      INSTANCE,
      members.map((m) => m.playerId),
    );
    for (const m of members) {
      const pushed = boards(views.get(m)!).at(-1)!;
      expect(pushed.day).toBe(fresh.day);
      expect(pushed.rows, m.name).toEqual(fresh.boards.get(m.playerId));
    }
    const seen = boards(aliceView).at(-1)!.rows;
    expect(seen.find((r) => r.hidden)).toMatchObject({ username: "Anonymous", discordId: null });
    expect(seen.reduce((sum, r) => sum + r.hands, 0)).toBeGreaterThan(0);
    expect(seen.some((r) => r.biggestWin !== null)).toBe(true);

    // The room brought its board up to date by incremental reads, one per push at most; whole-board
    // reads stayed few (a round committed out of order, or the periodic one), not one per push or round.
    const rounds = [...played.values()].reduce((a, b) => a + b, 0);
    const pushes = boards(aliceView).length - pushesBefore;
    const full = tonightReads.full - before.full;
    const incremental = tonightReads.incremental - before.incremental;
    expect(rounds).toBe(WAVES * 13);
    expect(pushes).toBeGreaterThanOrEqual(WAVES);
    expect(incremental).toBeGreaterThanOrEqual(pushes - full);
    expect(full).toBeLessThanOrEqual(2);
  });
});
