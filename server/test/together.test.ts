import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, type Room } from "@colyseus/sdk";
import { matchMaker } from "@colyseus/core";
import { replayRound, roundCustomId, roundOfCustomId, TOGETHER_ROOM } from "@casino/common";
import { faceOf } from "../src/core/players/face";
import { startTestApp, type TestApp } from "./harness";
import { ask, chooseSeed, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * Playing together: the instance's members (who sits at which table), the instance's feed of settled
 * rounds and the global big wins, through one together room per client, kept in Redis.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

async function signIn(id: string, name: string, instanceId?: string) {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:${name}`, ...(instanceId ? { instanceId } : {}) } });
  expect(res.status).toBe(200);
  return { discordId: id, token: res.body.session_token as string, player: res.body.player };
}

async function joinTogether(token: string, instanceId: string | null): Promise<{ room: Room; inbox: Inbox }> {
  const room = await t.sdk(token).joinOrCreate(TOGETHER_ROOM, { instanceId });
  return { room, inbox: new Inbox(room) };
}

/** The latest members list the room pushed, once it holds `n` members. */
const membersOf = async (inbox: Inbox, n: number, where: (m: any[]) => boolean = () => true) => {
  let latest: any[] = [];
  await waitFor(() => {
    const pushes = inbox.messages.filter((m) => m.type === "members");
    latest = pushes[pushes.length - 1]?.body.members ?? [];
    return latest.length === n && where(latest);
  }, 10_000);
  return latest;
};

const feedRows = (inbox: Inbox, which: "instance" | "global") =>
  inbox.messages.filter((m) => m.type === "feed").flatMap((m) => m.body[which]);

describe("the together room", () => {
  it("lists the instance's members with their table, feeds settled rounds to the instance and big wins to everyone", async () => {
    const alice = await signIn("8100001", "Alice", "inst-together-a");
    const bob = await signIn("8100002", "Bob", "inst-together-a");
    const carol = await signIn("8100003", "Carol", "inst-together-a");
    const dave = await signIn("8100004", "Dave", "inst-together-b");
    const guest = await t.guest();

    const a = await joinTogether(alice.token, "inst-together-a");
    const b = await joinTogether(bob.token, "inst-together-a");
    const c = await joinTogether(carol.token, "inst-together-a");
    const d = await joinTogether(dave.token, "inst-together-b");
    const g = await joinTogether(guest.token, null);
    // One room per instance.
    expect(a.room.roomId).toBe(b.room.roomId);
    expect(d.room.roomId).not.toBe(a.room.roomId);

    const aliceSees = await membersOf(a.inbox, 3);
    expect(aliceSees.map((m) => m.username).sort()).toEqual(["Alice", "Bob", "Carol"]);
    expect(aliceSees.find((m) => m.username === "Alice")).toMatchObject({ self: true, discordId: "8100001", game: null, hidden: false });
    // Each member's face is the player's (one rule, the boards' and tables' too), the same as their own record's.
    for (const m of [alice, bob, carol]) {
      expect(aliceSees.find((x) => x.discordId === m.discordId)?.face).toBe(faceOf(m.player.id));
      expect(m.player.face).toBe(faceOf(m.player.id));
    }
    expect((await membersOf(d.inbox, 1)).map((m) => m.username)).toEqual(["Dave"]);
    expect(g.inbox.messages.some((m) => m.type === "members")).toBe(false);

    // Alice sits at the limbo table: the others see it.
    a.room.send("at", { game: "limbo" });
    await membersOf(b.inbox, 3, (ms) => ms.find((m) => m.username === "Alice")?.game === "limbo");
    // A table that is not a game is refused, and changes nothing.
    a.room.send("at", { game: "pachinko" });
    expect((await a.inbox.wait((m) => m.type === "error")).body.message).toMatch(/game/);

    // Alice sits at seat 3 of the instance's blackjack table: the others see the seat, then her watching it.
    a.room.send("at", { game: "blackjack", sharedTable: { seat: 3 } });
    await membersOf(b.inbox, 3, (ms) => ms.find((m) => m.username === "Alice")?.sharedTable?.seat === 3);
    a.room.send("at", { game: "blackjack", sharedTable: { seat: null } });
    await membersOf(b.inbox, 3, (ms) => {
      const alice = ms.find((m) => m.username === "Alice");
      return alice?.game === "blackjack" && alice.sharedTable !== null && alice.sharedTable.seat === null;
    });
    // A seat that does not exist, or a shared table at another game, is refused and changes nothing.
    const errors = () => a.inbox.messages.filter((m) => m.type === "error").length;
    a.room.send("at", { game: "blackjack", sharedTable: { seat: 8 } });
    await waitFor(() => errors() === 2, 5_000);
    a.room.send("at", { game: "dice", sharedTable: { seat: 1 } });
    await waitFor(() => errors() === 3, 5_000);
    expect(a.inbox.messages.filter((m) => m.type === "error").map((m) => m.body.message)).toEqual([
      expect.stringMatching(/game/),
      expect.stringMatching(/seat/),
      expect.stringMatching(/shared table/),
    ]);
    a.room.send("at", { game: "limbo" });
    await membersOf(b.inbox, 3, (ms) => {
      const alice = ms.find((m) => m.username === "Alice");
      return alice?.game === "limbo" && alice.sharedTable === null;
    });

    // Alice sits at seat 8 of the instance's Hold'em table (no game of the catalogue), then watches it.
    a.room.send("at", { game: null, holdemTable: { seat: 8 } });
    const seated = await membersOf(b.inbox, 3, (ms) => ms.find((m) => m.username === "Alice")?.holdemTable?.seat === 8);
    expect(seated.find((m) => m.username === "Alice")).toMatchObject({ game: null, sharedTable: null, holdemTable: { seat: 8 } });
    a.room.send("at", { game: null, holdemTable: { seat: null } });
    await membersOf(b.inbox, 3, (ms) => {
      const alice = ms.find((m) => m.username === "Alice");
      return alice?.holdemTable !== null && alice?.holdemTable !== undefined && alice.holdemTable.seat === null;
    });
    // A seat the table does not have, or the Hold'em table told with a game, is refused and changes nothing.
    a.room.send("at", { game: null, holdemTable: { seat: 9 } });
    await waitFor(() => errors() === 4, 5_000);
    a.room.send("at", { game: "poker", holdemTable: { seat: 1 } });
    await waitFor(() => errors() === 5, 5_000);
    expect(
      a.inbox.messages
        .filter((m) => m.type === "error")
        .map((m) => m.body.message)
        .slice(3),
    ).toEqual([expect.stringMatching(/seat/), expect.stringMatching(/Hold'em table is not a game's table/)]);
    expect((await membersOf(b.inbox, 3)).find((m) => m.username === "Alice")?.holdemTable).toEqual({ seat: null });
    a.room.send("at", { game: "limbo" });
    await membersOf(b.inbox, 3, (ms) => {
      const alice = ms.find((m) => m.username === "Alice");
      return alice?.game === "limbo" && alice.holdemTable === null;
    });

    // Alice wins big at limbo (target 20 at 100 coins: 2,000 back).
    const input = await chooseSeed(
      t,
      alice.player.id,
      "together-big",
      (i) => replayRound(i, { game: "limbo", amount: 100, params: { target: 20 }, actions: [] }).totalPayout > 0,
    );
    const casino = await joinCasino(t, alice.token);
    const answer = await ask(casino.room, casino.inbox, "bet", { game: "limbo", amount: 100, params: { target: 20 } });
    expect(answer.body.payout).toBe(2000);
    const rowId = `${answer.body.fairness.serverSeedHash}:${input.nonce}`;

    for (const viewer of [a, b, c]) await waitFor(() => feedRows(viewer.inbox, "instance").some((r) => r.id === rowId), 10_000);
    const row = feedRows(b.inbox, "instance").find((r) => r.id === rowId);
    expect(row).toEqual({
      id: rowId,
      kind: "round",
      username: "Alice",
      avatarUrl: "https://cdn.discordapp.com/avatars/8100001/abc123.png",
      anonymous: false,
      game: "limbo",
      stake: 100,
      payout: 2000,
      multiplier: 20,
      big: true,
      at: expect.any(String),
      serverSeedHash: answer.body.fairness.serverSeedHash,
      nonce: 0,
    });
    // A big win reaches everyone, guests and other instances included; the instance row only Alice's instance.
    for (const viewer of [a, d, g]) await waitFor(() => feedRows(viewer.inbox, "global").some((r) => r.id === rowId), 10_000);
    expect(feedRows(d.inbox, "instance")).toEqual([]);
    expect(feedRows(g.inbox, "instance")).toEqual([]);
    // The strip's best win of the day.
    await membersOf(c.inbox, 3, (ms) => ms.find((m) => m.username === "Alice")?.bestWinToday === 1900);
    // A win below the day's best changes nothing the strip shows: no members push for it. The next push
    // Carol gets is the next change (Bob sits down at dice).
    const stripPushes = () => c.inbox.messages.filter((m) => m.type === "members").length;
    const pushesBefore = stripPushes();
    let smallWin: string | null = null;
    for (let i = 0; i < 20 && !smallWin; i++) {
      const small = await ask(casino.room, casino.inbox, "bet", { game: "dice", amount: 100, params: { target: 90, direction: "under" } });
      if (small.body.payout > 100) smallWin = `${small.body.fairness.serverSeedHash}:${small.body.fairness.nonce}`;
    }
    expect(smallWin).not.toBeNull();
    await waitFor(() => feedRows(c.inbox, "instance").some((r) => r.id === smallWin), 10_000);
    b.room.send("at", { game: "dice" });
    await membersOf(c.inbox, 3, (ms) => ms.find((m) => m.username === "Bob")?.game === "dice");
    expect(stripPushes()).toBe(pushesBefore + 1);

    // The round's verifier view opens once the seed is revealed, and not before.
    const verifyPath = `/api/rounds/${answer.body.fairness.serverSeedHash}/0/verify`;
    expect((await t.request("GET", verifyPath, { token: bob.token })).body).toEqual({ revealed: false });
    expect((await ask(casino.room, casino.inbox, "seed:rotate", {})).type).toBe("result");
    const revealed = await t.request("GET", verifyPath, { token: guest.token });
    expect(revealed.body).toMatchObject({
      revealed: true,
      game: "limbo",
      serverSeed: input.serverSeed,
      clientSeed: input.clientSeed,
      nonce: 0,
      amount: 100,
    });
    expect((await t.request("GET", verifyPath)).status).toBe(401);
    expect((await t.request("GET", `/api/rounds/${"0".repeat(64)}/0/verify`, { token: bob.token })).status).toBe(404);
    expect((await t.request("GET", `/api/rounds/xyz/0/verify`, { token: bob.token })).status).toBe(400);
    // A share link names the same round.
    expect(roundOfCustomId(roundCustomId(answer.body.fairness.serverSeedHash, 7))).toEqual({
      serverSeedHash: answer.body.fairness.serverSeedHash,
      nonce: 7,
    });
    expect(roundCustomId(answer.body.fairness.serverSeedHash, 7).length).toBeLessThanOrEqual(64);

    // Carol goes anonymous: hidden to the others, herself to herself.
    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token: carol.token, body: { playerId: carol.player.id, enabled: true } }))
        .status,
    ).toBe(200);
    // Carol sits at the blackjack table; the strip is recomputed on the next change (Bob sits down).
    c.room.send("at", { game: "blackjack", sharedTable: { seat: 2 } });
    b.room.send("at", { game: "dice" });
    const hidden = await membersOf(a.inbox, 3, (ms) => ms.some((m) => m.hidden));
    expect(hidden.find((m) => m.hidden)).toEqual({
      discordId: "8100003",
      username: "Anonymous",
      avatarUrl: null,
      face: null,
      game: null,
      bestWinToday: 0,
      hidden: true,
      self: false,
      watching: null,
      sharedTable: null,
      holdemTable: null,
    });
    await membersOf(c.inbox, 3, (ms) => ms.some((m) => m.self && m.username === "Carol" && !m.hidden && m.sharedTable?.seat === 2));

    // Bob leaves: gone from the others' lists.
    await b.room.leave(true);
    await membersOf(a.inbox, 2);
    for (const r of [a, c, d, g]) await r.room.leave(true);
    await casino.room.leave(true);
  });

  it("keeps a player whose phone dropped the socket without a close: still listed, and back in the same seat", async () => {
    const fay = await signIn("8100006", "Fay", "inst-together-drop");
    const gus = await signIn("8100007", "Gus", "inst-together-drop");
    const f = await joinTogether(fay.token, "inst-together-drop");
    const g = await joinTogether(gus.token, "inst-together-drop");
    g.room.send("at", { game: "dice" });
    await membersOf(f.inbox, 2, (ms) => ms.find((m) => m.username === "Gus")?.game === "dice");

    // The network drops Gus's socket: no close frame. The server holds his seat (a leave with a grace period).
    g.room.reconnection.enabled = false;
    const left = new Promise<void>((resolve) => g.room.onLeave.once(() => resolve()));
    (g.room.connection as unknown as { transport: { ws: { terminate(): void } } }).transport.ws.terminate();
    await left;
    const serverRoom = matchMaker.getLocalRoomById(f.room.roomId) as unknown as { _reconnections: Record<string, unknown> };
    await waitFor(() => Object.keys(serverRoom._reconnections).length === 1, 10_000);

    // Nothing was lost meanwhile: Gus is still a member at his table, for Redis and for Fay.
    const listed = await t.app.services.together.members("inst-together-drop", fay.player.id);
    expect(listed.map((m) => [m.username, m.game]).sort()).toEqual([
      ["Fay", null],
      ["Gus", "dice"],
    ]);
    const lastPush = f.inbox.messages.filter((m) => m.type === "members").at(-1)!;
    expect(lastPush.body.members).toHaveLength(2);

    // He comes back within the grace period: the same session, still listed, and the feed reaches him.
    const back = await new Client(t.wsUrl).reconnect(g.room.reconnectionToken);
    const backInbox = new Inbox(back);
    expect(back.sessionId).toBe(g.room.sessionId);
    expect((await t.app.services.together.members("inst-together-drop", gus.player.id)).map((m) => m.username).sort()).toEqual([
      "Fay",
      "Gus",
    ]);
    const casino = await joinCasino(t, fay.token);
    const bet = await ask(casino.room, casino.inbox, "bet", { game: "dice", amount: 10, params: { target: 50, direction: "under" } });
    expect(bet.type).toBe("result");
    await waitFor(() => feedRows(backInbox, "instance").some((r: any) => r.username === "Fay"), 10_000);
    for (const r of [f.room, back, casino.room]) await r.leave(true);
  });

  it("twelve instances' rooms in one process hear a big win through one subscription to the global channel", async () => {
    const presence = t.app.services.presence;
    const subscribe = presence.subscribe.bind(presence);
    const globalSubscriptions: string[] = [];
    presence.subscribe = ((topic: string, callback: (...args: any[]) => void) => {
      if (topic === "together:feed:global") globalSubscriptions.push(topic);
      return subscribe(topic, callback);
    }) as typeof presence.subscribe;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const players = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(`8110${100 + i}`, `Many ${i}`, `inst-many-${i}`)));
      const viewers = [];
      for (const [i, p] of players.entries()) viewers.push(await joinTogether(p.token, `inst-many-${i}`));
      // The first of them wins big at limbo (target 20 at 100 coins: 2,000 back).
      const winner = players[0]!;
      const input = await chooseSeed(
        t,
        winner.player.id,
        "together-many",
        (i) => replayRound(i, { game: "limbo", amount: 100, params: { target: 20 }, actions: [] }).totalPayout > 0,
      );
      const casino = await joinCasino(t, winner.token);
      const answer = await ask(casino.room, casino.inbox, "bet", { game: "limbo", amount: 100, params: { target: 20 } });
      const rowId = `${answer.body.fairness.serverSeedHash}:${input.nonce}`;
      for (const viewer of viewers) await waitFor(() => feedRows(viewer.inbox, "global").some((r) => r.id === rowId), 10_000);
      // the rooms of the earlier tests may have made the process's one subscription already
      expect(globalSubscriptions.length).toBeLessThanOrEqual(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes("MaxListeners"))).toEqual([]);
      await casino.room.leave();
      for (const viewer of viewers) await viewer.room.leave();
    } finally {
      presence.subscribe = subscribe;
      process.off("warning", onWarning);
    }
  });

  it("refuses an instance the player has not joined, a guest's instance and malformed options", async () => {
    const erin = await signIn("8100005", "Erin", "inst-together-c");
    const guest = await t.guest();
    await expect(joinTogether(erin.token, "inst-together-a")).rejects.toThrow(/You have not joined that activity instance/);
    await expect(joinTogether(guest.token, "inst-together-c")).rejects.toThrow(/Guests have no activity instance/);
    await expect(t.sdk(erin.token).joinOrCreate(TOGETHER_ROOM, { instanceId: "bad id!" })).rejects.toThrow(/instanceId/);
    await expect(t.sdk(erin.token).joinOrCreate(TOGETHER_ROOM, {})).rejects.toThrow();
  });
});
