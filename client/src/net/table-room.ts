import type { Client, Room } from "@colyseus/sdk";
import { ROOMS } from "@casino/common/rooms";
import { TABLE_MESSAGES, tableSnapshotOf, type TableAnswer, type TableRoomState, type TableSnapshot } from "@casino/common/table";
import type { BlackjackAction } from "@casino/common/games/blackjack/engine";
import type { RoomConnection } from "./room";
import { SharedRoomConnection } from "./shared-room";

/**
 * Loaded only with the blackjack table's chunk. The `blackjack-table` room: the activity instance's one
 * table, or (no instance) a public table with a free seat. The server sends the whole table as one JSON
 * snapshot, the same for every client.
 */
export class TableConnection extends SharedRoomConnection<TableSnapshot | null> {
  constructor(
    token: string,
    private readonly instanceId: string | null,
    listener: ConstructorParameters<typeof RoomConnection<TableSnapshot | null>>[1],
    playerId: string | null,
  ) {
    super(token, playerId, listener);
  }

  sit(seat: number): Promise<TableAnswer> {
    return this.request<TableAnswer>(TABLE_MESSAGES.sit, { seat });
  }

  leave(): Promise<TableAnswer> {
    return this.request<TableAnswer>(TABLE_MESSAGES.leave, {});
  }

  bet(amount: number): Promise<TableAnswer> {
    return this.request<TableAnswer>(TABLE_MESSAGES.bet, { amount });
  }

  ready(): Promise<TableAnswer> {
    return this.request<TableAnswer>(TABLE_MESSAGES.ready, {});
  }

  act(action: BlackjackAction): Promise<TableAnswer> {
    return this.request<TableAnswer>(TABLE_MESSAGES.act, { action });
  }

  protected join(client: Client): Promise<Room> {
    return this.instanceId
      ? client.joinOrCreate(ROOMS.table, { instanceId: this.instanceId })
      : client.joinOrCreate(ROOMS.table, { instanceId: null, freeSeat: true });
  }

  /** Null until the room has published its first snapshot. */
  protected read(state: unknown): TableSnapshot | null {
    return this.ownEntries(tableSnapshotOf(state as Partial<TableRoomState>));
  }
}
