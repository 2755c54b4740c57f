import { describe, expect, it } from "vitest";
import { Announcements, type Announcement } from "../../src/core/ledger/engine/index";
import { balanceToPlayer } from "../../src/announced";
import type { PlayerEvent } from "../../src/core/events/player-events";

const balance = (playerId: string, from: string | null = null): Announcement => ({
  type: "balance",
  playerId,
  balance: 1500,
  delta: 500,
  reason: "admin_adjustment",
  from,
});

describe("the announcement bus", () => {
  it("tells every subscriber of every announcement in order, whichever of them throws or rejects", async () => {
    const errors: string[] = [];
    const bus = new Announcements({ error: (key: string) => void errors.push(key) });
    const heard: string[] = [];
    bus.subscribe(() => {
      throw new Error("a broken subscriber");
    });
    bus.subscribe((a) => void heard.push(`first:${a.playerId}`));
    bus.subscribe(async () => Promise.reject(new Error("a failed send")));
    bus.subscribe((a) => void heard.push(`second:${a.playerId}`));
    bus.deliver([balance("a"), balance("b")]);
    expect(heard).toEqual(["first:a", "second:a", "first:b", "second:b"]);
    await bus.idle();
    expect(errors).toEqual(["announcements", "announcements", "announcements", "announcements"]);
  });

  it("waits in idle() for what its subscribers started, and stops telling one that unsubscribed", async () => {
    const bus = new Announcements({ error: () => undefined });
    const sent: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stop = bus.subscribe(async (a) => {
      await gate;
      sent.push(a.playerId);
    });
    bus.deliver([balance("a")]);
    let idle = false;
    const waiting = bus.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    release();
    await waiting;
    expect(sent).toEqual(["a"]);
    stop();
    bus.deliver([balance("b")]);
    await bus.idle();
    expect(sent).toEqual(["a"]);
  });
});

describe("a balance announcement on the player's event channel", () => {
  it("is the balance event the player's rooms read, marked with the room that asked, and only balances go", () => {
    const published: [string, PlayerEvent][] = [];
    const listener = balanceToPlayer((playerId, event) => void published.push([playerId, event]));
    listener(balance("p1"));
    listener(balance("p2", "room-7"));
    listener({ type: "skill-settled", playerId: "p3", round: { game: "dots", roundId: "r", reward: 5 } });
    expect(published).toEqual([
      ["p1", { type: "balance", balance: 1500, delta: 500, reason: "admin_adjustment" }],
      ["p2", { type: "balance", balance: 1500, delta: 500, reason: "admin_adjustment", from: "room-7" }],
    ]);
  });
});
