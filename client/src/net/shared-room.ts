import { SHARED_ROOM_PUSH, ownIdRestored, type SharedRoomSelf } from "@casino/common/shared-room-self";
import { RoomConnection, type ConnectionListener } from "./room";

/**
 * A shared room's connection (the crash room, the blackjack table, the Hold'em table). In the room's
 * state an anonymous player's bet or seat carries a stand-in, not the player's id; the room tells this
 * connection alone which id its own entries carry (`SHARED_ROOM_PUSH.self`), and `ownEntries` gives them the
 * player's id back in this client's copy, so the table finds "mine" by the signed-in player's id.
 */
export abstract class SharedRoomConnection<S> extends RoomConnection<S> {
  /** The id this player's entries carry in the room's state; null until the room has said. */
  private self: string | null = null;

  constructor(
    token: string,
    private readonly playerId: string | null,
    listener: ConnectionListener<S>,
  ) {
    super(token, listener);
  }

  /** The room's state with this player's own entries under the player's id. */
  protected ownEntries<T>(state: T): T {
    return ownIdRestored(state, this.self, this.playerId);
  }

  protected override takes(type: string, body: unknown): boolean {
    if (type !== SHARED_ROOM_PUSH.self) return false;
    this.self = (body as SharedRoomSelf).playerId;
    this.restate();
    return true;
  }
}
