import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { RACE_JOIN_WINDOW_MS, TOGETHER_ROOM, racePush, type RaceView } from "@casino/common";
import { ManualClock } from "../src/platform/clock";
import { openDatabase, type Database } from "../src/platform/db/database";
import { playerChannel, type PlayerEvent } from "../src/core/events/player-events";
import { RACE_SWEEP_MS, RaceSweep } from "../src/together/race-sweep";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { ask, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * A race whose members have all left ends on time: no together room of its instance is open to take its
 * end, and the race sweep, on the app's clock, finishes it at its end (the winner gets the race tag and
 * hears of it, a member connecting afterwards sees it finished). Two sweeps at the same moment, the
 * app's and one of a second process (its own pool of connections to the same database), finish it once.
 */
const clock = new ManualClock(Date.UTC(2026, 5, 2, 20));
let t: TestApp;
let other: Database | undefined;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000", ROOM_MAX_MESSAGES_PER_SECOND: "10000" }, { clock });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

interface Member {
  token: string;
  playerId: string;
}

async function signIn(instanceId: string, discordId: string, name: string): Promise<Member> {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${discordId}:${name}`, instanceId } });
  expect(res.status).toBe(200);
  return { token: res.body.session_token, playerId: res.body.player.id };
}

async function connect(instanceId: string, m: Member) {
  const room = await t.sdk(m.token).joinOrCreate(TOGETHER_ROOM, { instanceId });
  const inbox = new Inbox(room);
  const races = () => inbox.messages.filter((x) => x.type === "race").map((x) => racePush.parse(x.body).race as RaceView | null);
  const raceWhere = async (holds: (race: RaceView) => boolean) => {
    await waitFor(() => {
      const race = races().at(-1);
      return race && holds(race);
    }, 30_000);
    return races().at(-1)!;
  };
  await waitFor(() => races().length > 0, 30_000);
  return { room, inbox, races, raceWhere };
}

/** Plays limbo rounds at the member's casino table, each answered before the next. */
async function play(m: Member, rounds: number): Promise<void> {
  const casino = await joinCasino(t, m.token);
  for (let i = 0; i < rounds; i++) {
    expect((await ask(casino.room, casino.inbox, "bet", { game: "limbo", amount: 10 + i, params: { target: 1.9 } })).type).toBe("result");
  }
  await casino.room.leave(true);
}

/** A race of `instanceId` with two members who played in it and left: its id, end and the two. */
async function raceEveryoneLeft(instanceId: string, ids: [string, string]) {
  const alice = await signIn(instanceId, ids[0], "Alice");
  const bob = await signIn(instanceId, ids[1], "Bob");
  const onA = await connect(instanceId, alice);
  const onB = await connect(instanceId, bob);
  onA.room.send("race-start", { minutes: 5 });
  const started = await onA.raceWhere((r) => r.joined);
  onB.room.send("race-join", {});
  await onA.raceWhere((r) => r.rows.length === 2);
  await clock.advance(RACE_JOIN_WINDOW_MS);
  await onA.raceWhere((r) => r.phase === "running");
  await play(alice, 2);
  await play(bob, 1);
  await onA.raceWhere((r) => r.rows.reduce((s, x) => s + x.rounds, 0) === 3);
  // Everyone leaves: the instance's together room is disposed, its timer for the race's end with it.
  const roomId = onA.room.roomId;
  await onA.room.leave(true);
  await onB.room.leave(true);
  await waitFor(() => !matchMaker.getLocalRoomById(roomId), 30_000);
  return { raceId: started.id, endsAt: Date.parse(started.endsAt), alice, bob };
}

const raceRow = async (raceId: string) =>
  (await t.sql(`SELECT finished_at, winner_id, standings FROM tonight_races WHERE id = $1`, [raceId]))[0] as {
    finished_at: Date | null;
    winner_id: string | null;
    standings: { playerId: string; net: number; rounds: number }[] | null;
  };
const raceTags = (playerId: string) =>
  t.sql(
    `SELECT pt.unlocked FROM player_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.objective_type = 'race_win' AND pt.player_id = $1`,
    [playerId],
  );

/** The "Tag Unlocked!" notices the player is sent, from now on. */
async function notices(playerId: string) {
  const heard: PlayerEvent[] = [];
  await t.app.services.presence.subscribe(playerChannel(playerId), (event: PlayerEvent) => heard.push(event));
  return () => heard.filter((e) => e.type === "notice" && e.title === "Tag Unlocked!");
}

describe.runIf(TEST_DB === "postgres")("a race nobody is connected to at its end", () => {
  it("is finished by the app's race sweep at its end, with its winner's tag; a member connecting sees it finished", async () => {
    const instance = "inst-race-sweep-a";
    const { raceId, endsAt, alice, bob } = await raceEveryoneLeft(instance, ["8700001", "8700002"]);
    expect((await raceRow(raceId)).standings).toBeNull();

    // Just before its end a sweep leaves it running.
    await clock.advance(endsAt - clock.now() - 1);
    expect(await t.app.services.raceSweep.sweep()).toEqual([]);
    expect((await raceRow(raceId)).finished_at).toBeNull();

    // At its end, the app's periodic sweep (on the app's clock) finishes it, within one sweep period.
    const heardBy = { alice: await notices(alice.playerId), bob: await notices(bob.playerId) };
    await clock.advance(RACE_SWEEP_MS + 1);
    let row = await raceRow(raceId);
    const waitedFrom = Date.now();
    while (row.finished_at === null) {
      expect(Date.now() - waitedFrom).toBeLessThan(30_000);
      // A sweep still running when the clock moved sets its next one after it: run what is due now.
      await clock.advance(0);
      row = await raceRow(raceId);
    }
    expect(new Date(row.finished_at!).getTime()).toBeGreaterThanOrEqual(endsAt);
    expect(new Date(row.finished_at!).getTime()).toBeLessThanOrEqual(endsAt + RACE_SWEEP_MS + 1);

    // The order of the rounds they played inside; the winner is the first and has the Race Winner tag.
    expect(row.standings!.map((s) => s.rounds).sort()).toEqual([1, 2]);
    const winner = row.standings![0]!.playerId === alice.playerId ? alice : bob;
    const loser = winner === alice ? bob : alice;
    expect(row.winner_id).toBe(winner.playerId);
    expect(await raceTags(winner.playerId)).toEqual([{ unlocked: true }]);
    expect(await raceTags(loser.playerId)).toEqual([]);
    const tags = await t.request("GET", `/api/player/${winner.playerId}/tags`, { token: winner.token });
    expect(tags.body.find((i: { tag: { name: string } }) => i.tag.name === "Race Winner")).toMatchObject({ unlocked: true });
    await waitFor(() => heardBy[winner === alice ? "alice" : "bob"]().length === 1);
    expect(heardBy[winner === alice ? "bob" : "alice"]()).toEqual([]);

    // A member who connects again is shown the finished race with its winner.
    const back = await connect(instance, loser);
    const shown = await back.raceWhere((r) => r.id === raceId);
    expect(shown.phase).toBe("finished");
    expect(shown.rows.map((r) => r.winner)).toEqual([true, false]);
    expect(shown.rows.find((r) => r.winner)!.self).toBe(false);
    await back.room.leave(true);
  }, 120_000);

  it("two processes sweeping at the same moment finish it once", async () => {
    const instance = "inst-race-sweep-b";
    const { raceId, endsAt, alice, bob } = await raceEveryoneLeft(instance, ["8700011", "8700012"]);
    // A second process: its own connections to the same database, its own sweep, on the same clock.
    other = await openDatabase(t.app.services.config.databaseUrl, "memory://");
    const second = new RaceSweep(
      { db: other, clock, presence: t.app.services.presence, events: t.app.services.events },
      t.app.services.log,
    );
    const heard = { alice: await notices(alice.playerId), bob: await notices(bob.playerId) };

    // Moved to its end without running timers in between (the app's own sweep runs on the next advance).
    await t.app.services.raceSweep.stop();
    await clock.advance(endsAt - clock.now());
    const finished = await Promise.all([
      t.app.services.raceSweep.sweep(),
      second.sweep(),
      second.sweep(),
      t.app.services.raceSweep.sweep(),
    ]);
    expect(finished.flat()).toEqual([raceId]);
    t.app.services.raceSweep.start();

    const row = await raceRow(raceId);
    expect(new Date(row.finished_at!).getTime()).toBe(endsAt);
    const winner = row.winner_id === alice.playerId ? "alice" : "bob";
    expect(await raceTags(row.winner_id!)).toEqual([{ unlocked: true }]);
    await waitFor(() => heard[winner]().length === 1);
    // Later sweeps change nothing.
    expect(await second.sweep()).toEqual([]);
    expect(await t.app.services.raceSweep.sweep()).toEqual([]);
    expect((await raceRow(raceId)).finished_at).toEqual(row.finished_at);
    expect(heard[winner]()).toHaveLength(1);
    expect(heard[winner === "alice" ? "bob" : "alice"]()).toEqual([]);
    await t.expectLedgerInvariant();
  }, 120_000);
});
