import { describe, expect, it } from "vitest";
import { LocalPresence, type Client, type Room } from "@colyseus/core";
import { ANONYMOUS_ID_PREFIX } from "@casino/common";
import { PROFILE_CHANGES, RoomPlayers } from "../../src/core/rooms/room-players";
import { StandIns } from "../../src/core/players/stand-ins";

/**
 * The shared rooms' players over the in-process presence (the embedded default's): a process holds many
 * tables, and each must hear a profile change through the process's one subscription.
 */
describe("the shared rooms' players", () => {
  it("a dozen rooms in one process hear a profile change through one subscription, with no listener warning", async () => {
    const presence = new LocalPresence();
    let subscriptions = 0;
    const subscribe = presence.subscribe.bind(presence);
    presence.subscribe = ((topic: string, callback: (...args: unknown[]) => void) => {
      if (topic === PROFILE_CHANGES) subscriptions++;
      return subscribe(topic, callback);
    }) as typeof presence.subscribe;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);

    const profile = { id: "p-ann", username: "Ann", avatarUrl: null, anonymousMode: false };
    const services = {
      players: { get: async (id: string) => ({ ...profile, id }) },
      standIns: new StandIns("a secret of the server, at least 32 characters long", () => Date.now()),
      log: { error: () => undefined },
    } as unknown as ConstructorParameters<typeof RoomPlayers>[1];
    const client = { sessionId: "c1", send: () => undefined } as unknown as Client;
    const changed: number[] = [];
    try {
      const rooms = Array.from({ length: 12 }, (_, i) => {
        const room = { presence, clients: [client], roomName: "blackjack_table", roomId: `room-${i}` } as unknown as Room;
        return new RoomPlayers(
          room,
          services,
          () => "p-ann",
          () => changed.push(i),
        );
      });
      for (const room of rooms) await room.joined(client);
      expect(rooms.map((r) => r.shown("p-ann", { username: "Ann", anonymous: false }).playerId)).toEqual(Array(12).fill("p-ann"));

      profile.anonymousMode = true;
      await presence.publish(PROFILE_CHANGES, "p-ann");
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(changed.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      const shown = rooms.map((r) => r.shown("p-ann", { username: "Ann", anonymous: true }).playerId);
      for (const id of shown) expect(id.startsWith(ANONYMOUS_ID_PREFIX)).toBe(true);
      // Each room draws its own stand-in: two rooms' bets or seats cannot be matched with each other.
      expect(new Set(shown).size).toBe(12);

      // A room that closed hears nothing more.
      rooms[0]!.dispose();
      changed.length = 0;
      profile.anonymousMode = false;
      await presence.publish(PROFILE_CHANGES, "p-ann");
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(changed.sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));

      expect(subscriptions).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes("MaxListeners"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
