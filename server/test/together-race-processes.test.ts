import { afterAll, describe, expect, it } from "vitest";
import { Client, type Room } from "@colyseus/sdk";
import pg from "pg";
import { TOGETHER_ROOM, racePush, type HistoryItem, type RaceView } from "@casino/common";
import { ManualClock } from "../src/platform/clock";
import { TEST_DB, freshDatabaseUrl, leaseRedisDb, startTestApp } from "./harness";
import { startFakeDiscord } from "./fake-discord";
import { startServerProcess, type ServerProcess } from "./server-process";
import { api, auditDatabase, joinOn } from "./process-helpers";
import { Inbox, ask, waitFor } from "./room-helpers";

/**
 * A race of an activity instance over real server processes on one PostgreSQL and Redis, on the real
 * clock (a join window shortened by RACE_JOIN_WINDOW_MS): two members asking two processes to start a
 * race at the same moment get exactly one race; the process running it is killed (SIGKILL) while it
 * runs, and a server started afterwards on the same database (in this process, on the test's clock, so
 * the test moves it to the race's end) takes the race up as it stood and ends it at its end with the
 * right order and winner, who gets the race tag once.
 */
const servers: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL").catch(() => undefined);
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

const INSTANCE = "inst-race-processes";

interface Member {
  name: string;
  token: string;
  playerId: string;
}
interface Connected {
  room: Room;
  inbox: Inbox;
}

async function signIn(server: ServerProcess, discordId: string, name: string): Promise<Member> {
  const res = await api(server, "POST", "/api/token", { body: { code: `ok:${discordId}:${name}`, instanceId: INSTANCE } });
  expect(res.status).toBe(200);
  return { name, token: res.body.session_token, playerId: res.body.player.id };
}

/** A new together room connection on `server` (created there: a killed process's rooms are not joined). */
async function connect(server: ServerProcess, m: Member): Promise<Connected> {
  const client = new Client(server.wsUrl);
  client.auth.token = m.token;
  const room = await client.create(TOGETHER_ROOM, { instanceId: INSTANCE });
  return { room, inbox: new Inbox(room) };
}

const races = (c: Connected): (RaceView | null)[] =>
  c.inbox.messages.filter((x) => x.type === "race").map((x) => racePush.parse(x.body).race as RaceView | null);
const errors = (c: Connected) => c.inbox.messages.filter((x) => x.type === "error").map((x) => x.body as { code: string; message: string });

async function raceWhere(c: Connected, holds: (race: RaceView) => boolean, timeoutMs = 60_000): Promise<RaceView> {
  let found: RaceView | undefined;
  await waitFor(() => {
    const race = races(c).at(-1);
    if (race && holds(race)) found = race;
    return found;
  }, timeoutMs);
  return found!;
}

async function play(server: ServerProcess, m: Member, rounds: number) {
  const { room, inbox } = await joinOn(server, m.token);
  for (let i = 0; i < rounds; i++) {
    expect((await ask(room, inbox, "bet", { game: "limbo", amount: 20 + i, params: { target: 2.5 } })).type).toBe("result");
  }
  await room.leave(true);
}

