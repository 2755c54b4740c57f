import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOLDEM_GAME, TOGETHER_ROOM, sha256Hex, togetherFeedPush, type FeedEntry, type FeedRow, type HistoryItem } from "@casino/common";
import { checkHoldemRecord, dealHoldemHand, holdemHandFile, recordOfFile } from "@casino/common/games/holdem/index";
import { HOLDEM_HAND_PAUSE_MS, HOLDEM_MESSAGES } from "@casino/common/holdem-table";
import { ManualClock } from "../src/platform/clock";
import { startTestApp, type TestApp } from "./harness";
import { act, handOver, snap, toAct, type AtTable } from "./holdem-helpers";
import { Inbox, ask, waitFor } from "./room-helpers";

/**
 * A Hold'em hand reaches its players' history and the activity instance's feed (docs/architecture/holdem.md,
 * "In the history and the feeds"), on PostgreSQL with a ManualClock: two members of an instance play a
 * fold to a raise, a hand checked down to the showdown and a hand one of them leaves; a third member
 * listens to the instance's feed and a player of another instance to theirs. Everything is read back by
 * SQL and through the REST endpoints the client reads.
 */
const clock = new ManualClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TABLE_LEASE_MS: "60000", BET_RATE_PER_SECOND: "1000" }, { clock });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

