import type { Client, Room } from "@colyseus/sdk";
import { ROOMS } from "@casino/common/rooms";
import {
  HOLDEM_MESSAGES,
  HOLDEM_PUSH,
  holdemSnapshotOf,
  type HoldemAnswer,
  type HoldemPrivateView,
  type HoldemRoomState,
  type HoldemTableSnapshot,
} from "@casino/common/holdem-table";
import type { HoldemAction } from "@casino/common/games/holdem/hand-machine";
import type { RoomConnection } from "./room";
import { SharedRoomConnection } from "./shared-room";

/** What the Hold'em table shows: the table everyone sees, and this player's own cards and choices. */
export interface HoldemState {
  table: HoldemTableSnapshot;
  /** The last `holdem:private` view; null while watching. */
  own: HoldemPrivateView | null;
}

/**
 * Loaded only with the Hold'em table's chunk. The `holdem-table` room: the activity instance's one
 * table, or (no instance) a public table with a free seat (the server creates one when every table is full). The table is one JSON snapshot, the same for every
 * client; a seated player's hole cards and legal actions come in a message to that player only.
 */
export class HoldemConnection extends SharedRoomConnection<HoldemState | null> {
  private own: HoldemPrivateView | null = null;

  constructor(
    token: string,
    private readonly instanceId: string | null,
    listener: ConstructorParameters<typeof RoomConnection<HoldemState | null>>[1],
    playerId: string | null,
  ) {
    super(token, playerId, listener);
  }

  sit(seat: number, buyIn: number): Promise<HoldemAnswer> {
    return this.request<HoldemAnswer>(HOLDEM_MESSAGES.sit, { seat, buyIn });
  }

  act(action: HoldemAction): Promise<HoldemAnswer> {
    return this.request<HoldemAnswer>(HOLDEM_MESSAGES.act, { action });
  }

  sitOut(): Promise<HoldemAnswer> {
    return this.request<HoldemAnswer>(HOLDEM_MESSAGES.sitOut, {});
  }

  comeBack(postNow: boolean): Promise<HoldemAnswer> {
    return this.request<HoldemAnswer>(HOLDEM_MESSAGES.comeBack, { postNow });
  }

  leave(): Promise<HoldemAnswer> {
    return this.request<HoldemAnswer>(HOLDEM_MESSAGES.leave, {});
  }

  protected join(client: Client): Promise<Room> {
    return this.instanceId
      ? client.joinOrCreate(ROOMS.holdem, { instanceId: this.instanceId })
      : client.joinOrCreate(ROOMS.holdem, { instanceId: null, freeSeat: true });
  }

  /** Null until the room has published its first snapshot. */
  protected read(state: unknown): HoldemState | null {
    const table = this.ownEntries(holdemSnapshotOf(state as Partial<HoldemRoomState>));
    return table && { table, own: this.own };
  }

  protected override takes(type: string, body: unknown): boolean {
    if (super.takes(type, body)) return true;
    if (type !== HOLDEM_PUSH.private) return false;
    this.own = body as HoldemPrivateView;
    this.restate();
    return true;
  }
}