describe.runIf(TEST_DB === "postgres")("a race over server processes", () => {
  it("two processes asked at once start one race; a process killed mid-race, the next one ends it with the right winner", async () => {
    const database = await freshDatabaseUrl();
    cleanups.push(() => database.drop());
    const redis = await leaseRedisDb();
    cleanups.push(() => redis.release());
    const discord = await startFakeDiscord();
    cleanups.push(() => discord.close());
    const sql = new pg.Client({ connectionString: database.url });
    sql.on("error", () => undefined);
    await sql.connect();
    cleanups.push(() => sql.end());
    const q = async (text: string, params: unknown[] = []) => (await sql.query(text, params)).rows as any[];
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: redis.url!,
      DISCORD_CLIENT_ID: "client-id",
      DISCORD_CLIENT_SECRET: "client-secret",
      DISCORD_API_BASE: discord.url,
      BET_RATE_PER_SECOND: "1000",
      // A join window of 8 s; the race's minutes are real ones.
      RACE_JOIN_WINDOW_MS: "8000",
    };
    // One after the other: the first migrates the database.
    const a = await startServerProcess({ env, name: "race-a" });
    servers.push(a);
    const b = await startServerProcess({ env, name: "race-b" });
    servers.push(b);

    const alice = await signIn(a, "8600001", "Alice");
    const bob = await signIn(b, "8600002", "Bob");
    const onA = await connect(a, alice);
    const onB = await connect(b, bob);
    await waitFor(() => races(onA).length > 0 && races(onB).length > 0, 30_000);

    // Both ask at the same moment, each its own process: one race, the other refused.
    onA.room.send("race-start", { minutes: 5 });
    onB.room.send("race-start", { minutes: 5 });
    const answered = (c: Connected) => errors(c).length > 0 || races(c).some((r) => r?.joined);
    await waitFor(() => answered(onA) && answered(onB), 30_000);
    const refused = [onA, onB].filter((c) => errors(c).length > 0);
    expect(refused).toHaveLength(1);
    expect(errors(refused[0]!)).toEqual([
      { code: "race_refused", message: "A race is already on in this activity: join it or wait for its end" },
    ]);
    const rows = await q(`SELECT id, started_by FROM tonight_races WHERE instance_id = $1`, [INSTANCE]);
    expect(rows).toHaveLength(1);
    const starter = rows[0].started_by === alice.playerId ? alice : bob;
    expect(refused[0]).toBe(starter === alice ? onB : onA);
    // The other joins it; both processes' rooms tell both members.
    refused[0]!.room.send("race-join", {});
    for (const c of [onA, onB]) await raceWhere(c, (r) => r.rows.length === 2 && r.joined);
    for (const c of [onA, onB]) await raceWhere(c, (r) => r.phase === "running");

    // Process B stops; Bob's activity joins again at process A (as his client does when its process
    // goes), the members play there while the race runs, and A pushes the live order. A member's
    // settled round reaches the rooms through the instance's feed, which hears only members present.
    await onB.room.leave(true);
    expect(await b.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const bobOnA = await connect(a, bob);
    await raceWhere(bobOnA, (r) => r.joined);
    await play(a, alice, 3);
    await play(a, bob, 2);
    await raceWhere(onA, (r) => r.rows.every((x) => x.rounds === (x.username === "Alice" ? 3 : 2)));

    // Process A is killed while the race runs (minutes before its end); a server started afterwards on
    // the same database and Redis, on the test's clock, takes the race up where it stood and ends it.
    const [{ ends_at }] = await q(`SELECT ends_at FROM tonight_races WHERE instance_id = $1`, [INSTANCE]);
    const endsAt = new Date(ends_at).getTime();
    expect(endsAt - Date.now()).toBeGreaterThan(60_000);
    expect(await a.stop("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });
    expect((await q(`SELECT finished_at FROM tonight_races WHERE instance_id = $1`, [INSTANCE]))[0].finished_at).toBeNull();
    const clock = new ManualClock(Date.now());
    const c = await startTestApp(env, { clock, on: { databaseUrl: database.url!, redisUrl: redis.url! } });
    cleanups.push(() => c.close());
    const connectC = async (m: Member): Promise<Connected> => {
      const room = await c.sdk(m.token).create(TOGETHER_ROOM, { instanceId: INSTANCE });
      return { room, inbox: new Inbox(room) };
    };
    const aliceOnC = await connectC(alice);
    const bobOnC = await connectC(bob);
    const resumed = await raceWhere(aliceOnC, (r) => r.phase === "running" && r.rows.some((x) => x.rounds > 0));
    await clock.advance(endsAt - clock.now() - 1);
    expect(races(aliceOnC).at(-1)!.phase).toBe("running");
    await clock.advance(1);
    const final = await raceWhere(aliceOnC, (r) => r.phase === "finished");

    // Every round either played is inside the race: the order is their history's, as it stood when A died.
    const inside = async (m: Member) => {
      const res = await c.request("GET", `/api/player/${m.playerId}/history?kind=round&limit=100`, { token: m.token });
      const items = res.body.items as HistoryItem[];
      return { name: m.name, net: items.reduce((s, i) => s + i.payout - i.betAmount, 0), rounds: items.length };
    };
    const joinOrder = [starter, starter === alice ? bob : alice].map((m) => m.name);
    const expected = [await inside(alice), await inside(bob)].sort(
      (x, y) => y.net - x.net || y.rounds - x.rounds || joinOrder.indexOf(x.name) - joinOrder.indexOf(y.name),
    );
    expect(resumed.rows.map((r) => ({ name: r.username, net: r.net, rounds: r.rounds }))).toEqual(
      expected.map(({ name, net, rounds }) => ({ name, net, rounds })),
    );
    expect(final.rows.map((r) => ({ name: r.username, net: r.net, rounds: r.rounds, winner: r.winner }))).toEqual(
      expected.map((e, i) => ({ ...e, winner: i === 0 })),
    );
    await raceWhere(bobOnC, (r) => r.phase === "finished" && r.rows.every((x, i) => x.net === final.rows[i]!.net));
    const winner = expected[0]!.name === "Alice" ? alice : bob;
    const [race] = await q(`SELECT winner_id, finished_at FROM tonight_races WHERE instance_id = $1`, [INSTANCE]);
    expect(race.winner_id).toBe(winner.playerId);
    expect(
      await q(
        `SELECT pt.player_id FROM player_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.objective_type = 'race_win' AND pt.unlocked`,
      ),
    ).toEqual([{ player_id: winner.playerId }]);

    for (const x of [aliceOnC, bobOnC]) await x.room.leave(true);
    await c.expectLedgerInvariant();
    const audit = await auditDatabase(database.url!);
    expect(audit.mismatches).toEqual([]);
  }, 180_000);
});
