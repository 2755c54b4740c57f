import { describe, expect, it, vi } from "vitest";
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
          () => false,
        );
      });
      for (const room of rooms) await room.joined(client);
      expect(rooms.map((r) => r.shown("p-ann", { username: "Ann", anonymous: false }).playerId)).toEqual(Array(12).fill("p-ann"));

      profile.anonymousMode = true;
      await presence.publish(PROFILE_CHANGES, "p-ann");
      await vi.waitFor(() => expect([...changed].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i)));
      const shown = rooms.map((r) => r.shown("p-ann", { username: "Ann", anonymous: true }).playerId);
      for (const id of shown) expect(id.startsWith(ANONYMOUS_ID_PREFIX)).toBe(true);
      // Each room draws its own stand-in: two rooms' bets or seats cannot be matched with each other.
      expect(new Set(shown).size).toBe(12);

      // A room that closed hears nothing more.
      rooms[0]!.dispose();
      changed.length = 0;
      profile.anonymousMode = false;
      await presence.publish(PROFILE_CHANGES, "p-ann");
      await vi.waitFor(() => expect([...changed].sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1)));
      // Room 0 heard nothing: had it, its refresh would have been read and reported alongside the others'.
      expect(changed).not.toContain(0);

      expect(subscriptions).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes("MaxListeners"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("keeps only the profiles of the players here, or gone with a bet or seat still shown: the others are dropped", async () => {
    const presence = new LocalPresence();
    const anonymous = new Set(["p-ann"]);
    const names = new Map<string, string>();
    const services = {
      players: {
        get: async (id: string) => ({ id, username: names.get(id) ?? `name-${id}`, avatarUrl: null, anonymousMode: anonymous.has(id) }),
      },
      standIns: new StandIns("a secret of the server, at least 32 characters long", () => Date.now()),
      log: { error: () => undefined },
    } as unknown as ConstructorParameters<typeof RoomPlayers>[1];
    const connection = (sessionId: string, playerId: string) => ({ sessionId, playerId, send: () => undefined }) as unknown as Client;
    const clients: Client[] = [];
    const room = { presence, clients, roomName: "crash", roomId: "crash-room" } as unknown as Room;
    // The players with a bet (or seat) the room shows.
    const betting = new Set<string>();
    const changed: string[] = [];
    const players = new RoomPlayers(
      room,
      services,
      (client) => (client as unknown as { playerId: string }).playerId,
      (playerId) => changed.push(playerId),
      (playerId) => betting.has(playerId),
    );
    const join = async (sessionId: string, playerId: string) => {
      const client = connection(sessionId, playerId);
      clients.push(client);
      await players.joined(client);
      return client;
    };
    const leave = (client: Client) => {
      clients.splice(clients.indexOf(client), 1);
      players.left(client);
    };
    try {
      // A crowd comes and goes without betting: the room keeps nobody's profile.
      for (let i = 0; i < 200; i++) leave(await join(`crowd-${i}`, `p-crowd-${i}`));
      expect(players.size).toBe(0);

      // Ann (anonymous, two tabs) and Bob bet; Bob leaves with his bet in the round, Ann closes one tab.
      const [ann1, ann2, bob] = [await join("ann-1", "p-ann"), await join("ann-2", "p-ann"), await join("bob", "p-bob")];
      const standIn = players.shown("p-ann", { username: "Player", anonymous: false }).playerId;
      expect(standIn.startsWith(ANONYMOUS_ID_PREFIX)).toBe(true);
      betting.add("p-ann").add("p-bob");
      leave(ann1);
      leave(bob);
      players.forgetGone();
      expect(players.size).toBe(2);
      // A request of a connection gone for good is refused; Ann's other tab is still shown under her stand-in.
      expect(() => players.of(bob)).toThrow("This connection has left the room");
      expect(() => players.of(ann1)).toThrow("This connection has left the room");
      expect(players.of(ann2)).toMatchObject({ playerId: standIn, username: "Anonymous", face: null });
      // Bob's bet is still shown, under his name, and a change of his profile still shows.
      expect(players.shown("p-bob", { username: "Player", anonymous: false }).username).toBe("name-p-bob");
      names.set("p-bob", "Robert");
      await presence.publish(PROFILE_CHANGES, "p-bob");
      await vi.waitFor(() => expect(changed).toEqual(["p-bob"]));
      expect(players.shown("p-bob", { username: "Player", anonymous: false }).username).toBe("Robert");

      // The round ends: Bob's bet goes, and his profile with it; Ann is still here.
      betting.clear();
      players.forgetGone();
      expect(players.size).toBe(1);
      // Ann's stand-in stayed while she was here.
      expect(players.shown("p-ann", { username: "Player", anonymous: false }).playerId).toBe(standIn);
      // Forgotten, Bob is not read again on a change of his profile; Ann, here, is.
      names.set("p-bob", "Bobby");
      anonymous.delete("p-ann");
      await presence.publish(PROFILE_CHANGES, "p-bob");
      await presence.publish(PROFILE_CHANGES, "p-ann");
      await vi.waitFor(() => expect(changed).toEqual(["p-bob", "p-ann"]));
      expect(players.size).toBe(1);
      expect(players.shown("p-ann", { username: "Player", anonymous: false }).playerId).toBe("p-ann");

      // Ann's last tab leaves with no bet: dropped at once.
      leave(ann2);
      expect(players.size).toBe(0);
      // A bet recovered after a restart, of an anonymous player not here: kept while shown, then dropped.
      betting.add("p-cat");
      expect(players.shown("p-cat", { username: "Anonymous", anonymous: true }).playerId.startsWith(ANONYMOUS_ID_PREFIX)).toBe(true);
      expect(players.size).toBe(1);
      players.forgetGone();
      expect(players.size).toBe(1);
      betting.clear();
      players.forgetGone();
      expect(players.size).toBe(0);
    } finally {
      players.dispose();
    }
  });
});
