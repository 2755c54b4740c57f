import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import { TOGETHER_ROOM } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { ask, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * Watching a table: a member of an activity instance follows another member's round step by step, with
 * exactly what that player's own screen gets; the watched player's strip says who watches; nobody
 * outside the instance can watch.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

async function signIn(id: string, name: string, instanceId: string) {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:${name}`, instanceId } });
  expect(res.status).toBe(200);
  return { discordId: id, token: res.body.session_token as string, player: res.body.player };
}

async function joinTogether(token: string, instanceId: string | null): Promise<{ room: Room; inbox: Inbox }> {
  const room = await t.sdk(token).joinOrCreate(TOGETHER_ROOM, { instanceId });
  return { room, inbox: new Inbox(room) };
}

const latestMembers = (inbox: Inbox): any[] => {
  const pushes = inbox.messages.filter((m) => m.type === "members");
  return pushes[pushes.length - 1]?.body.members ?? [];
};
const tables = (inbox: Inbox) => inbox.messages.filter((m) => m.type === "table").map((m) => m.body);
const errorsAfter = (inbox: Inbox, from: number) => inbox.messages.slice(from).filter((m) => m.type === "error");

describe("watching a table", () => {
  it("streams the watched player's round as their screen has it, shows the watcher, and refuses everyone else", async () => {
    const alice = await signIn("8200001", "Alice", "inst-watch-a");
    const bob = await signIn("8200002", "Bob", "inst-watch-a");
    const carol = await signIn("8200003", "Carol", "inst-watch-a");
    const dave = await signIn("8200004", "Dave", "inst-watch-b");
    const guest = await t.guest();
    const a = await joinTogether(alice.token, "inst-watch-a");
    const b = await joinTogether(bob.token, "inst-watch-a");
    const c = await joinTogether(carol.token, "inst-watch-a");
    const d = await joinTogether(dave.token, "inst-watch-b");
    const g = await joinTogether(guest.token, null);
    await waitFor(() => latestMembers(b.inbox).length === 3, 10_000);

    // Alice opens a mines round before anyone watches.
    const casino = await joinCasino(t, alice.token);
    a.room.send("at", { game: "mines" });
    const opened = await ask(casino.room, casino.inbox, "bet", { game: "mines", amount: 100, params: { mines: 3 } });
    expect(opened.body.done).toBe(false);

    // Bob watches her: first the open round as it stands, without the mines.
    b.room.send("watch", { discordId: alice.discordId });
    const first = await b.inbox.wait((m) => m.type === "table");
    expect(first.body).toEqual({
      discordId: alice.discordId,
      round: { game: "mines", totalStake: 100, totalPayout: 0, multiplier: null, done: false, result: null, view: opened.body.view },
    });
    expect(first.body.round.view).not.toHaveProperty("mines");
    // Alice's strip says Bob watches her; Carol's says it too.
    await waitFor(() => latestMembers(a.inbox).find((m) => m.username === "Bob")?.watching === alice.discordId, 10_000);
    await waitFor(() => latestMembers(c.inbox).find((m) => m.username === "Bob")?.watching === alice.discordId, 10_000);
    expect(latestMembers(a.inbox).find((m) => m.username === "Alice")?.watching).toBeNull();

    // A gem (read from the test's own database, so the round goes on every time), then the cash-out.
    const [stored] = await t.app.services.db.run((em) => em.query(`SELECT state FROM open_rounds WHERE player_id = $1`, [alice.player.id]));
    const gem = [...Array(25).keys()].find((tile) => !stored.state.mines.includes(tile))!;
    const reveal = await ask(casino.room, casino.inbox, "act", { action: { type: "reveal", tile: gem } });
    expect(reveal.body.done).toBe(false);
    const afterReveal = await b.inbox.wait((m) => m.type === "table" && m.body.round?.view?.revealed?.length === 1);
    expect(afterReveal.body.round).toEqual({
      game: "mines",
      totalStake: 100,
      totalPayout: 0,
      multiplier: null,
      done: false,
      result: null,
      view: reveal.body.view,
    });
    expect(afterReveal.body.round.view).not.toHaveProperty("mines");
    const cash = await ask(casino.room, casino.inbox, "act", { action: { type: "cashout" } });
    const last = await b.inbox.wait((m) => m.type === "table" && m.body.round?.done === true);
    // The last step shows the mines, as it does on Alice's screen.
    expect(last.body.round).toEqual({
      game: "mines",
      totalStake: 100,
      totalPayout: cash.body.totalPayout,
      // the multiplier the cash-out was at, as Alice's own view states it (never paid ÷ stake)
      multiplier: cash.body.view.multiplier,
      done: true,
      result: cash.body.result,
      view: cash.body.view,
    });
    expect(last.body.round.view.mines).toEqual(stored.state.mines);
    expect(last.body.round.multiplier).toBeGreaterThan(1);

    // Nothing of the seeds, the round id or the balance ever reached the watcher.
    const sent = JSON.stringify(tables(b.inbox));
    const seeds = await t.app.services.db.run((em) =>
      em.query(`SELECT server_seed FROM fairness_seeds WHERE player_id = $1`, [alice.player.id]),
    );
    for (const s of seeds) expect(sent).not.toContain(s.server_seed);
    expect(sent).not.toContain(opened.body.roundId);
    expect(sent).not.toContain(opened.body.fairness.serverSeedHash);
    expect(sent).not.toMatch(/balance/);
    // Nobody else watches Alice: the others got no table push.
    for (const r of [a, c, d, g]) expect(tables(r.inbox)).toEqual([]);

    // Refusals: a player of another instance, a guest, oneself, an unknown id, a malformed message.
    let from = d.inbox.messages.length;
    d.room.send("watch", { discordId: alice.discordId });
    await waitFor(() => errorsAfter(d.inbox, from).length === 1, 10_000);
    expect(errorsAfter(d.inbox, from)[0]!.body).toEqual({ code: "not_watchable", message: "That player is not in this activity" });
    from = g.inbox.messages.length;
    g.room.send("watch", { discordId: alice.discordId });
    await waitFor(() => errorsAfter(g.inbox, from).length === 1, 10_000);
    expect(errorsAfter(g.inbox, from)[0]!.body.code).toBe("not_watchable");
    from = a.inbox.messages.length;
    a.room.send("watch", { discordId: alice.discordId });
    await waitFor(() => errorsAfter(a.inbox, from).length === 1, 10_000);
    expect(errorsAfter(a.inbox, from)[0]!.body.message).toBe("That is your own table");
    from = c.inbox.messages.length;
    c.room.send("watch", { discordId: "999999" });
    c.room.send("watch", { discordId: "not a snowflake" });
    await waitFor(() => errorsAfter(c.inbox, from).length === 2, 10_000);
    expect(
      errorsAfter(c.inbox, from)
        .map((m) => m.body.code)
        .sort(),
    ).toEqual(["invalid_message", "not_watchable"]);
    // Dave plays in his instance: Bob, watching Alice, hears nothing of it.
    const daveCasino = await joinCasino(t, dave.token);
    const before = tables(b.inbox).length;
    await ask(daveCasino.room, daveCasino.inbox, "bet", { game: "dice", amount: 10, params: { target: 49.5, direction: "over" } });
    // Alice's next round does reach Bob, after Dave's.
    await ask(casino.room, casino.inbox, "bet", { game: "dice", amount: 10, params: { target: 49.5, direction: "over" } });
    await waitFor(() => tables(b.inbox).length > before, 10_000);
    expect(
      tables(b.inbox)
        .slice(before)
        .map((p) => p.round.game),
    ).toEqual(["dice"]);
    expect(tables(b.inbox).slice(before)[0].discordId).toBe(alice.discordId);

    // Bob stops watching, then watches again.
    b.room.send("watch", { discordId: null });
    await waitFor(() => latestMembers(a.inbox).find((m) => m.username === "Bob")?.watching === null, 10_000);
    const pushes = tables(b.inbox).length;
    b.room.send("watch", { discordId: alice.discordId });
    await waitFor(() => tables(b.inbox).length === pushes + 1, 10_000);
    expect(tables(b.inbox)[pushes]).toEqual({ discordId: alice.discordId, round: null });
    await waitFor(() => latestMembers(a.inbox).find((m) => m.username === "Bob")?.watching === alice.discordId, 10_000);

    // Alice goes anonymous: she can no longer be watched, and Bob is not shown watching her.
    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token: alice.token, body: { playerId: alice.player.id, enabled: true } }))
        .status,
    ).toBe(200);
    from = c.inbox.messages.length;
    c.room.send("watch", { discordId: alice.discordId });
    await waitFor(() => errorsAfter(c.inbox, from).length === 1, 10_000);
    expect(errorsAfter(c.inbox, from)[0]!.body.message).toBe("That player plays anonymously");
    c.room.send("at", { game: "dice" }); // a change, so the lists are pushed again
    await waitFor(() => latestMembers(c.inbox).find((m) => m.username === "Bob")?.watching === null, 10_000);
    // Her steps are no longer published at all (Carol's, as a control, are).
    const presence = t.app.services.presence;
    const published: string[] = [];
    const publish = presence.publish.bind(presence);
    presence.publish = ((channel: string, data: any) => {
      if (channel.startsWith("together:table:")) published.push(channel);
      return publish(channel, data);
    }) as typeof presence.publish;
    const step = { game: "dice", totalStake: 10, totalPayout: 0, done: true, result: "lose" as const, view: {}, params: {} };
    try {
      await (t.app.services.together as any).publishStep(alice.player.id, step);
      await (t.app.services.together as any).publishStep(carol.player.id, step);
    } finally {
      presence.publish = publish;
    }
    expect(published).toEqual(["together:table:inst-watch-a"]);

    for (const r of [a, b, c, d, g]) await r.room.leave(true);
    await casino.room.leave(true);
    await daveCasino.room.leave(true);
  });
});
