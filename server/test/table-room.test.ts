import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import {
  ANONYMOUS_ID_PREFIX,
  ANONYMOUS_NAME,
  SHARED_ROOM_PUSH,
  TABLE_MESSAGES,
  revealedShoe,
  sha256Hex,
  type RevealedShoe,
  type TableSnapshot,
} from "@casino/common";
import { deriveShoe, type SeatSeed } from "@casino/common/games/shoe";
import { checkShoeRecord, verifyShoe } from "@casino/common/verifiers/verify-shoe";
import { basicStrategy, cardPoints, type BlackjackAction } from "@casino/common/games/blackjack/engine";
import { act, deal, dealerTurn, defaultAction, newShoe, nextRound, seatToAct, type TableState } from "@casino/common/games/blackjack-table";
import { rankOf, type Card } from "@casino/common/games/cards";
import { ManualClock } from "../src/platform/clock";
import { TableStore } from "../src/table/table-store";
import { faceOf } from "../src/core/players/face";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask, waitFor } from "./room-helpers";

/**
 * The shared blackjack table on PostgreSQL, in one process: three players of one activity instance and
 * a spectator play several rounds (a split, a timed-out seat stood for, a player dropping mid-turn and
 * coming back within the grace), another instance's player can neither join nor watch, and afterwards
 * every round re-derives from the revealed seed (verifyShoe) and the ledger balances.
 *
 * The tables run on a ManualClock: a turn's timer or the settled pause ends when the test advances the
 * clock, never by waiting (the timing itself is tested on the round machine, unit/table-round-machine).
 */
const TURN_MS = 15_000;
const SETTLED_MS = 3_000;
const TABLE_ENV = {
  TABLE_BETTING_MS: "30000",
  TABLE_TURN_MS: String(TURN_MS),
  TABLE_SETTLED_MS: String(SETTLED_MS),
  TABLE_RECONNECT_SECONDS: "30",
  TABLE_LEASE_MS: "3000",
  BET_RATE_PER_SECOND: "1000",
};

const clock = new ManualClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(TABLE_ENV, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params)) as Promise<any[]>;
const snap = (room: Room): TableSnapshot => JSON.parse((room.state as { snapshot: string }).snapshot);

