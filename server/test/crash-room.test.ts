import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import {
  ANONYMOUS_ID_PREFIX,
  ANONYMOUS_NAME,
  CRASH_MESSAGES,
  SHARED_ROOM_PUSH,
  PAYOUT_ROUNDING,
  crashCashOutPayout,
  crashMultiplierAt,
  crashPointHundredths,
  crashReachedAtMs,
  verifyChainElement,
} from "@casino/common";
import { ManualClock } from "../src/platform/clock";
import { CrashStore } from "../src/crash/crash-store";
import { faceOf } from "../src/core/players/face";
import type { RoomPlayers } from "../src/core/rooms/room-players";
import { startTestApp, TEST_DB, type TestApp } from "./harness";
import { ask, newRequestId, waitFor } from "./room-helpers";
import { CRASH_ENV, bettingRound, bustOf, joinCrash, leaveAll, runToBust, startRun, stateOf } from "./crash-room-helpers";

/**
 * The shared crash room on a ManualClock (crash-room-helpers.ts): each phase lasts until the test moves
 * the clock past it. The room's configuration is CRASH_ENV there: a steep curve (2× after 116 ms) so a
 * round's run is a few hundred milliseconds of the clock. The rules over many rounds are proved on the
 * round machine alone (unit/crash-round-machine.test.ts); here the real path: the store, the ledger,
 * the chain and what the connections see.
 */
const RATE = Number(CRASH_ENV.CRASH_CURVE_RATE);
/** The multipliers (hundredths) at which players cash out by hand. */
const HAND_TARGETS = [112, 135, 160, 210, 320];