let discordIds = 6_700_000;
async function member(instanceId: string) {
  const id = String(discordIds++);
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:hand${id}`, instanceId } });
  expect(res.status).toBe(200);
  return { token: res.body.session_token as string, id: (res.body.player as { id: string }).id };
}

/** Joins the instance's table (one for its members). */
async function joinTable(token: string, instanceId: string): Promise<AtTable> {
  const room = await t.sdk(token).joinOrCreate("holdem-table", { instanceId });
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as { snapshot?: string })?.snapshot);
  return { room, inbox };
}
async function joinTogether(token: string, instanceId: string): Promise<Inbox> {
  const room = await t.sdk(token).joinOrCreate(TOGETHER_ROOM, { instanceId });
  const inbox = new Inbox(room);
  await waitFor(() => inbox.messages.some((m) => m.type === "members"), 10_000);
  return inbox;
}

/** The Hold'em rows of an instance feed a client was pushed, each read with the client's schema. */
const holdemRows = (inbox: Inbox): FeedRow[] =>
  inbox.messages
    .filter((m) => m.type === "feed")
    .flatMap((m) => togetherFeedPush.parse(m.body).instance)
    .filter((e: FeedEntry): e is FeedRow => e.kind === "holdem");

const history = async (token: string, playerId: string, query = "") => {
  const res = await t.request("GET", `/api/player/${playerId}/history?limit=100${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.items as HistoryItem[];
};

describe("a Hold'em hand in the history and the feeds", () => {
  it("each player's hands are in their history with their net and the hand's seed; the feed has a row each, without a card", async () => {
    const instanceId = `hands-${Date.now()}`;
    const [ann, bob, cat] = await Promise.all([member(instanceId), member(instanceId), member(instanceId)]);
    const other = await member(`elsewhere-${instanceId}`);
    // Cat watches the instance's feed; a player of another instance listens to theirs.
    const [catFeed, otherFeed] = await Promise.all([
      joinTogether(cat.token, instanceId),
      joinTogether(other.token, `elsewhere-${instanceId}`),
    ]);
    await Promise.all([joinTogether(ann.token, instanceId), joinTogether(bob.token, instanceId)]);

    const a = await joinTable(ann.token, instanceId);
    const b = await joinTable(bob.token, instanceId);
    const tableId = snap(a).tableId;
    expect((await ask(a.room, a.inbox, HOLDEM_MESSAGES.sit, { seat: 1, buyIn: 200 })).type).toBe("result");
    expect((await ask(b.room, b.inbox, HOLDEM_MESSAGES.sit, { seat: 3, buyIn: 100 })).type).toBe("result");
    await waitFor(() => snap(a).nextHandAt !== null);
    await clock.advance(HOLDEM_HAND_PAUSE_MS);

    // Hand 1: Ann (button, small blind) raises to 10, Bob folds: Ann takes the blinds, +2; Bob -2.
    await toAct(a, 1, 1);
    expect(holdemRows(catFeed)).toEqual([]);
    expect((await act(a, { type: "raise", amount: 10 })).type).toBe("result");
    await toAct(b, 1, 3);
    await act(b, { type: "fold" });
    await handOver(a, 1);

    // Hand 2: checked down to the showdown (Bob is the button: he calls, then each checks).
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await toAct(b, 2, 3);
    await act(b, { type: "call" });
    for (let step = 0; snap(a).hand?.handNumber === 2 && snap(a).hand?.phase !== "complete"; step++) {
      expect(step).toBeLessThan(12);
      const seat = snap(a).hand!.toAct;
      if (seat === null) {
        await waitFor(() => snap(a).hand?.toAct !== null || snap(a).hand?.phase === "complete");
        continue;
      }
      const who = seat === 1 ? a : b;
      const at = `${snap(a).hand!.phase}:${seat}`;
      await act(who, { type: "check" });
      await waitFor(() => `${snap(a).hand?.phase}:${snap(a).hand?.toAct}` !== at);
    }
    await handOver(a, 2);
    expect(snap(a).previousHand!.start.handNumber).toBe(2);

    // Hand 3 is being played: its record is not out; then Ann leaves during it (folded for) and Bob wins it.
    await clock.advance(HOLDEM_HAND_PAUSE_MS);
    await waitFor(() => snap(a).hand?.handNumber === 3 && snap(a).phase === "playing");
    const [playing] = await t.sql(`SELECT id FROM holdem_hands WHERE table_id = $1 AND phase = 'playing'`, [tableId]);
    const secret = await t.request("GET", `/api/holdem-hands/${playing.id}`);
    expect(secret.status).toBe(409);
    expect(secret.body.code).toBe("hand_not_revealed");
    expect(JSON.stringify(secret.body)).not.toContain("serverSeed");
    expect((await ask(a.room, a.inbox, HOLDEM_MESSAGES.leave, {})).type).toBe("result");
    await handOver(b, 3);
    // Ann's seat is cashed out once the hand is over (the database says when).
    for (
      let tries = 0;
      (await t.sql(`SELECT 1 FROM holdem_seats WHERE table_id = $1 AND left_at IS NULL`, [tableId])).length > 1;
      tries++
    ) {
      expect(tries).toBeLessThan(200);
      await new Promise((r) => setImmediate(r));
    }
    expect((await ask(b.room, b.inbox, HOLDEM_MESSAGES.leave, {})).type).toBe("result");

    // The database: one row per seat dealt in and hand, chips moved between the players only.
    const hands = await t.sql(
      `SELECT id, hand_number, server_seed, server_seed_hash, seeds FROM holdem_hands WHERE table_id = $1 ORDER BY hand_number`,
      [tableId],
    );
    expect(hands.map((h) => h.hand_number)).toEqual([1, 2, 3]);
    const parts = await t.sql(
      `SELECT hp.hand_id, h.hand_number, hp.seat, hp.player_id, hp.put_in::int, hp.won::int
         FROM holdem_hand_players hp JOIN holdem_hands h ON h.id = hp.hand_id WHERE h.table_id = $1 ORDER BY h.hand_number, hp.seat`,
      [tableId],
    );
    expect(parts.map((p) => [p.hand_number, p.seat, p.player_id])).toEqual([
      [1, 1, ann.id],
      [1, 3, bob.id],
      [2, 1, ann.id],
      [2, 3, bob.id],
      [3, 1, ann.id],
      [3, 3, bob.id],
    ]);
    expect(parts.filter((p) => p.hand_number === 1).map((p) => [p.put_in, p.won])).toEqual([
      [2, 4],
      [2, 0],
    ]);
    for (const n of [1, 2, 3]) {
      const own = parts.filter((p) => p.hand_number === n);
      expect(own.reduce((sum, p) => sum + p.won - p.put_in, 0)).toBe(0);
    }
    // Each player's hands add up to what their seat brought back: the cash-out less the buy-in.
    const seats = await t.sql(`SELECT player_id, buy_in::int, cashed_out::int FROM holdem_seats WHERE table_id = $1`, [tableId]);
    for (const s of seats) {
      const net = parts.filter((p) => p.player_id === s.player_id).reduce((sum, p) => sum + p.won - p.put_in, 0);
      expect(s.cashed_out - s.buy_in).toBe(net);
    }

    // The REST history: each player's three hands, newest first, their own seat's figures and the hand's seed.
    for (const player of [ann, bob]) {
      const items = (await history(player.token, player.id)).filter((i) => i.kind === "holdem_hand");
      const mine = parts.filter((p) => p.player_id === player.id).reverse();
      expect(items.map((i) => [i.gameType, i.betAmount, i.payout, i.result])).toEqual(
        mine.map((p) => [HOLDEM_GAME, p.put_in, p.won, p.won > p.put_in ? "win" : p.won < p.put_in ? "lose" : "push"]),
      );
      for (const [k, item] of items.entries()) {
        const hand = hands.find((h) => h.id === mine[k]!.hand_id)!;
        const seat = mine[k]!.seat as number;
        expect(item.id).toBe(`holdem-${hand.id}`);
        expect(item.params).toEqual({ handId: hand.id, tableId, seat, handNumber: hand.hand_number });
        expect(item.fairness).toEqual({
          serverSeedHash: hand.server_seed_hash,
          serverSeed: hand.server_seed,
          clientSeed: (hand.seeds as { seat: number; clientSeed: string }[]).find((s) => s.seat === seat)!.clientSeed,
          nonce: hand.hand_number,
        });
        expect(sha256Hex(item.fairness.serverSeed!)).toBe(item.fairness.serverSeedHash);
      }
    }
    // The filters: only hands, only this game's, only the hands won.
    const annHands = await history(ann.token, ann.id, "&kind=holdem_hand");
    expect(annHands).toHaveLength(3);
    const annWins = await history(ann.token, ann.id, `&game=${HOLDEM_GAME}&result=win`);
    expect(annWins.map((i) => i.id)).toEqual(annHands.filter((i) => i.payout > i.betAmount).map((i) => i.id));
    expect(annWins.length).toBeGreaterThan(0);
    expect(await history(cat.token, cat.id, "&kind=holdem_hand")).toEqual([]);
    // A player reads only their own history.
    expect((await t.request("GET", `/api/player/${ann.id}/history`, { token: bob.token })).status).toBe(403);

    // The verifier's record of each finished hand deals the same hand again from its revealed seed.
    for (const hand of hands) {
      const res = await t.request("GET", `/api/holdem-hands/${hand.id}`);
      expect(res.status).toBe(200);
      const file = holdemHandFile.parse(res.body);
      const dealt = dealHoldemHand(recordOfFile(file));
      expect(dealt.commitment.matches).toBe(true);
      expect(checkHoldemRecord(dealt, file.outcome!)).toEqual([]);
      const own = parts.filter((p) => p.hand_id === hand.id);
      for (const p of own) expect(dealt.result.won.find((w) => w.seat === p.seat)?.amount ?? 0).toBe(p.won);
    }
    expect((await t.request("GET", `/api/holdem-hands/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const bad = await t.request("GET", `/api/holdem-hands/not-a-hand`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/A hand id is a UUID/);

    // The instance's feed: a row per player and hand, with what the seat put in and won, and nothing else.
    await waitFor(() => holdemRows(catFeed).length === 6, 10_000);
    const rows = holdemRows(catFeed);
    expect(rows.map((r) => [r.id, r.stake, r.payout, r.nonce, r.serverSeedHash, r.multiplier])).toEqual(
      expect.arrayContaining(
        parts.map((p) => {
          const hand = hands.find((h) => h.id === p.hand_id)!;
          return [`holdem:${p.hand_id}:${p.seat}`, p.put_in, p.won, hand.hand_number, hand.server_seed_hash, null];
        }),
      ),
    );
    expect(rows.every((r) => r.game === HOLDEM_GAME)).toBe(true);
    // No card is ever in a row: its fields are the feed row's, none of them a list.
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(
        [
          "anonymous",
          "at",
          "avatarUrl",
          "big",
          "game",
          "id",
          "kind",
          "multiplier",
          "nonce",
          "payout",
          "serverSeedHash",
          "stake",
          "username",
        ].sort(),
      );
      expect(Object.values(row).some((v) => Array.isArray(v) || (v !== null && typeof v === "object"))).toBe(false);
    }
    // Another instance hears nothing of them.
    expect(holdemRows(otherFeed)).toEqual([]);
    // The hands count on no board of rounds: the player's totals are their rounds of games only.
    const summary = await t.request("GET", `/api/player/${ann.id}/summary`, { token: ann.token });
    expect(summary.body).toMatchObject({ rounds: 0, wagered: 0, net: 0 });
  });
});