let discordIds = 6_100_000;
async function discordPlayer(instanceId: string | null) {
  const id = String(discordIds++);
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:table${id}`, ...(instanceId ? { instanceId } : {}) } });
  expect(res.status).toBe(200);
  return { token: res.body.session_token as string, player: res.body.player as { id: string } };
}

interface Joined {
  room: Room;
  inbox: Inbox;
  /** Every snapshot this client received, in order. */
  seen: TableSnapshot[];
}

/** Joins the table `roomId`, or one matched by `options` (`create`: a new public table). */
async function joinTable(token: string, options: Record<string, unknown>, roomId?: string | "create"): Promise<Joined> {
  const sdk = t.sdk(token);
  const room =
    roomId === "create"
      ? await sdk.create("blackjack-table", options)
      : roomId
        ? await sdk.joinById(roomId, options)
        : await sdk.joinOrCreate("blackjack-table", options);
  const inbox = new Inbox(room);
  const seen: TableSnapshot[] = [];
  room.onStateChange((state: any) => {
    if (state.snapshot && (seen.length === 0 || JSON.stringify(seen[seen.length - 1]) !== state.snapshot))
      seen.push(JSON.parse(state.snapshot));
  });
  await waitFor(() => (room.state as any)?.snapshot);
  return { room, inbox, seen };
}

/**
 * Moves the table's clock on until `done` holds, a step at a time: the settled pause, or the turn of
 * whoever is to act (stood for when it runs out). Each step waits for the table to show its effect.
 */
async function advanceUntil(room: Room, done: (s: TableSnapshot) => boolean) {
  for (let steps = 0; !done(snap(room)); steps++) {
    expect(steps).toBeLessThan(50);
    const shown = JSON.stringify(snap(room));
    // A timer runs once its deadline is shown (the settled pause starts when every seat is settled).
    const s = snap(room);
    if (s.phase === "settled" && s.deadline !== null) await clock.advance(SETTLED_MS);
    else if (s.toAct !== null && s.deadline !== null) await clock.advance(TURN_MS);
    await waitFor(() => done(snap(room)) || JSON.stringify(snap(room)) !== shown, 10_000);
  }
}

const clientSeedOf = async (playerId: string) =>
  (await sql(`SELECT client_seed FROM fairness_seeds WHERE player_id = $1 AND active`, [playerId]))[0].client_seed as string;

/** The actions the test's players take, by round: what the offline replay and the table both play. */
type Plan = (state: TableState, seat: number) => BlackjackAction | "timeout";

/**
 * Plays `rounds` rounds offline on a shoe with the engine, as the test will at the table: each round as
 * dealt, and the moves the players make in it (in turn order).
 */
function simulate(seed: string, seats: SeatSeed[], rounds: { bets: number[]; plan: Plan }[]) {
  let s = newShoe(seed, seats, 2);
  const dealt: TableState[] = [];
  const moves: { seat: number; action: BlackjackAction | "timeout" }[][] = [];
  rounds.forEach((r, i) => {
    if (i > 0) s = nextRound(s);
    s = deal(
      s,
      r.bets.map((amount, k) => ({ seat: k + 1, amount })),
    );
    dealt.push(s);
    moves.push([]);
    for (let seat = seatToAct(s); seat !== null; seat = seatToAct(s)) {
      const action = r.plan(s, seat);
      moves[i]!.push({ seat, action });
      s = act(s, seat, action === "timeout" ? defaultAction(s)!.action : action).state;
    }
    if (s.phase === "dealer") s = dealerTurn(s);
  });
  return { dealt, moves };
}

const upIsAce = (s: TableState) => cardPoints(s.dealer[0]!) === 1;
const splittable = (cards: readonly Card[]) => cards.length === 2 && rankOf(cards[0]!) === rankOf(cards[1]!) && rankOf(cards[0]!) !== 14;

describe("three players of one activity instance at the table", () => {
  it("play rounds in seat order with a split, a timeout, a drop and a return; a spectator sees every dealt card and none in the shoe; every round re-derives", async () => {
    const instanceId = `table-inst-${Date.now()}`;
    const [p1, p2, p3, watcher] = await Promise.all([1, 2, 3, 4].map(() => discordPlayer(instanceId)));
    const outsider = await discordPlayer(`other-${instanceId}`);
    const seats: SeatSeed[] = [
      { seat: 1, clientSeed: await clientSeedOf(p1!.player.id) },
      { seat: 2, clientSeed: await clientSeedOf(p2!.player.id) },
      { seat: 3, clientSeed: await clientSeedOf(p3!.player.id) },
    ];

    // Round 1: seat 1 stands, seat 2 splits its pair and stands each hand, seat 3 lets its timer run out.
    // Round 2: seat 1 stands, seat 2 drops mid-turn (stood for), seat 3 stands.
    // Round 3: everyone stands, seat 2 back in its seat.
    const stand: BlackjackAction = { type: "stand" };
    const plans: { bets: number[]; plan: Plan }[] = [
      {
        bets: [100, 40, 25],
        plan: (s, seat) =>
          seat === 3
            ? "timeout"
            : seat === 2 && s.seats[1]!.hands.length === 1 && splittable(s.seats[1]!.hands[0]!.cards)
              ? { type: "split" }
              : stand,
      },
      { bets: [100, 41, 25], plan: (_s, seat) => (seat === 2 ? "timeout" : stand) },
      { bets: [10, 20, 30], plan: () => stand },
    ];
    // The shoe's seed is chosen (the test's hook on the store) so that these rounds play out as planned:
    // round 1 deals seat 2 a pair, no ace up, no blackjack anywhere, and seat 2 has a turn in every round.
    let chosen = "";
    for (let i = 0; !chosen; i++) {
      const seed = sha256Hex(`table-test-seed-${i}`);
      let dealt: TableState[];
      try {
        dealt = simulate(seed, seats, plans).dealt;
      } catch {
        continue; // insurance offered, or no pair to split: not this seed
      }
      const ok =
        dealt.every((s) => s.phase === "turns" && !upIsAce(s) && s.seats.every((x) => x.hands[0]!.result === undefined)) &&
        splittable(dealt[0]!.seats[1]!.hands[0]!.cards);
      if (ok) chosen = seed;
    }
    // For the next shoe only (shoe seeds are unique).
    const store = t.app.services.table;
    const random = store.newServerSeed;
    store.newServerSeed = () => {
      store.newServerSeed = random;
      return chosen;
    };
    const { dealt: expectedDeals, moves } = simulate(chosen, seats, plans);

    const j1 = await joinTable(p1!.token, { instanceId });
    const j2 = await joinTable(p2!.token, { instanceId });
    const j3 = await joinTable(p3!.token, { instanceId });
    const spectator = await joinTable(watcher!.token, { instanceId });
    expect(new Set([j1, j2, j3, spectator].map((j) => j.room.roomId)).size).toBe(1);
    const roomId = j1.room.roomId;

    // Another instance's player: not by naming this instance, not by its room id, and not in the listing.
    await expect(joinTable(outsider.token, { instanceId })).rejects.toThrow(/You have not joined that activity instance/);
    await expect(joinTable(outsider.token, { instanceId: `other-${instanceId}` }, roomId)).rejects.toThrow(/another activity instance/);
    expect((await t.request("GET", `/api/tables?instanceId=${instanceId}`, { token: outsider.token })).status).toBe(403);
    const listed = await t.request("GET", `/api/tables?instanceId=${instanceId}`, { token: watcher!.token });
    expect(listed.body.tables).toEqual([expect.objectContaining({ roomId, instanceId, seated: 0, freeSeats: 7 })]);

    const players = [j1, j2, j3];
    for (const [k, j] of players.entries()) expect((await ask(j.room, j.inbox, TABLE_MESSAGES.sit, { seat: k + 1 })).type).toBe("result");
    expect((await ask(spectator.room, spectator.inbox, TABLE_MESSAGES.sit, { seat: 2 })).body.code).toBe("seat_taken");
    expect((await ask(spectator.room, spectator.inbox, TABLE_MESSAGES.bet, { amount: 10 })).body.code).toBe("not_seated");

    // The commitment is shown before the shoe's first round.
    await waitFor(() => snap(spectator.room).phase === "betting", 10_000);
    const commitment = snap(spectator.room).shoe!;
    expect(commitment.serverSeedHash).toBe(sha256Hex(chosen));
    expect(commitment.seats).toBeNull();

    const roundNumber = () => snap(spectator.room).view?.round ?? 0;
    const betAll = async (bets: number[]) => {
      await waitFor(() => snap(spectator.room).phase === "betting", 10_000);
      for (const [k, j] of players.entries()) {
        const placed = await ask(j.room, j.inbox, TABLE_MESSAGES.bet, { amount: bets[k] });
        expect(placed.body).toMatchObject({ type: TABLE_MESSAGES.bet, seat: k + 1, stake: bets[k] });
      }
      for (const j of players) expect((await ask(j.room, j.inbox, TABLE_MESSAGES.ready, {})).type).toBe("result");
    };
    /** Waits for the seat's turn (as every client sees it) and acts. */
    const actAt = async (seat: number, action: BlackjackAction) => {
      const j = players[seat - 1]!;
      await waitFor(() => snap(j.room).toAct === seat, 10_000);
      const answer = await ask(j.room, j.inbox, TABLE_MESSAGES.act, { action });
      expect(answer.type, JSON.stringify(answer.body)).toBe("result");
      return answer;
    };
    /** The round is settled and its pause has begun (its deadline is shown once every seat is settled). */
    const waitSettled = (round: number) =>
      waitFor(() => {
        const s = snap(spectator.room);
        return s.phase === "settled" && s.view?.round === round && s.deadline !== null;
      }, 15_000);

    // ── Round 1 ──
    await betAll(plans[0]!.bets);
    await waitFor(() => roundNumber() === 1, 10_000);
    // Not seat 2's turn yet: refused, nothing changes.
    expect((await ask(j2.room, j2.inbox, TABLE_MESSAGES.act, { action: stand })).body.code).toBe("not_your_turn");
    for (const move of moves[0]!) {
      if (move.action === "timeout") continue;
      const answer = await actAt(move.seat, move.action);
      if (move.action.type === "split") expect(answer.body).toMatchObject({ stake: 40 });
    }
    // Seat 3 never acts: stood for when its timer runs out, a whole turn by the table's clock.
    await waitFor(() => snap(spectator.room).toAct === 3, 10_000);
    expect(snap(spectator.room)).toMatchObject({ serverTime: clock.now(), deadline: clock.now() + TURN_MS });
    await clock.advance(TURN_MS);
    await waitSettled(1);
    expect(snap(spectator.room).view!.seats[1]!.hands).toHaveLength(2);

    // ── Round 2: seat 2 drops in the middle of its turn and comes back within the grace ──
    await clock.advance(SETTLED_MS);
    await betAll(plans[1]!.bets);
    await waitFor(() => roundNumber() === 2, 10_000);
    expect(moves[1]!.map((m) => m.seat)).toEqual([1, 2, 3]);
    await actAt(1, stand);
    await waitFor(() => snap(j2.room).toAct === 2, 10_000);
    j2.room.reconnection.minUptime = 0;
    j2.room.reconnection.delay = 300;
    j2.room.reconnection.minDelay = 300;
    const reconnected = new Promise<void>((resolve) => j2.room.onReconnect.once(() => resolve()));
    (j2.room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    // Stood for at once (no timer), while the seat is kept for the player.
    await waitFor(() => snap(spectator.room).toAct === 3, 5_000);
    expect(snap(spectator.room).players.find((p) => p.seat === 2)).toMatchObject({ connected: false, leaving: false });
    await reconnected;
    await waitFor(() => snap(spectator.room).players.find((p) => p.seat === 2)?.connected === true, 10_000);
    await actAt(3, stand);
    await waitSettled(2);

    // ── Round 3: seat 2 plays again ──
    await clock.advance(SETTLED_MS);
    await betAll(plans[2]!.bets);
    await waitFor(() => roundNumber() === 3, 10_000);
    for (const move of moves[2]!) await actAt(move.seat, move.action as BlackjackAction);
    await waitSettled(3);
    const shoeId = snap(spectator.room).shoe!.id;
    expect(snap(spectator.room).shoe!.seats).toEqual(seats);

    // The table closes when everyone has left (the seats are freed at the end of the settled pause): its
    // shoe is finished and its seed revealed.
    for (const j of [...players, spectator]) await j.room.leave();
    await clock.advance(SETTLED_MS);
    const deadline = Date.now() + 15_000;
    let revealed: { status: number; body: RevealedShoe } = await t.request("GET", `/api/tables/shoes/${shoeId}`, { token: watcher!.token });
    while (revealed.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      revealed = await t.request("GET", `/api/tables/shoes/${shoeId}`, { token: watcher!.token });
    }
    expect(revealed.status).toBe(200);
    expect(revealed.body.serverSeed).toBe(chosen);

    // Every round re-derives from the revealed seed and the seated players' client seeds.
    const verified = verifyShoe({ ...revealed.body, serverSeedHash: commitment.serverSeedHash });
    expect(verified.commitment.matches).toBe(true);
    expect(verified.rounds).toHaveLength(3);
    expect(verified.rounds.map((r) => r.cards[0])).toEqual(expectedDeals.map((s) => s.firstCard));
    // The recorded actions: seat 3's timeout and seat 2's drop are recorded as the default action they got.
    expect(revealed.body.rounds[0]!.actions.filter((a) => a.seat === 3)).toEqual([{ seat: 3, action: { type: "stand" } }]);
    expect(revealed.body.rounds[1]!.actions.filter((a) => a.seat === 2)).toEqual([{ seat: 2, action: { type: "stand" } }]);
    expect(revealed.body.rounds[0]!.actions.filter((a) => a.seat === 2)[0]).toEqual({ seat: 2, action: { type: "split" } });

    // The database's bets and the players' game sessions are what the replay settles.
    const bets = await sql(
      `SELECT b.*, r.round FROM table_bets b JOIN table_rounds r ON r.id = b.round_id WHERE r.shoe_id = $1 ORDER BY r.round, b.seat`,
      [shoeId],
    );
    expect(bets).toHaveLength(9);
    for (const b of bets) {
      const seat = verified.rounds[b.round - 1]!.seats.find((s) => s.seat === b.seat)!;
      expect({ status: b.status, staked: Number(b.staked), payout: Number(b.payout) }).toEqual({
        status: "settled",
        staked: seat.staked,
        payout: seat.payout,
      });
      const [session] = await sql(`SELECT * FROM game_sessions WHERE request_id = $1 AND player_id = $2`, [b.request_id, b.player_id]);
      expect(session).toMatchObject({ game_type: "blackjack", rounding: 2 });
      expect({ stake: Number(session.bet_amount), payout: Number(session.payout), amount: Number(session.amount) }).toEqual({
        stake: seat.staked,
        payout: seat.payout,
        amount: seat.bet,
      });
      expect(session.params).toMatchObject({ table: `instance:${instanceId}`, shoeId, round: b.round, seat: b.seat });
    }
    expect(Number(bets.find((b) => b.round === 1 && b.seat === 2)!.staked)).toBe(80);
    for (const [k, p] of [p1, p2, p3].entries()) {
      const net = verified.rounds.reduce((sum, r) => {
        const seat = r.seats.find((s) => s.seat === k + 1)!;
        return sum + seat.payout - seat.staked;
      }, 0);
      expect(Number((await sql(`SELECT balance FROM players WHERE id = $1`, [p!.player.id]))[0].balance)).toBe(1000 + net);
    }

    // The spectator saw every dealt card, and never one still in the shoe or the hole card before its time.
    const shoe = deriveShoe(chosen, seats);
    const counts = (cards: readonly Card[]) => [...cards].sort((a, b) => a - b).join(",");
    const viewed = spectator.seen.filter((s) => s.view);
    expect(viewed.length).toBeGreaterThan(6);
    for (const s of viewed) {
      const v = s.view!;
      const round = verified.rounds[v.round - 1]!;
      const visible = [...v.seats.flatMap((x) => x.hands.flatMap((h) => h.cards)), ...v.dealer.filter((c): c is Card => c !== null)];
      const hidden = v.dealer.filter((c) => c === null).length;
      expect(hidden).toBe(v.phase === "dealer" || v.phase === "settled" ? 0 : 1);
      expect(v.shoe.dealt).toBeLessThanOrEqual(round.cards[1]);
      // The cards on the table are the round's cards dealt so far, the hole card aside: none from further in the shoe.
      const dealtSoFar = shoe.slice(round.cards[0], v.shoe.dealt);
      expect(counts(visible)).toBe(counts(hidden ? dealtSoFar.filter((_, i) => i !== 2 * round.seats.length + 1) : dealtSoFar));
    }
    for (const round of verified.rounds) {
      const last = viewed.filter((s) => s.view!.round === round.round).at(-1)!;
      expect(last.view!.shoe.dealt).toBe(round.cards[1]);
      expect(last.view!.dealer).toEqual(round.dealer);
    }
  }, 120_000);
});

describe("public tables", () => {
  it("fill up to 7 seats, then a player asking for a free seat gets a new table; a full table can be watched; bad messages are refused", async () => {
    const guests = await Promise.all(Array.from({ length: 9 }, () => t.guest()));
    // A guest plays at the public tables only.
    await expect(joinTable(guests[0]!.token, { instanceId: "some-instance" })).rejects.toThrow(/Guests play at the public tables/);
    await expect(joinTable(guests[0]!.token, { instanceId: "some-instance", freeSeat: true })).rejects.toThrow(/freeSeat/);

    const first: Joined[] = [];
    for (const [k, g] of guests.slice(0, 7).entries()) {
      const j = await joinTable(g.token, { instanceId: null, freeSeat: true });
      first.push(j);
      expect((await ask(j.room, j.inbox, TABLE_MESSAGES.sit, { seat: k + 1 })).type).toBe("result");
    }
    const fullRoom = first[0]!.room.roomId;
    expect(new Set(first.map((j) => j.room.roomId))).toEqual(new Set([fullRoom]));
    expect((await ask(first[0]!.room, first[0]!.inbox, TABLE_MESSAGES.sit, { seat: 2 })).body.code).toBe("already_seated");
    const listed = async () => (await t.request("GET", "/api/tables", { token: guests[8]!.token })).body.tables as any[];
    const deadline = Date.now() + 5_000;
    while (!(await listed()).some((x) => x.roomId === fullRoom && x.freeSeats === 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));

    // Every seat taken: asking for a free seat opens a new table; both are listed.
    const eighth = await joinTable(guests[7]!.token, { instanceId: null, freeSeat: true });
    expect(eighth.room.roomId).not.toBe(fullRoom);
    const tables = await listed();
    expect(tables.find((x) => x.roomId === fullRoom)).toMatchObject({ seated: 7, freeSeats: 0, instanceId: null });
    expect(tables.find((x) => x.roomId === eighth.room.roomId)).toMatchObject({ freeSeats: 7 });

    // The full table by its id: to watch.
    const watcher = await joinTable(guests[8]!.token, { instanceId: null }, fullRoom);
    expect((await ask(watcher.room, watcher.inbox, TABLE_MESSAGES.sit, { seat: 7 })).body.code).toBe("seat_taken");
    await waitFor(() => snap(watcher.room).players.length === 7 && snap(watcher.room).watchers === 1, 5_000);

    // Malformed messages: answered invalid_message, the connection stays.
    const j = first[0]!;
    for (const [type, body] of [
      [TABLE_MESSAGES.sit, { seat: 8 }],
      [TABLE_MESSAGES.bet, { amount: 0 }],
      [TABLE_MESSAGES.bet, { amount: 1.5 }],
      [TABLE_MESSAGES.act, { action: { type: "surrender" } }],
      [TABLE_MESSAGES.act, { action: { type: "insurance" } }],
      [TABLE_MESSAGES.ready, { extra: 1 }],
    ] as const) {
      const answer = await ask(j.room, j.inbox, type, body as Record<string, unknown>);
      expect(answer.body.code, `${type} ${JSON.stringify(body)}`).toBe("invalid_message");
    }

    // A seat taken while a round is played watches until the next round.
    await waitFor(() => snap(eighth.room).phase === "waiting" || snap(eighth.room).phase === "betting", 5_000);
    expect((await ask(eighth.room, eighth.inbox, TABLE_MESSAGES.sit, { seat: 1 })).type).toBe("result");
    await waitFor(() => snap(eighth.room).phase === "betting", 10_000);
    expect((await ask(eighth.room, eighth.inbox, TABLE_MESSAGES.bet, { amount: 10 })).type).toBe("result");
    expect((await ask(eighth.room, eighth.inbox, TABLE_MESSAGES.bet, { amount: 10 })).body.code).toBe("already_bet");
    await ask(eighth.room, eighth.inbox, TABLE_MESSAGES.ready, {});
    await waitFor(() => snap(eighth.room).view?.round === 1, 10_000);
    const late = await joinTable(guests[8]!.token, { instanceId: null }, eighth.room.roomId);
    expect((await ask(late.room, late.inbox, TABLE_MESSAGES.sit, { seat: 2 })).type).toBe("result");
    await waitFor(() => snap(late.room).players.some((p) => p.seat === 2), 5_000);
    // Each seat shows its player's face (the server's seed), not one made from the name.
    for (const seat of snap(late.room).players) expect(seat.face).toBe(faceOf(seat.playerId));
    if (snap(late.room).phase !== "settled")
      expect(snap(late.room).players.find((p) => p.seat === 2)).toMatchObject({ inRound: false, bet: null });
    expect((await ask(late.room, late.inbox, TABLE_MESSAGES.bet, { amount: 10 })).body.code).toBe("betting_closed");
    // Seat 1 plays its round (stood for, if need be, by the timer); seat 2 then bets in the next one.
    await advanceUntil(late.room, (s) => s.phase === "betting");
    expect((await ask(late.room, late.inbox, TABLE_MESSAGES.bet, { amount: 10 })).type).toBe("result");

    for (const x of [...first, eighth, watcher, late]) await x.room.leave();
  }, 90_000);
});

describe("a dropped player's grace", () => {
  it("runs on the table's clock: the seat is kept (shown away) until the grace runs out, then given up and the connection's wait ended", async () => {
    const [g, w] = await Promise.all([t.guest(), t.guest()]);
    const room = await t.sdk(g.token).create("blackjack-table", { instanceId: null });
    const inbox = new Inbox(room);
    await waitFor(() => (room.state as { snapshot?: string })?.snapshot);
    const watcher = await joinTable(w.token, { instanceId: null }, room.roomId);
    expect((await ask(room, inbox, TABLE_MESSAGES.sit, { seat: 5 })).type).toBe("result");
    await waitFor(() => snap(watcher.room).players.some((p) => p.seat === 5 && p.connected), 5_000);
    // The player's connection drops and does not come back.
    room.reconnection.enabled = false;
    (room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await waitFor(() => snap(watcher.room).players.find((p) => p.seat === 5)?.connected === false, 5_000);
    await clock.advance(30_000);
    await waitFor(() => !snap(watcher.room).players.some((p) => p.seat === 5), 5_000);
    // Nobody waits for the dropped connection any more: once the watcher leaves, the table closes.
    await watcher.room.leave();
    const listed = async () =>
      ((await t.request("GET", "/api/tables", { token: w.token })).body.tables as { roomId: string }[]).map((x) => x.roomId);
    for (let tries = 0; (await listed()).includes(room.roomId); tries++) {
      expect(tries).toBeLessThan(150);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});

describe("an anonymous player at the table", () => {
  it("sits and plays under a stand-in: the other player's table never carries their id; anonymous mode switched while seated shows at once", async () => {
    const [shy, other] = await Promise.all([t.guest(), t.guest()]);
    const anonymous = (enabled: boolean) =>
      t.request("PATCH", "/api/player/anonymous", { token: shy.token, body: { playerId: shy.player.id, enabled } });
    expect((await anonymous(true)).status).toBe(200);
    const a = await joinTable(shy.token, { instanceId: null }, "create");
    const b = await joinTable(other.token, { instanceId: null }, a.room.roomId);
    const selfOf = (j: Joined) =>
      j.inbox.messages.filter((m) => m.type === SHARED_ROOM_PUSH.self).at(-1)?.body.playerId as string | undefined;
    await waitFor(() => selfOf(a) && selfOf(b));
    const standIn = selfOf(a)!;
    expect(standIn).toMatch(new RegExp(`^${ANONYMOUS_ID_PREFIX}[A-Za-z0-9_-]{22}$`));
    expect(selfOf(b)).toBe(other.player.id);
    expect((await ask(a.room, a.inbox, TABLE_MESSAGES.sit, { seat: 2 })).type).toBe("result");
    expect((await ask(b.room, b.inbox, TABLE_MESSAGES.sit, { seat: 3 })).type).toBe("result");
    await waitFor(() => snap(b.room).players.length === 2);
    expect(snap(b.room).players.find((p) => p.seat === 2)).toMatchObject({
      playerId: standIn,
      username: ANONYMOUS_NAME,
      avatarUrl: null,
      face: null,
    });
    expect(snap(b.room).players.find((p) => p.seat === 3)?.playerId).toBe(other.player.id);
    // The anonymous player plays a round: their own seat is the one their connection was told of.
    await waitFor(() => snap(a.room).phase === "betting", 10_000);
    for (const j of [a, b])
      expect((await ask(j.room, j.inbox, TABLE_MESSAGES.bet, { amount: 5 })).body).toMatchObject({ seat: expect.any(Number) });
    for (const j of [a, b]) expect((await ask(j.room, j.inbox, TABLE_MESSAGES.ready, {})).type).toBe("result");
    await waitFor(() => snap(a.room).view !== null && snap(a.room).phase !== "betting");
    await advanceUntil(a.room, (s) => s.phase === "settled");
    const mine = snap(a.room).players.find((p) => p.playerId === selfOf(a));
    expect(mine).toMatchObject({ seat: 2, bet: 5 });
    // Everything the other player received while the player was anonymous (a whole round): the id nowhere.
    const anonymousRound = b.seen.length;
    expect(anonymousRound).toBeGreaterThan(3);
    expect(JSON.stringify(b.seen)).not.toContain(shy.player.id);
    expect(JSON.stringify(b.inbox.messages)).not.toContain(shy.player.id);
    // Anonymous mode off while seated: the seat shows the name under the player's id, and the connection is told.
    expect((await anonymous(false)).status).toBe(200);
    await waitFor(() => snap(b.room).players.find((p) => p.seat === 2)?.playerId === shy.player.id && selfOf(a) === shy.player.id);
    expect(snap(b.room).players.find((p) => p.seat === 2)).toMatchObject({ username: shy.player.username, face: faceOf(shy.player.id) });
    // And on again: the same stand-in today, and the id is gone from the table again.
    expect((await anonymous(true)).status).toBe(200);
    await waitFor(() => snap(b.room).players.find((p) => p.seat === 2)?.playerId === standIn && selfOf(a) === standIn);
    expect(JSON.stringify(snap(b.room))).not.toContain(shy.player.id);
    await Promise.all([a.room.leave(), b.room.leave()]);
  });
});

describe("a whole shoe", () => {
  it("is dealt to its cut card, then its seed is revealed and a new shoe committed before its first round; the record re-derives", async () => {
    const g = await t.guest();
    const j = await joinTable(g.token, { instanceId: null, freeSeat: true });
    expect((await ask(j.room, j.inbox, TABLE_MESSAGES.sit, { seat: 4 })).type).toBe("result");
    await waitFor(() => snap(j.room).shoe !== null, 10_000);
    const first = snap(j.room).shoe!;
    // The player: 7 coins a round (odd: a natural has half a coin to round), basic strategy, insurance
    // taken now and then, one message per state of the table.
    const sent = new Set<string>();
    const once = (key: string, send: () => void) => {
      if (sent.has(key)) return;
      sent.add(key);
      send();
    };
    const play = () => {
      const s = snap(j.room);
      if (!s.shoe || s.previousShoe) return;
      if (s.phase === "betting")
        once(`bet:${s.shoe.rounds}`, () => {
          j.room.send(TABLE_MESSAGES.bet, { requestId: `bet-${s.shoe!.id}-${s.shoe!.rounds}`, amount: 7 });
          j.room.send(TABLE_MESSAGES.ready, { requestId: `ready-${s.shoe!.id}-${s.shoe!.rounds}` });
        });
      const v = s.view;
      if (s.toAct !== 4 || !v) return;
      // The table may still hold the previous test's seats for a round: this player's seat is 4.
      const seat = v.seats.find((x) => x.seat === 4);
      if (!seat) return;
      const hand = seat.hands[seat.active];
      // Insurance is asked of the seat as a whole (a natural's seat may have no hand left to play).
      if (v.phase !== "insurance" && !hand) return;
      const key = `${v.round}:${v.phase}:${seat.active}:${hand?.cards.length}:${seat.hands.length}`;
      once(key, () => {
        const action =
          v.phase === "insurance" || !hand
            ? { type: "insurance", take: v.round % 2 === 0 }
            : { type: basicStrategy(hand.cards, v.dealer[0]!, v.actions.includes("double"), v.actions.includes("split")) };
        j.room.send(TABLE_MESSAGES.act, { requestId: `act-${s.shoe!.id}-${v.round}-${sent.size}`, action });
      });
    };
    j.room.onStateChange(play);
    play();
    // Each settled pause ends when the clock is moved on; the player's own decisions keep every turn short of its timer.
    for (let last = 0; snap(j.room).previousShoe === null;) {
      await waitFor(() => {
        const s = snap(j.room);
        return s.previousShoe !== null || (s.phase === "settled" && s.deadline !== null && (s.view?.round ?? 0) > last);
      }, 20_000);
      if (snap(j.room).previousShoe !== null) break;
      last = snap(j.room).view!.round;
      await clock.advance(SETTLED_MS);
    }
    // Every bet, Ready and action the player sent was taken (a refused one would have left the turn to the timer).
    expect(j.inbox.messages.filter((m) => m.type !== "result" && m.type !== SHARED_ROOM_PUSH.self)).toEqual([]);
    expect(j.inbox.messages.filter((m) => m.body?.type === TABLE_MESSAGES.act).length).toBeGreaterThan(0);
    const finished = snap(j.room).previousShoe!;
    expect(finished.id).toBe(first.id);
    expect(finished.serverSeedHash).toBe(first.serverSeedHash);
    expect(sha256Hex(finished.serverSeed)).toBe(first.serverSeedHash);
    // The next shoe's commitment is shown in its first betting window, before any of its rounds.
    await waitFor(() => snap(j.room).phase === "betting", 10_000);
    expect(snap(j.room).shoe).toMatchObject({ rounds: 0, seats: null });
    expect(snap(j.room).shoe!.serverSeedHash).not.toBe(first.serverSeedHash);
    // The shoe being dealt keeps its seed: its record is refused, saying why.
    const dealing = await t.request("GET", `/api/tables/shoes/${snap(j.room).shoe!.id}`);
    expect(dealing.status).toBe(409);
    expect(dealing.body).toMatchObject({ code: "shoe_not_revealed", error: expect.stringMatching(/^This shoe is still being dealt/) });
    expect(JSON.stringify(dealing.body)).not.toContain("serverSeed");
    await j.room.leave();

    // The finished shoe's record is public: read here without a session, in the shape common's schema reads.
    const revealed = await t.request("GET", `/api/tables/shoes/${first.id}`);
    expect(revealed.status).toBe(200);
    expect(revealedShoe.safeParse(revealed.body).success).toBe(true);
    const verified = verifyShoe({ ...(revealed.body as RevealedShoe), serverSeedHash: first.serverSeedHash });
    expect(verified.commitment.matches).toBe(true);
    expect(verified.complete).toBe(true);
    expect(verified.rounds.length).toBeGreaterThan(10);
    // What each round's settlement recorded (the seats' game sessions) is what the shoe deals again.
    const record = (revealed.body as RevealedShoe).outcomes;
    expect(record).toHaveLength(verified.rounds.length);
    expect(record.every((r) => r.dealer !== null && r.seats.every((x) => x.hands !== null))).toBe(true);
    expect(checkShoeRecord(verified, record).map((c) => c.matches)).toEqual(verified.rounds.map(() => true));
    const sessions = await sql(
      `SELECT bet_amount, payout, params FROM game_sessions WHERE player_id = $1 AND game_type = 'blackjack' ORDER BY created_at`,
      [g.player.id],
    );
    const ofShoe = sessions.filter((x) => x.params.shoeId === first.id);
    // Seat 4's rounds (a round this seat sat out has no seat 4: another player's leftover round).
    const mine = verified.rounds.flatMap((r) => r.seats.filter((x) => x.seat === 4));
    expect(ofShoe.map((x) => [Number(x.bet_amount), Number(x.payout)])).toEqual(mine.map((x) => [x.staked, x.payout]));
    const net = mine.reduce((sum, x) => sum + x.payout - x.staked, 0);
    // The next shoe may have taken a bet already: it is still open, its stake debited.
    const open = await sql(
      `SELECT coalesce(sum(b.staked), 0)::int AS n FROM table_bets b JOIN table_rounds r ON r.id = b.round_id WHERE b.player_id = $1 AND r.shoe_id <> $2 AND b.status = 'active'`,
      [g.player.id, first.id],
    );
    const later = await sql(
      `SELECT coalesce(sum(b.payout - b.staked), 0)::int AS n FROM table_bets b JOIN table_rounds r ON r.id = b.round_id WHERE b.player_id = $1 AND r.shoe_id <> $2 AND b.status <> 'active'`,
      [g.player.id, first.id],
    );
    expect(Number((await sql(`SELECT balance FROM players WHERE id = $1`, [g.player.id]))[0].balance)).toBe(
      1000 + net - open[0].n + later[0].n,
    );
  }, 120_000);

  it("refuses a shoe id that names no shoe, and one that is not an id, each with its own message", async () => {
    const unknown = await t.request("GET", "/api/tables/shoes/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "shoe_not_found", error: "No shoe has this id: check it against the table's fairness panel" });
    const malformed = await t.request("GET", "/api/tables/shoes/not-a-shoe");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/A shoe id is a UUID/);
  });
});

describe("the restart rule in the betting window", () => {
  it("a shoe whose process went away while bets were taken: the round is void, every bet refunded once, the shoe finished", async () => {
    const { db, ledger: tableMoney, config } = t.app.services;
    // Another process's store (its lease is ended by hand below, as if it had stopped renewing it).
    const gone = new TableStore(db, tableMoney, { ...config.table, leaseMs: 600_000 });
    const tableId = `public:restart-${Date.now()}`;
    const opened = await gone.openShoe(tableId);
    if (!("opened" in opened)) throw new Error("no shoe opened");
    const shoe = opened.opened;
    const roundId = await gone.openRound(shoe.id, 1);
    const [a, b] = await Promise.all([t.guest(), t.guest()]);
    await tableMoney.placeTableBet(a.player.id, "restart-bet-a", { roundId, seat: 2, amount: 120 });
    await tableMoney.placeTableBet(b.player.id, "restart-bet-b", { roundId, seat: 6, amount: 7 });
    // One bet a seat and a player, whatever is sent.
    await expect(tableMoney.placeTableBet(a.player.id, "restart-bet-a2", { roundId, seat: 3, amount: 5 })).rejects.toMatchObject({
      code: "already_bet",
    });
    expect(Number((await sql(`SELECT balance FROM players WHERE id = $1`, [a.player.id]))[0].balance)).toBe(880);

    // Before the lease runs out nobody else may settle it.
    const other = new TableStore(db, tableMoney, config.table);
    expect(await other.recover(shoe.id)).toBe(false);
    await sql(`UPDATE table_shoes SET lease_until = now() - interval '1 second' WHERE id = $1`, [shoe.id]);
    // This store or the app's own sweep (whichever comes first) settles it, once.
    await Promise.all([other.recoverStale(), other.recover(shoe.id)]);

    expect((await sql(`SELECT phase, settled_by FROM table_rounds WHERE id = $1`, [roundId]))[0]).toEqual({
      phase: "void",
      settled_by: "restart",
    });
    expect((await sql(`SELECT finished_by FROM table_shoes WHERE id = $1`, [shoe.id]))[0].finished_by).toBe("restart");
    const bets = await sql(`SELECT player_id, status, payout FROM table_bets WHERE round_id = $1 ORDER BY seat`, [roundId]);
    expect(bets.map((x) => [x.status, Number(x.payout)])).toEqual([
      ["refunded", 120],
      ["refunded", 7],
    ]);
    for (const p of [a, b]) expect(Number((await sql(`SELECT balance FROM players WHERE id = $1`, [p.player.id]))[0].balance)).toBe(1000);
    // A bet for the void round is refused; settling again moves nothing; the shoe's seed is now public.
    await expect(tableMoney.placeTableBet(b.player.id, "restart-bet-b2", { roundId, seat: 6, amount: 7 })).rejects.toMatchObject({
      code: "betting_closed",
    });
    expect(await other.recover(shoe.id)).toBe(false);
    expect((await t.request("GET", `/api/tables/shoes/${shoe.id}`, { token: a.token })).body).toMatchObject({
      serverSeed: shoe.serverSeed,
      rounds: [],
    });
  });
});
