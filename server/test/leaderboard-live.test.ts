import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  LEADERBOARD_ROOM,
  applyLeaderboardDelta,
  leaderboardDeltaMessage,
  leaderboardSnapshotMessage,
  type BoardEntry,
} from "@casino/common";
import { Coalescer, type Clock } from "../src/leaderboard/coalescer";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask, joinCasino } from "./room-helpers";
import { discordPlayer, setBalance } from "./leaderboard-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const lb = () => t.app.services.leaderboards;

/** Joins a board's room and keeps the page it shows, applying every delta as a client would. */
async function watch(token: string, options: Record<string, unknown>) {
  const room = await t.sdk(token).joinOrCreate(LEADERBOARD_ROOM, options);
  const inbox = new Inbox(room);
  const view = {
    rows: [] as BoardEntry[],
    total: 0,
    me: { rank: null as number | null, value: null as number | null },
    seq: 0,
    page: 1,
    limit: 25,
  };
  room.onMessage("*", (type, m) => {
    if (type === "snapshot") {
      const s = leaderboardSnapshotMessage.parse(m);
      Object.assign(view, { rows: s.entries, total: s.total, me: s.me, seq: s.seq, page: s.page, limit: s.limit });
    } else if (type === "delta") {
      const d = leaderboardDeltaMessage.parse(m);
      expect(d.seq).toBe(view.seq + 1);
      Object.assign(view, { rows: applyLeaderboardDelta(view.rows, d, view.limit), total: d.total, me: d.me, seq: d.seq });
    }
  });
  await inbox.wait((m) => m.type === "snapshot");
  return { room, inbox, view };
}