let t: TestApp;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestApp(CRASH_ENV, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.sql(text, params);

let discordIds = 5_000_000;
/** A Discord player through the fake Discord's code exchange, signed in from the activity instance given. */
async function discordPlayer(instanceId: string | null): Promise<{ token: string; player: any }> {
  const id = String(discordIds++);
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:crash${id}`, ...(instanceId ? { instanceId } : {}) } });
  expect(res.status).toBe(200);
  // Without the bot token, the instance the player's own session signed in from is recorded, unverified.
  if (instanceId) expect(res.body.instance).toEqual({ instanceId, verified: false, guildId: null });
  return { token: res.body.session_token, player: res.body.player };
}

describe("20 players in one activity instance", () => {
  const ROUNDS = TEST_DB === "pglite" ? 3 : 6;

  it(`share ${ROUNDS} rounds: every bet settles once, cash-outs at their moment or target, the hashes chain to the commitment`, async () => {
    const instanceId = `inst-${Date.now()}`;
    const scope = `instance:${instanceId}`;
    const players = await Promise.all(Array.from({ length: 20 }, () => discordPlayer(instanceId)));
    const joined = await Promise.all(players.map((p) => joinCrash(t, p.token, instanceId)));
    expect(new Set(joined.map((j) => j.room.roomId)).size).toBe(1);
    const watcher = joined[0]!.room;

    const commitmentSeen = stateOf(watcher).terminatingHash;
    const leaks: string[] = [];
    for (const { room } of joined) {
      room.onStateChange((state: any) => {
        if ((state.phase === "betting" || state.phase === "running") && (state.gameHash !== "" || state.crashPoint !== 0))
          leaks.push(state.roundId);
      });
    }
    const handPaid: { requestId: string; at: number }[] = [];
    const late: string[] = [];
    const twice: string[] = [];

    let roundId = "";
    for (let r = 0; r < ROUNDS; r++) {
      roundId = await bettingRound(watcher, roundId);
      const gameNumber = stateOf(watcher).gameNumber;
      // Each player bets: a third with an automatic cash-out, the others cash out by hand at one of a few
      // targets, several players at the same moment (player 1 early, at 1.05×, and twice).
      const targets = new Map<number, number>();
      const bets = await Promise.all(
        joined.map(({ room, inbox }, i) => {
          const auto = i % 3 === 0 ? 1.01 + ((i * 37 + gameNumber * 11) % 300) / 100 : null;
          if (!auto) targets.set(i, i === 1 ? 105 : HAND_TARGETS[(i + gameNumber) % HAND_TARGETS.length]!);
          return ask(room, inbox, CRASH_MESSAGES.bet, { amount: 1 + ((i + gameNumber) % 25), autoCashOut: auto });
        }),
      );
      expect(bets.map((b) => b.type)).toEqual(joined.map(() => "result"));
      await waitFor(() => stateOf(watcher).bets.size === 20, 30_000);

      await startRun(t, clock, watcher);
      const runStartedAt = stateOf(watcher).runStartedAt;
      // The clock goes no further than the bust: the next round must not open under the late cash-outs.
      const { bustAt } = await bustOf(t, watcher);
      // The hand cash-outs target by target, each group sent at once when the clock has reached its target.
      for (const target of [...new Set(targets.values())].sort((a, b) => a - b)) {
        await clock.advance(Math.max(0, Math.min(bustAt, runStartedAt + crashReachedAtMs(target, RATE)) - clock.now()));
        const at = crashMultiplierAt(clock.now() - runStartedAt, RATE);
        const group = [...targets].filter(([, x]) => x === target).map(([i]) => i);
        await Promise.all(
          group.map(async (i) => {
            const { room, inbox } = joined[i]!;
            const asked = [ask(room, inbox, CRASH_MESSAGES.cashOut, {})];
            if (i === 1) asked.push(ask(room, inbox, CRASH_MESSAGES.cashOut, {}));
            const [answer, again] = await Promise.all(asked);
            if (answer!.type === "result") {
              // Paid at the multiplier of the moment the room handled it: the clock has not moved since.
              expect(answer!.body.cashedOutAt).toBe(at);
              handPaid.push({ requestId: answer!.body.requestId, at });
            } else {
              expect(answer!.body).toMatchObject({ code: "not_running", message: "Too late: the round has busted" });
            }
            if (again) twice.push(again.body.code);
          }),
        );
      }
      await runToBust(t, clock, watcher);
      // Two players try after the bust.
      for (const i of [18, 19]) {
        const answer = await ask(joined[i]!.room, joined[i]!.inbox, CRASH_MESSAGES.cashOut, {});
        late.push(answer.body.code);
      }
      await clock.advance(t.app.services.config.crash.bustedMs);
    }
    const history = stateOf(watcher).history.map((h) => ({ gameNumber: h.gameNumber, gameHash: h.gameHash, crashPoint: h.crashPoint }));
    await leaveAll(
      t,
      clock,
      joined.map((j) => j.room),
      [scope],
    );

    expect(leaks).toEqual([]);
    const [chain] = await sql(`SELECT * FROM crash_chains WHERE scope = $1`, [scope]);
    expect(commitmentSeen).toBe(chain.terminating_hash);
    const rounds = await sql(`SELECT * FROM crash_rounds WHERE scope = $1 ORDER BY game_number`, [scope]);
    expect(rounds.length).toBeGreaterThanOrEqual(ROUNDS);
    rounds.forEach((r, i) => {
      expect(r.game_number).toBe(i + 1);
      expect(r.phase).toBe("busted");
      expect(verifyChainElement(r.game_hash, chain.terminating_hash, chain.length)).toBe(r.game_number);
      expect(Number(crashPointHundredths(r.game_hash, chain.salt))).toBe(Number(r.crash_point));
    });
    // What the room published is what the database holds.
    expect(history.length).toBeGreaterThanOrEqual(ROUNDS);
    for (const h of history) {
      const r = rounds.find((x) => x.game_number === h.gameNumber)!;
      expect([h.gameHash, h.crashPoint]).toEqual([r.game_hash, Number(r.crash_point)]);
    }

    const bets = await sql(
      `SELECT b.*, r.crash_point, r.game_hash, r.rounding FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE r.scope = $1`,
      [scope],
    );
    expect(bets.length).toBeGreaterThanOrEqual(ROUNDS * 20);
    const cashedOut = bets.filter((b) => b.status === "cashed_out");
    const lost = bets.filter((b) => b.status === "lost");
    expect(cashedOut.length + lost.length).toBe(bets.length);
    expect(cashedOut.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);
    for (const b of cashedOut) {
      expect(Number(b.cashed_out_at)).toBeLessThanOrEqual(Number(b.crash_point));
      // rounded by the round's rule from the bet's own stream (the game hash and the player's id)
      expect(b.rounding).toBe(PAYOUT_ROUNDING);
      const bet = { gameHash: b.game_hash, playerId: b.player_id, amount: Number(b.amount), cashedOutAt: Number(b.cashed_out_at) };
      expect(Number(b.payout)).toBe(crashCashOutPayout(b.rounding, bet).payout);
      // An automatic cash-out is paid at its exact target.
      if (b.auto_cash_out !== null) expect(Number(b.cashed_out_at)).toBe(Number(b.auto_cash_out));
    }
    // An automatic target the round reached is always paid.
    for (const b of lost) if (b.auto_cash_out !== null) expect(Number(b.auto_cash_out)).toBeGreaterThan(Number(b.crash_point));
    // Every hand cash-out the room answered is the one the ledger stored.
    expect(handPaid.length).toBeGreaterThan(0);
    expect(cashedOut.filter((b) => b.auto_cash_out === null).length).toBe(handPaid.length);

    // Each bet moved coins exactly once each way: one debit, and one credit per cash-out.
    for (const p of players) {
      const mine = bets.filter((b) => b.player_id === p.player.id);
      const entries = await sql(`SELECT reason, delta FROM ledger_entries WHERE player_id = $1 AND reference = 'crash-room'`, [
        p.player.id,
      ]);
      expect(entries.filter((e) => e.reason === "bet").length).toBe(mine.length);
      expect(entries.filter((e) => e.reason === "payout").length).toBe(mine.filter((b) => b.status === "cashed_out").length);
      expect(entries.filter((e) => e.reason === "refund").length).toBe(0);
      const net = entries.reduce((sum, e) => sum + Number(e.delta), 0);
      expect(net).toBe(mine.reduce((sum, b) => sum + Number(b.payout) - Number(b.amount), 0));
      const [{ n }] = await sql(`SELECT count(*)::int AS n FROM game_sessions WHERE player_id = $1 AND game_type = 'crash'`, [p.player.id]);
      expect(n).toBe(mine.length);
      const [{ balance }] = await sql(`SELECT balance FROM players WHERE id = $1`, [p.player.id]);
      expect(Number(balance)).toBe(1000 + net);
    }

    // The cash-outs sent after a bust were refused; the player who asked twice was paid once per round.
    expect(late.every((code) => code === "not_running" || code === "already_cashed_out")).toBe(true);
    expect(late).toContain("not_running");
    expect(twice.every((code) => code === "already_cashed_out" || code === "not_running")).toBe(true);
    expect(twice).toContain("already_cashed_out");
  });
});

describe("instances are kept apart", () => {
  it("a player of another instance gets another room and cannot join this one; a guest only the public room", async () => {
    const a = await discordPlayer("inst-apart-a");
    const b = await discordPlayer("inst-apart-b");
    const guest = await t.guest();
    const roomA = await joinCrash(t, a.token, "inst-apart-a");
    const roomB = await joinCrash(t, b.token, "inst-apart-b");
    expect(roomB.room.roomId).not.toBe(roomA.room.roomId);

    // B's session joined B's instance only: naming A's instance is refused, and so is A's room by id.
    await expect(t.sdk(b.token).joinOrCreate("crash", { instanceId: "inst-apart-a" })).rejects.toThrow(
      /You have not joined that activity instance/,
    );
    await expect(t.sdk(b.token).joinById(roomA.room.roomId, { instanceId: "inst-apart-b" })).rejects.toThrow(/another activity instance/);
    // A guest plays in the public room only.
    await expect(t.sdk(guest.token).joinOrCreate("crash", { instanceId: "inst-apart-a" })).rejects.toThrow(
      /Guests play in the public crash room/,
    );
    await expect(t.sdk(guest.token).joinById(roomA.room.roomId, { instanceId: null })).rejects.toThrow(/another activity instance/);
    const pub = await joinCrash(t, guest.token, null);
    expect([roomA.room.roomId, roomB.room.roomId]).not.toContain(pub.room.roomId);
    // Options are required and checked.
    await expect(t.sdk(a.token).joinOrCreate("crash", {})).rejects.toThrow(/instanceId/);
    await expect(t.sdk(a.token).joinOrCreate("crash", { instanceId: "bad id!" })).rejects.toThrow(/instanceId/);

    // A bets in A's room; B's room never shows it, through B's own run.
    await bettingRound(roomA.room);
    await bettingRound(roomB.room);
    const bet = await ask(roomA.room, roomA.inbox, CRASH_MESSAGES.bet, { amount: 5 });
    expect(bet.type).toBe("result");
    await waitFor(() => stateOf(roomA.room).bets.get(a.player.id));
    await startRun(t, clock, roomB.room);
    expect([...stateOf(roomB.room).bets.keys()]).not.toContain(a.player.id);
    expect([...stateOf(pub.room).bets.keys()]).not.toContain(a.player.id);
    expect(stateOf(roomB.room).terminatingHash).not.toBe(stateOf(roomA.room).terminatingHash);

    await leaveAll(t, clock, [roomA.room, roomB.room, pub.room], ["instance:inst-apart-a", "instance:inst-apart-b", "public"]);
  });
});

describe("who is in the list of bets", () => {
  it("shows each bet with the player's name and Discord avatar; an anonymous player as Anonymous, with none, under a stand-in", async () => {
    const instanceId = "inst-faces";
    const shown = await discordPlayer(instanceId);
    const shy = await discordPlayer(instanceId);
    const turned = await t.request("PATCH", "/api/player/anonymous", {
      token: shy.token,
      body: { playerId: shy.player.id, enabled: true },
    });
    expect(turned.status).toBe(200);
    const rooms = [await joinCrash(t, shown.token, instanceId), await joinCrash(t, shy.token, instanceId)];
    await bettingRound(rooms[0]!.room);
    for (const { room, inbox } of rooms) expect((await ask(room, inbox, CRASH_MESSAGES.bet, { amount: 5 })).type).toBe("result");
    const bets = stateOf(rooms[1]!.room).bets;
    await waitFor(() => bets.size === 2);
    const discordIdOf = async (id: string) => (await sql(`SELECT discord_id FROM players WHERE id = $1`, [id]))[0].discord_id as string;
    expect(bets.get(shown.player.id)).toMatchObject({
      username: shown.player.username,
      avatarUrl: `https://cdn.discordapp.com/avatars/${await discordIdOf(shown.player.id)}/abc123.png`,
      face: faceOf(shown.player.id),
    });
    // The anonymous bet carries a stand-in, never the player's id: the other player's whole state has it nowhere.
    const standIn = (await rooms[1]!.inbox.wait((m) => m.type === SHARED_ROOM_PUSH.self)).body.playerId as string;
    expect(standIn).toMatch(new RegExp(`^${ANONYMOUS_ID_PREFIX}[A-Za-z0-9_-]{22}$`));
    expect(bets.get(standIn)).toMatchObject({ playerId: standIn, username: ANONYMOUS_NAME, avatarUrl: "", face: "" });
    const seenByOther = () => JSON.stringify(rooms[0]!.room.state.toJSON());
    expect(seenByOther()).toContain(standIn);
    expect(seenByOther()).not.toContain(shy.player.id);
    // The named player is told their own id, and the anonymous player can still cash out their bet.
    expect((await rooms[0]!.inbox.wait((m) => m.type === SHARED_ROOM_PUSH.self)).body).toEqual({ playerId: shown.player.id });
    await startRun(t, clock, rooms[1]!.room);
    if (stateOf(rooms[1]!.room).phase === "running") {
      expect((await ask(rooms[1]!.room, rooms[1]!.inbox, CRASH_MESSAGES.cashOut, {})).type).toBe("result");
      await waitFor(() => (bets.get(standIn) as { status: string }).status === "cashed_out");
    }
    expect(seenByOther()).not.toContain(shy.player.id);
    // Anonymous mode switched off during the round: the bet shows the name, under the player's id, at once.
    await t.request("PATCH", "/api/player/anonymous", { token: shy.token, body: { playerId: shy.player.id, enabled: false } });
    await waitFor(() => bets.get(shy.player.id) !== undefined && bets.get(standIn) === undefined);
    expect(bets.get(shy.player.id)).toMatchObject({ username: shy.player.username, face: faceOf(shy.player.id) });
    // Their connection is told its entries' new id.
    const lastSelf = () => rooms[1]!.inbox.messages.filter((m) => m.type === SHARED_ROOM_PUSH.self).at(-1)?.body.playerId;
    await waitFor(() => lastSelf() === shy.player.id);
    // And on again: a stand-in again, the id gone from what the other player sees.
    await t.request("PATCH", "/api/player/anonymous", { token: shy.token, body: { playerId: shy.player.id, enabled: true } });
    await waitFor(() => bets.get(shy.player.id) === undefined && bets.size === 2);
    expect(seenByOther()).not.toContain(shy.player.id);
    await waitFor(() => lastSelf() === standIn);

    // The room keeps the profiles of its players only. The anonymous player leaves with their bet in the
    // round: it is still shown under the stand-in until the round's bets go, then the player is forgotten.
    const server = matchMaker.getLocalRoomById(rooms[0]!.room.roomId) as unknown as { players: RoomPlayers; clients: unknown[] };
    expect(server.players.size).toBe(2);
    const roundId = stateOf(rooms[0]!.room).roundId;
    await rooms[1]!.room.leave();
    await waitFor(() => server.clients.length === 1);
    expect(server.players.size).toBe(2);
    const othersBets = stateOf(rooms[0]!.room).bets;
    expect(othersBets.get(standIn)).toMatchObject({ playerId: standIn, username: ANONYMOUS_NAME });
    expect(seenByOther()).not.toContain(shy.player.id);
    if (stateOf(rooms[0]!.room).phase === "running") await runToBust(t, clock, rooms[0]!.room);
    await clock.advance(t.app.services.config.crash.bustedMs);
    await bettingRound(rooms[0]!.room, roundId);
    await waitFor(() => othersBets.size === 0);
    await waitFor(() => server.players.size === 1);
    await leaveAll(t, clock, [rooms[0]!.room], [`instance:${instanceId}`]);
  });
});

