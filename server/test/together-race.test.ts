import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import { RACE_JOIN_WINDOW_MS, TOGETHER_ROOM, racePush, type HistoryItem, type RaceView } from "@casino/common";
import { ManualClock } from "../src/platform/clock";
import { exportPlayer } from "../src/admin/privacy";
import { faceOf } from "../src/core/players/face";
import { finishRace } from "../src/together/race";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { ask, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * A race of an activity instance, in one server on PostgreSQL with the test's clock: the join window and
 * the end are the server's moments, moved by the test; only rounds settled while the race ran count, for
 * the members who joined it; a second start is refused; the winner gets the race tag once.
 */
const INSTANCE = "inst-race-a";
const clock = new ManualClock(Date.UTC(2026, 5, 1, 20));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000", ROOM_MAX_MESSAGES_PER_SECOND: "10000" }, { clock });
});
afterAll(async () => t?.close());

interface Member {
  name: string;
  token: string;
  playerId: string;
  room: Room;
  inbox: Inbox;
}

async function member(discordId: string, name: string): Promise<Member> {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${discordId}:${name}`, instanceId: INSTANCE } });
  expect(res.status).toBe(200);
  const room = await t.sdk(res.body.session_token).joinOrCreate(TOGETHER_ROOM, { instanceId: INSTANCE });
  return { name, token: res.body.session_token, playerId: res.body.player.id, room, inbox: new Inbox(room) };
}

/** Every race pushed to the member, each read with the push's schema. */
const races = (m: Member): (RaceView | null)[] =>
  m.inbox.messages.filter((x) => x.type === "race").map((x) => racePush.parse(x.body).race as RaceView | null);
const errors = (m: Member) => m.inbox.messages.filter((x) => x.type === "error").map((x) => x.body as { code: string; message: string });

/** Waits for a pushed race that `holds`. */
async function raceWhere(m: Member, holds: (race: RaceView) => boolean): Promise<RaceView> {
  let found: RaceView | undefined;
  await waitFor(() => {
    const race = races(m).at(-1);
    if (race && holds(race)) found = race;
    return found;
  }, 30_000);
  return found!;
}

/** Sends a race message and waits for a new race push or a new error to the sender. */
async function raceAsk(m: Member, type: string, body: unknown) {
  const [pushed, refused] = [races(m).length, errors(m).length];
  m.room.send(type, body);
  await waitFor(() => races(m).length > pushed || errors(m).length > refused, 30_000);
  return errors(m).length > refused ? { error: errors(m).at(-1)! } : { race: races(m).at(-1)! };
}

/** Plays limbo rounds at the member's casino table, each answered before the next. */
async function play(m: Member, rounds: number): Promise<void> {
  const casino = await joinCasino(t, m.token);
  for (let i = 0; i < rounds; i++) {
    const answer = await ask(casino.room, casino.inbox, "bet", { game: "limbo", amount: 10 + i, params: { target: 1.9 } });
    expect(answer.type).toBe("result");
  }
  await casino.room.leave(true);
}

/** The member's settled rounds in the server's history ("My bets"), oldest first. */
async function history(m: Member): Promise<HistoryItem[]> {
  const res = await t.request("GET", `/api/player/${m.playerId}/history?kind=round&limit=100`, { token: m.token });
  expect(res.status).toBe(200);
  return (res.body.items as HistoryItem[]).slice().reverse();
}

const figures = (items: HistoryItem[]) => ({ net: items.reduce((s, i) => s + i.payout - i.betAmount, 0), rounds: items.length });

async function raceTagRows(playerId: string) {
  return t.app.services.db.run((em) =>
    em.query(
      `SELECT pt.unlocked FROM player_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.objective_type = 'race_win' AND pt.player_id = $1`,
      [playerId],
    ),
  );
}

describe.runIf(TEST_DB === "postgres")("a race of an activity instance", () => {
  it("counts the rounds settled while it runs for its members, refuses a second start, ends with the order and one tag", async () => {
    const alice = await member("8500001", "Alice");
    const bob = await member("8500002", "Bob");
    const carol = await member("8500003", "Carol");
    // No race yet: each member is told so.
    for (const m of [alice, bob, carol]) await waitFor(() => m.inbox.messages.some((x) => x.type === "race" && x.body.race === null));

    // Malformed starts change nothing.
    for (const bad of [{ minutes: 7 }, { minutes: "5" }, {}, { minutes: 5, extra: 1 }, null]) {
      const answer = await raceAsk(alice, "race-start", bad);
      expect(answer.error?.code, JSON.stringify(bad)).toBe("invalid_message");
    }

    // Alice starts a 5-minute race: everyone hears of it, with its schedule on the server's clock.
    const startedAt = clock.now();
    const started = await raceAsk(alice, "race-start", { minutes: 5 });
    expect(started.race).toMatchObject({ phase: "joining", minutes: 5, startedBy: "Alice", joined: true });
    expect(Date.parse(started.race!.joinClosesAt)).toBe(startedAt + RACE_JOIN_WINDOW_MS);
    expect(Date.parse(started.race!.endsAt)).toBe(startedAt + RACE_JOIN_WINDOW_MS + 5 * 60_000);
    const raceId = started.race!.id;
    const bobSees = await raceWhere(bob, (r) => r.id === raceId);
    expect(bobSees).toMatchObject({ phase: "joining", joined: false, startedBy: "Alice" });
    expect(bobSees.rows.map((r) => r.username)).toEqual(["Alice"]);

    // A second start, by anyone, is refused while it is on.
    const second = await raceAsk(bob, "race-start", { minutes: 10 });
    expect(second.error).toEqual({ code: "race_refused", message: "A race is already on in this activity: join it or wait for its end" });
    const [{ count }] = await t.app.services.db.run((em) =>
      em.query(`SELECT count(*)::int AS count FROM tonight_races WHERE instance_id = $1`, [INSTANCE]),
    );
    expect(count).toBe(1);

    // Bob joins during the window (twice: the second is refused), Carol does not.
    expect((await raceAsk(bob, "race-join", {})).race).toMatchObject({ joined: true });
    expect((await raceAsk(bob, "race-join", {})).error?.message).toBe("You are in this race already");
    await raceWhere(alice, (r) => r.rows.length === 2);

    // A round inside the join window does not count.
    await play(alice, 1);
    await clock.advance(RACE_JOIN_WINDOW_MS - 1);
    expect(races(alice).at(-1)!.phase).toBe("joining");
    await clock.advance(1);
    await raceWhere(alice, (r) => r.phase === "running");
    expect((await raceAsk(carol, "race-join", {})).error?.message).toBe("This race's join window has closed: join the next one");

    // Rounds while it runs count, live: Alice 2, Bob 3; Carol's, not a member, are not in it.
    await play(alice, 2);
    await play(bob, 3);
    await play(carol, 1);
    const roundsOf = (r: RaceView, name: string) => r.rows.find((x) => x.username === name)?.rounds;
    const live = await raceWhere(carol, (r) => roundsOf(r, "Alice") === 2 && roundsOf(r, "Bob") === 3);
    expect(live.rows.map((r) => r.username).sort()).toEqual(["Alice", "Bob"]);

    // The end: the final order from the rounds settled inside, the winner marked, told to everyone.
    await clock.advance(5 * 60_000 - 1);
    expect(races(alice).at(-1)!.phase).toBe("running");
    await clock.advance(1);
    const final = await raceWhere(carol, (r) => r.phase === "finished");
    const inside = { Alice: figures((await history(alice)).slice(1, 3)), Bob: figures((await history(bob)).slice(0, 3)) };
    const expected = (["Alice", "Bob"] as const)
      .map((name, joined) => ({ name, joined, ...inside[name] }))
      .sort((a, b) => b.net - a.net || b.rounds - a.rounds || a.joined - b.joined);
    expect(final.rows.map((r) => ({ name: r.username, net: r.net, rounds: r.rounds, winner: r.winner }))).toEqual(
      expected.map((e, i) => ({ name: e.name, net: e.net, rounds: e.rounds, winner: i === 0 })),
    );
    for (const m of [alice, bob])
      expect((await raceWhere(m, (r) => r.phase === "finished")).rows).toEqual(
        final.rows.map((r) => ({ ...r, self: r.username === m.name })),
      );

    // A round after the end changes nothing: the share link's route answers the same final order.
    await play(alice, 1);
    const shared = await t.request("GET", `/api/races/${raceId}`, { token: carol.token });
    expect(shared.status).toBe(200);
    expect(shared.body.rows).toEqual(final.rows);
    expect((await t.request("GET", `/api/races/not-a-race`, { token: carol.token })).status).toBe(400);

    // The winner has the tag, once; the other member does not; finishing again awards nothing.
    const winner = expected[0]!.name === "Alice" ? alice : bob;
    const loser = winner === alice ? bob : alice;
    expect(await raceTagRows(winner.playerId)).toEqual([{ unlocked: true }]);
    expect(await raceTagRows(loser.playerId)).toEqual([]);
    expect(await finishRace(t.app.services.db, clock, raceId)).toBe(false);
    expect(await raceTagRows(winner.playerId)).toEqual([{ unlocked: true }]);
    const tags = await t.request("GET", `/api/player/${winner.playerId}/tags`, { token: winner.token });
    expect(tags.body.find((i: { tag: { name: string } }) => i.tag.name === "Race Winner")).toMatchObject({ unlocked: true, progress: 1 });

    // The winner's data export lists the race; in anonymous mode the race shows them unnamed to others.
    const exported = await exportPlayer(
      { db: t.app.services.db, operator: "test-operator", log: t.app.services.log, announcements: t.app.services.announcements },
      winner.playerId,
      "test",
    );
    expect(exported.races).toEqual([expect.objectContaining({ instanceId: INSTANCE, minutes: 5, won: true })]);
    const hide = { playerId: winner.playerId, enabled: true };
    expect((await t.request("PATCH", "/api/player/anonymous", { token: winner.token, body: hide })).status).toBe(200);
    const unnamed = (await t.request("GET", `/api/races/${raceId}`, { token: carol.token })).body as RaceView;
    expect(unnamed.rows[0]).toMatchObject({
      username: "Anonymous",
      hidden: true,
      discordId: null,
      avatarUrl: null,
      face: null,
      winner: true,
    });
    // No id of the winner anywhere in the others' view: the rows carry none, the hidden row not even the Discord id.
    expect(JSON.stringify(unnamed)).not.toContain(winner.playerId);
    expect(JSON.stringify(unnamed)).not.toContain(winner === alice ? "8500001" : "8500002");
    expect(JSON.stringify(unnamed)).not.toContain(winner.name);
    const named = (await t.request("GET", `/api/races/${raceId}`, { token: winner.token })).body as RaceView;
    expect(named.rows[0]).toMatchObject({ username: winner.name, hidden: false, self: true, winner: true, face: faceOf(winner.playerId) });

    // Outside an instance (a guest) there is nobody to race: refused.
    const guestRoom = await t.sdk((await t.guest()).token).joinOrCreate(TOGETHER_ROOM, { instanceId: null });
    const guest = { name: "Guest", token: "", playerId: "", room: guestRoom, inbox: new Inbox(guestRoom) };
    expect((await raceAsk(guest, "race-start", { minutes: 5 })).error).toEqual({
      code: "race_refused",
      message: "Races need an activity instance: launch the casino in a Discord call",
    });
    await guestRoom.leave(true);

    // A new race may start once it is over.
    expect((await raceAsk(bob, "race-start", { minutes: 10 })).race).toMatchObject({ phase: "joining", minutes: 10, startedBy: "Bob" });
    for (const m of [alice, bob, carol]) await m.room.leave(true);
    await t.expectLedgerInvariant();
  });
});
