/**
 * How a shared room (the crash room, the blackjack table, the Hold'em table) tells a player which bet or
 * seat is theirs. No zod: the client's room connections import it with their chunk.
 *
 * The room's state is the same for everyone, and in it an anonymous player's `playerId` is a stand-in
 * (`ANONYMOUS_ID_PREFIX` and 22 characters), never the player's id, which the same player's named
 * rows elsewhere carry. The room sends each of the player's connections, to it alone, the id its own
 * entries carry in this room (`SharedRoomSelf`): on joining, and again whenever it changes (anonymous
 * mode switched on or off). A player who is not anonymous is told their own id.
 */
export const SHARED_ROOM_PUSH = {
  /** `SharedRoomSelf`: the `playerId` this connection's own bet or seat carries in the room's state. */
  self: "room:self",
} as const;

export interface SharedRoomSelf {
  playerId: string;
}

/**
 * The room's state with the player's own entries carrying the player's id again (the client's own copy):
 * every string equal to `shownId`, and every key, becomes `playerId`. The stand-in is 128 random-looking
 * bits, so nothing else in a state equals it. Returns `state` itself when there is nothing to restore.
 */
export function ownIdRestored<T>(state: T, shownId: string | null, playerId: string | null): T {
  if (!shownId || !playerId || shownId === playerId) return state;
  const walk = (value: unknown): unknown => {
    if (value === shownId) return playerId;
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key === shownId ? playerId : key, walk(v)]));
    return value;
  };
  return walk(state) as T;
}