describe("membership decides the instance room", () => {
  it("seats a player in the instance their session joined; naming another instance is refused until they join it", async () => {
    const alice = await discordPlayer("inst-scope-1");
    const bob = await discordPlayer(null);
    const guest = await t.guest();

    const { room } = await joinCrash(t, alice.token, "inst-scope-1");
    // Bob never joined the instance: claiming its id opens nothing and seats him nowhere.
    await expect(joinCrash(t, bob.token, "inst-scope-1")).rejects.toThrow(/You have not joined that activity instance/);
    await expect(t.sdk(bob.token).joinById(room.roomId, { instanceId: "inst-scope-1" })).rejects.toThrow(
      /You have not joined that activity instance/,
    );
    expect(matchMaker.getLocalRoomById(room.roomId)!.clients.length).toBe(1);
    expect((await matchMaker.query({ name: "crash", instanceId: "inst-scope-1" } as object)).map((r) => r.roomId)).toEqual([room.roomId]);
    // A guest has no instance at all.
    await expect(joinCrash(t, guest.token, "inst-scope-1")).rejects.toThrow(/Guests play in the public crash room/);
    expect((await t.request("POST", "/api/instances/join", { token: guest.token, body: { instanceId: "inst-scope-1" } })).status).toBe(403);

    // Once Bob's own session joins the instance, he is seated in the same room as Alice.
    const joined = await t.request("POST", "/api/instances/join", { token: bob.token, body: { instanceId: "inst-scope-1" } });
    expect(joined.status).toBe(200);
    const bobRoom = (await joinCrash(t, bob.token, "inst-scope-1")).room;
    expect(bobRoom.roomId).toBe(room.roomId);
    expect(matchMaker.getLocalRoomById(room.roomId)!.clients.length).toBe(2);

    // Bob can still play in the public room, which is another room.
    const pub = (await joinCrash(t, bob.token, null)).room;
    expect(pub.roomId).not.toBe(room.roomId);
    await leaveAll(t, clock, [room, bobRoom, pub], ["instance:inst-scope-1", "public"]);
  });
});

