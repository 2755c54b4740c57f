import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino, waitFor } from "./room-helpers";
import { DailySpinReminders } from "../src/casino/reminders";
import type { PlayerEvent } from "../src/core/events/player-events";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("idle connections", () => {
  it("keep no timer per room, and still see every change of their state", async () => {
    const guests = await Promise.all(Array.from({ length: 12 }, () => t.guest()));
    const before = timers();
    const joined = [];
    for (const g of guests) joined.push(await joinCasino(t, g.token));
    // Twelve idle rooms: a patch interval (or a clock tick) per room would add at least twelve timers.
    expect(timers() - before).toBeLessThan(guests.length);

    const { room, inbox } = joined[0];
    const result = await ask(room, inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    expect(result.type).toBe("result");
    await waitFor(() => (room.state as any).nonce === 1 && (room.state as any).balance === result.body.balance);
    for (const j of joined) await j.room.leave();
  });
});

describe("the shared reminder sweep", () => {
  it("announces a ready wheel once to connected players, and nothing to players who left", async () => {
    const reminders = new DailySpinReminders(t.app.services.db, t.app.services.events, 3_600_000);
    const [a, b] = await Promise.all([t.guest(), t.guest()]);
    const heard: Record<string, PlayerEvent[]> = { [a.player.id]: [], [b.player.id]: [] };
    const stop = [a, b].map((g) => t.app.services.events.subscribe(g.player.id, (e) => heard[g.player.id].push(e)));
    await reminders.join(a.player.id);
    await reminders.join(b.player.id);
    expect(reminders.size).toBe(2);
    // Reminders are off by default: nothing yet.
    await reminders.sweep();
    for (const g of [a, b]) {
      const res = await t.request("PATCH", "/api/player/reminder", { token: g.token, body: { playerId: g.player.id, enabled: true } });
      expect(res.status).toBe(200);
    }
    reminders.leave(b.player.id);
    await reminders.sweep();
    await reminders.sweep();
    await waitFor(() => heard[a.player.id].length > 0);
    const notices = (id: string) => heard[id].filter((e) => e.type === "notice" && e.title === "Daily Spin Ready!");
    expect(notices(a.player.id)).toHaveLength(1);
    expect(notices(b.player.id)).toHaveLength(0);
    reminders.leave(a.player.id);
    expect(reminders.size).toBe(0);
    stop.forEach((s) => s());
  });

  it("checks players joining together with one claim each, never twice", async () => {
    const reminders = new DailySpinReminders(t.app.services.db, t.app.services.events, 3_600_000);
    const guests = await Promise.all(Array.from({ length: 5 }, () => t.guest()));
    for (const g of guests) {
      const res = await t.request("PATCH", "/api/player/reminder", { token: g.token, body: { playerId: g.player.id, enabled: true } });
      expect(res.status).toBe(200);
    }
    const heard = new Map<string, number>();
    const stop = guests.map((g) =>
      t.app.services.events.subscribe(g.player.id, (e) => {
        if (e.type === "notice") heard.set(g.player.id, (heard.get(g.player.id) ?? 0) + 1);
      }),
    );
    // Two connections of the first player and one of each other, all at once.
    await Promise.all([...guests, guests[0]].map((g) => reminders.join(g.player.id)));
    await reminders.sweep();
    await waitFor(() => heard.size === guests.length);
    expect([...heard.values()]).toEqual(guests.map(() => 1));
    for (const g of [...guests, guests[0]]) reminders.leave(g.player.id);
    expect(reminders.size).toBe(0);
    stop.forEach((s) => s());
  });
});