describe("live leaderboard deltas", () => {
  it("a viewer hears, within a second, a bet that changes the visible page, and its page then equals the REST page", async () => {
    const viewer = await discordPlayer(t, "Watcher");
    const bettor = await discordPlayer(t, "Mover");
    await lb().catchUp();
    const { room, inbox, view } = await watch(viewer.token, { board: "balance", scope: "global", window: "all", page: 1, limit: 50 });
    const rest = await t.request("GET", "/api/leaderboard?page=1&limit=50", { token: viewer.token });
    expect(view.rows).toEqual(rest.body.entries);
    expect(view.me.rank).toBe((await t.request("GET", `/api/player/${viewer.player.id}/rank`, { token: viewer.token })).body.rank);

    const casino = await joinCasino(t, bettor.token);
    const answer = await ask(casino.room, casino.inbox, "bet", { game: "dice", amount: 100, params: { target: 49.5, direction: "under" } });
    expect(answer.type).toBe("result");
    const delta = await inbox.wait(
      (m) => m.type === "delta" && m.body.changed.some((e: any) => e.playerId === bettor.player.id && e.balance === answer.body.balance),
      1_000,
    );
    expect(delta.body.total).toBe(rest.body.total);
    await inbox.wait(() => view.rows.some((e) => e.playerId === bettor.player.id && (e as any).balance === answer.body.balance), 1_000);
    expect(view.rows).toEqual((await t.request("GET", "/api/leaderboard?page=1&limit=50", { token: viewer.token })).body.entries);
    await casino.room.leave();
    await room.leave();
  });

  it("tells a viewer its own new position when someone passes it, and serves another page on request", async () => {
    const viewer = await discordPlayer(t, "Passed");
    const racer = await discordPlayer(t, "Racer");
    await setBalance(t, viewer.player.id, 40_000_000);
    await setBalance(t, racer.player.id, 1);
    await lb().catchUp();
    const { room, inbox, view } = await watch(viewer.token, { board: "balance", page: 1, limit: 1 });
    const rankBefore = view.me.rank!;
    expect(view.me.value).toBe(40_000_000);

    await setBalance(t, racer.player.id, 40_000_001);
    await lb().catchUp();
    await inbox.wait((m) => m.type === "delta" && m.body.me.rank === rankBefore + 1, 1_000);
    expect(view.rows.length).toBe(1);

    room.send("view", { page: rankBefore + 1, limit: 1 });
    await inbox.wait((m) => m.type === "snapshot" && m.body.page === rankBefore + 1);
    expect(view.rows).toEqual([expect.objectContaining({ rank: rankBefore + 1, playerId: viewer.player.id, balance: 40_000_000 })]);

    room.send("view", { page: 0 });
    const error = await inbox.wait((m) => m.type === "error");
    expect(error.body).toEqual({ code: "invalid_message", message: "page: page must be at least 1" });
    room.send("view", { page: 1, limit: 1 }); // still connected: the next view is served
    await inbox.wait((m) => m.type === "snapshot" && m.body.page === 1 && m.body.seq > 2);
    await room.leave();
  });

  it("masks an anonymous player in others' views but not in their own, with no real id in the rows", async () => {
    const shy = await discordPlayer(t, "ShyLive");
    const shier = await discordPlayer(t, "ShierLive");
    const other = await discordPlayer(t, "OtherLive");
    await setBalance(t, shy.player.id, 95_000_000);
    await setBalance(t, shier.player.id, 95_000_001);
    for (const p of [shy, shier])
      await t.request("PATCH", "/api/player/anonymous", { token: p.token, body: { playerId: p.player.id, enabled: true } });
    await lb().catchUp();
    const mine = await watch(shy.token, { board: "balance", limit: 5 });
    const theirs = await watch(other.token, { board: "balance", limit: 5 });
    expect(mine.view.rows.find((e) => e.playerId === shy.player.id)).toMatchObject({ username: "ShyLive", discordId: shy.discordId });
    expect(JSON.stringify(mine.view.rows)).not.toContain(shier.player.id);
    const text = JSON.stringify(theirs.view.rows);
    for (const p of [shy, shier]) {
      expect(text).not.toContain(p.player.id);
      expect(text).not.toContain(p.discordId);
    }
    const masked = theirs.view.rows.find((e) => (e as any).balance === 95_000_000)!;
    expect(masked).toMatchObject({ username: "Anonymous", avatarUrl: null, playerId: expect.stringMatching(/^anon-[A-Za-z0-9_-]{22}$/) });
    expect("discordId" in masked).toBe(false);
    const maskedToo = theirs.view.rows.find((e) => (e as any).balance === 95_000_001)!;
    expect(maskedToo).toMatchObject({ username: "Anonymous", playerId: expect.stringMatching(/^anon-/) });
    expect(maskedToo.playerId).not.toBe(masked.playerId);
    // The room's rows are the REST page's, stand-ins included.
    expect(theirs.view.rows).toEqual((await t.request("GET", "/api/leaderboard?limit=5", { token: other.token })).body.entries);
    await mine.room.leave();
    await theirs.room.leave();
    for (const p of [shy, shier])
      await t.request("PATCH", "/api/player/anonymous", { token: p.token, body: { playerId: p.player.id, enabled: false } });
  });

  it("sends viewers the new row when a player on their page turns anonymous, though no coins moved", async () => {
    const turning = await discordPlayer(t, "TurningLive");
    const viewer = await discordPlayer(t, "ViewerLive");
    await setBalance(t, turning.player.id, 96_000_000);
    await lb().catchUp();
    const { room, inbox, view } = await watch(viewer.token, { board: "balance", limit: 5 });
    expect(view.rows.find((e) => e.playerId === turning.player.id)).toMatchObject({ username: "TurningLive" });

    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token: turning.token, body: { playerId: turning.player.id, enabled: true } }))
        .status,
    ).toBe(200);
    await inbox.wait(
      (m) => m.type === "delta" && m.body.changed.some((e: any) => e.balance === 96_000_000 && e.username === "Anonymous"),
      1_000,
    );
    expect(view.rows.find((e) => (e as any).balance === 96_000_000)).toMatchObject({
      username: "Anonymous",
      avatarUrl: null,
      playerId: expect.stringMatching(/^anon-/),
    });
    expect(JSON.stringify(view.rows)).not.toContain("TurningLive");
    expect(JSON.stringify(view.rows)).not.toContain(turning.player.id);
    await room.leave();
  });

  it("refuses a scope the player does not belong to, and bad options", async () => {
    const guest = await t.guest();
    await expect(t.sdk(guest.token).joinOrCreate(LEADERBOARD_ROOM, { scope: "guild", guildId: "123" })).rejects.toThrow(
      /Guests only see the global leaderboard/,
    );
    const player = await discordPlayer(t, "NoGuild", { guilds: ["111"] });
    await expect(t.sdk(player.token).joinOrCreate(LEADERBOARD_ROOM, { scope: "guild", guildId: "222" })).rejects.toThrow(
      /not a member of that guild/,
    );
    await expect(t.sdk(player.token).joinOrCreate(LEADERBOARD_ROOM, { board: "kills", window: "day" })).rejects.toThrow(
      /only the balance board/,
    );
    await expect(t.sdk("not-a-token").joinOrCreate(LEADERBOARD_ROOM, {})).rejects.toThrow();
    const ok = await watch(player.token, { scope: "guild", guildId: "111" });
    expect(ok.view.rows.map((e) => e.playerId)).toEqual([player.player.id]);
    await ok.room.leave();
  });
});

describe("coalescing", () => {
  /** A clock the test moves by hand. */
  function manualClock() {
    let now = 0;
    const timers: { at: number; fn: () => void }[] = [];
    const clock: Clock = {
      now: () => now,
      setTimeout: (fn, ms) => {
        const timer = { at: now + ms, fn };
        timers.push(timer);
        return timer;
      },
      clearTimeout: (handle) => void timers.splice(timers.indexOf(handle as (typeof timers)[number]), 1),
    };
    const advance = async (ms: number) => {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.fn();
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = end;
    };
    return { clock, advance };
  }

  it("runs at most 4 updates a second however many changes arrive, and never drops the last change", async () => {
    const { clock, advance } = manualClock();
    const runs: number[] = [];
    const coalescer = new Coalescer(async () => void runs.push(clock.now()), 250, { error: () => undefined }, clock);
    for (let ms = 0; ms < 1000; ms += 10) {
      coalescer.trigger();
      await advance(10);
    }
    await advance(1000);
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(250);
    for (let i = 0; i + 4 < runs.length; i++) expect(runs[i + 4]! - runs[i]!).toBeGreaterThanOrEqual(1000);
    expect(runs[runs.length - 1]).toBeGreaterThanOrEqual(990); // the change at 990 ms still got a run
    expect(runs).toEqual([0, 250, 500, 750, 1000]);
  });
});