describe("bets and cash-outs", () => {
  it("refuses bad messages with a precise error and stays connected; one bet per player and round", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCrash(t, token, null);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ amount: 0 }, /amount/],
      [{ amount: 1.5 }, /whole number/],
      [{ amount: 2_000_000 }, /from 1 to 1000000/],
      [{ amount: 5, autoCashOut: 1 }, /cash-out must be at least 1.01/],
      [{ amount: 5, autoCashOut: 2.005 }, /two decimals/],
      [{ amount: 5, extra: true }, /Unrecognized key/],
    ];
    for (const [body, message] of bad) {
      const answer = await ask(room, inbox, CRASH_MESSAGES.bet, body);
      expect(answer.type).toBe("error");
      expect(answer.body.code).toBe("invalid_message");
      expect(answer.body.message).toMatch(message);
    }
    await bettingRound(room);
    const noBet = await ask(room, inbox, CRASH_MESSAGES.cashOut, {});
    expect(noBet.body).toMatchObject({ code: "not_running", message: "The round has not started yet" });
    const ok = await ask(room, inbox, CRASH_MESSAGES.bet, { amount: 10, autoCashOut: 1.5 });
    expect(ok.type).toBe("result");
    expect(ok.body).toMatchObject({ amount: 10, autoCashOut: 150, balance: 990 });
    // A second bet in the same round is refused.
    const again = await ask(room, inbox, CRASH_MESSAGES.bet, { amount: 10 });
    expect(again.body).toMatchObject({ code: "already_bet" });
    const [{ n }] = await sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND reason = 'bet'`, [player.id]);
    expect(n).toBe(1);
    // Once betting is closed, a bet is refused and a cash-out before the run is too.
    await clock.advance(t.app.services.config.crash.bettingMs);
    const closed = await ask(room, inbox, CRASH_MESSAGES.bet, { amount: 10 });
    expect(closed.body).toMatchObject({ code: "betting_closed", message: "Bets are closed for this round" });
    expect(room.connection.isOpen).toBe(true);
    await leaveAll(t, clock, [room], ["public"]);
  });
});

describe("the ledger's guards on PostgreSQL", () => {
  /** A round of its own scope, opened through the store as the room does, with one bet per player. */
  async function roundWithBets(scope: string, amounts: number[]) {
    const store = t.app.services.crash;
    const opened = await store.openRound(scope);
    if (!("opened" in opened)) throw new Error("no round");
    const round = opened.opened;
    const players = await Promise.all(amounts.map(() => t.guest()));
    for (const [i, p] of players.entries()) {
      await t.app.services.ledger.placeCrashBet(p.player.id, newRequestId(), {
        roundId: round.roundId,
        amount: amounts[i]!,
        autoCashOut: null,
      });
    }
    return { store, round, players };
  }

  it("a cash-out above the crash point is refused, at it is paid, and a second one pays nothing", async () => {
    const { store, round, players } = await roundWithBets(`guard-${Date.now()}`, [100]);
    const ledger = t.app.services.ledger;
    const playerId = players[0]!.player.id;
    // Not yet running: refused.
    await expect(
      ledger.cashOutCrashBet(playerId, newRequestId(), { roundId: round.roundId, cashedOutAt: 100, by: "player" }),
    ).rejects.toMatchObject({ code: "cash_out_refused" });
    expect(await store.startRunning(round.roundId)).toBe(true);
    await expect(
      ledger.cashOutCrashBet(playerId, newRequestId(), { roundId: round.roundId, cashedOutAt: round.crashPoint + 1, by: "player" }),
    ).rejects.toMatchObject({ code: "cash_out_refused" });
    const paid = await ledger.cashOutCrashBet(playerId, newRequestId(), {
      roundId: round.roundId,
      cashedOutAt: round.crashPoint,
      by: "player",
    });
    expect(paid.payout).toBe(Math.floor((100 * round.crashPoint) / 100));
    await expect(
      ledger.cashOutCrashBet(playerId, newRequestId(), { roundId: round.roundId, cashedOutAt: 101, by: "player" }),
    ).rejects.toMatchObject({ code: "cash_out_refused" });
    expect(await store.bust(round.roundId)).toBe(true);
    const [bet] = await sql(`SELECT status, payout FROM crash_bets WHERE round_id = $1`, [round.roundId]);
    expect(bet).toMatchObject({ status: "cashed_out" });
    expect(Number(bet.payout)).toBe(paid.payout);
    const [{ balance }] = await sql(`SELECT balance FROM players WHERE id = $1`, [playerId]);
    expect(Number(balance)).toBe(1000 - 100 + paid.payout);
  });

  it("1-coin cash-outs are rounded by the round's rule: rule 2 from the bet's stream, a rule 1 round down", async () => {
    const ledger = t.app.services.ledger;
    for (const rule of [2, 1] as const) {
      const scope = `rule-${rule}-${Date.now()}`;
      const { store, round, players } = await roundWithBets(scope, [1, 1, 1, 1, 1, 1]);
      expect(round.rounding).toBe(PAYOUT_ROUNDING);
      // a round opened before rule 2 existed carries rule 1 (the migration's default)
      if (rule === 1) await sql(`UPDATE crash_rounds SET rounding = 1 WHERE id = $1`, [round.roundId]);
      expect(await store.startRunning(round.roundId)).toBe(true);
      const at = Math.min(round.crashPoint, 198);
      for (const p of players) {
        const paid = await ledger.cashOutCrashBet(p.player.id, newRequestId(), { roundId: round.roundId, cashedOutAt: at, by: "player" });
        const expected = crashCashOutPayout(rule, { gameHash: round.gameHash, playerId: p.player.id, amount: 1, cashedOutAt: at });
        expect(paid.payout).toBe(expected.payout);
        if (rule === 1) expect(paid.payout).toBe(Math.floor(at / 100));
        const [session] = await sql(`SELECT rounding, payout FROM game_sessions WHERE player_id = $1 AND game_type = 'crash'`, [
          p.player.id,
        ]);
        expect(session.rounding).toBe(rule);
        expect(Number(session.payout)).toBe(paid.payout);
      }
      expect(await store.bust(round.roundId)).toBe(true);
      // the revealed game states its rule, for the room's verifier
      expect(await store.history(scope, 1)).toMatchObject([{ gameHash: round.gameHash, rounding: rule }]);
    }
  });

  it("a cash-out racing the bust: each bet ends either cashed out or lost, paid at most once", async () => {
    const outcomes = { cashed: 0, lost: 0 };
    for (let i = 0; i < 15; i++) {
      const { store, round, players } = await roundWithBets(`race-${Date.now()}-${i}`, [10, 20, 30]);
      await store.startRunning(round.roundId);
      const at = Math.min(round.crashPoint, 150);
      const results = await Promise.allSettled([
        ...players.map((p) =>
          t.app.services.ledger.cashOutCrashBet(p.player.id, newRequestId(), { roundId: round.roundId, cashedOutAt: at, by: "player" }),
        ),
        store.bust(round.roundId),
      ]);
      expect(results[players.length]).toEqual({ status: "fulfilled", value: true });
      const bets = await sql(`SELECT player_id, status, payout, amount FROM crash_bets WHERE round_id = $1`, [round.roundId]);
      for (const [k, p] of players.entries()) {
        const bet = bets.find((b) => b.player_id === p.player.id);
        const answer = results[k]!;
        const credits = await sql(
          `SELECT count(*)::int AS n, coalesce(sum(delta), 0) AS total FROM ledger_entries WHERE player_id = $1 AND reason = 'payout'`,
          [p.player.id],
        );
        if (answer.status === "fulfilled") {
          outcomes.cashed += 1;
          expect(bet.status).toBe("cashed_out");
          expect(credits[0].n).toBe(1);
          expect(Number(credits[0].total)).toBe(Number(bet.payout));
        } else {
          outcomes.lost += 1;
          expect(bet.status).toBe("lost");
          expect(credits[0].n).toBe(0);
        }
      }
      const [{ phase }] = await sql(`SELECT phase FROM crash_rounds WHERE id = $1`, [round.roundId]);
      expect(phase).toBe("busted");
    }
    expect(outcomes.cashed + outcomes.lost).toBe(45);
  });

  it("a bet racing the end of the betting phase is either in the round or refused, never debited for nothing", async () => {
    const scope = `close-${Date.now()}`;
    const store = t.app.services.crash;
    const opened = await store.openRound(scope);
    if (!("opened" in opened)) throw new Error("no round");
    const round = opened.opened;
    const players = await Promise.all(Array.from({ length: 12 }, () => t.guest()));
    const results = await Promise.allSettled([
      ...players.map((p) =>
        t.app.services.ledger.placeCrashBet(p.player.id, newRequestId(), { roundId: round.roundId, amount: 7, autoCashOut: null }),
      ),
      store.startRunning(round.roundId),
    ]);
    const bets = await sql(`SELECT player_id FROM crash_bets WHERE round_id = $1`, [round.roundId]);
    for (const [k, p] of players.entries()) {
      const [{ balance }] = await sql(`SELECT balance FROM players WHERE id = $1`, [p.player.id]);
      const placed = bets.some((b) => b.player_id === p.player.id);
      expect(results[k]!.status === "fulfilled").toBe(placed);
      expect(Number(balance)).toBe(placed ? 993 : 1000);
    }
    await store.bust(round.roundId);
  });

  it("two processes opening one room's round at once: one opens it, the other waits; no game is played twice", async () => {
    const { db, ledger, config } = t.app.services;
    const processes = [new CrashStore(db, ledger, config.crash), new CrashStore(db, ledger, config.crash)];
    const scope = `two-processes-${Date.now()}`;
    for (let game = 1; game <= 10; game++) {
      const results = await Promise.all(processes.map((p) => p.openRound(scope)));
      const opened = results.flatMap((r, i) => ("opened" in r ? [{ round: r.opened, store: processes[i]! }] : []));
      expect(opened).toHaveLength(1);
      expect(results.filter((r) => "busy" in r)).toHaveLength(1);
      expect(opened[0]!.round.gameNumber).toBe(game);
      // Only the owner may run it.
      const other = processes.find((p) => p !== opened[0]!.store)!;
      expect(await other.startRunning(opened[0]!.round.roundId)).toBe(false);
      expect(await opened[0]!.store.startRunning(opened[0]!.round.roundId)).toBe(true);
      expect(await other.bust(opened[0]!.round.roundId)).toBe(false);
      expect(await opened[0]!.store.bust(opened[0]!.round.roundId)).toBe(true);
    }
    const chains = await sql(`SELECT id FROM crash_chains WHERE scope = $1`, [scope]);
    expect(chains).toHaveLength(1);
    const rounds = await sql(`SELECT game_number, game_hash FROM crash_rounds WHERE scope = $1`, [scope]);
    expect(new Set(rounds.map((r) => r.game_number)).size).toBe(10);
    expect(new Set(rounds.map((r) => r.game_hash)).size).toBe(10);
  });

  it("a bet for a round that is no longer taking bets is refused and debits nothing", async () => {
    const store = t.app.services.crash;
    const opened = await store.openRound(`late-${Date.now()}`);
    if (!("opened" in opened)) throw new Error("no round");
    expect(await store.startRunning(opened.opened.roundId)).toBe(true);
    const { player } = await t.guest();
    await expect(
      t.app.services.ledger.placeCrashBet(player.id, newRequestId(), { roundId: opened.opened.roundId, amount: 5, autoCashOut: null }),
    ).rejects.toMatchObject({
      code: "betting_closed",
      message: "Bets are closed for this round",
    });
    const [{ balance }] = await sql(`SELECT balance FROM players WHERE id = $1`, [player.id]);
    expect(Number(balance)).toBe(1000);
    await store.bust(opened.opened.roundId);
  });

  it("one bet per player per round, even when two are sent at once", async () => {
    const store = t.app.services.crash;
    const opened = await store.openRound(`double-${Date.now()}`);
    if (!("opened" in opened)) throw new Error("no round");
    const { player } = await t.guest();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        t.app.services.ledger.placeCrashBet(player.id, newRequestId(), { roundId: opened.opened.roundId, amount: 50, autoCashOut: null }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [{ balance }] = await sql(`SELECT balance FROM players WHERE id = $1`, [player.id]);
    expect(Number(balance)).toBe(950);
    await store.startRunning(opened.opened.roundId);
    await store.bust(opened.opened.roundId);
  });
});
