import { Encoder, Schema, type } from "@colyseus/schema";
import type { TableRoomState as TableRoomStateShape } from "@casino/common";

/**
 * The shared blackjack table's state: one JSON snapshot (`TableSnapshot`, common/src/table.ts), the same
 * for every client at the table, seated or watching. It holds only public cards (the engine's
 * `tableView`): never a card still in the shoe, never the shoe's seed.
 */
export class TableRoomState extends Schema implements TableRoomStateShape {
  @type("string") snapshot = "";
}

/**
 * The size of a table room's two encoder buffers (patches, and the full state for joins). Every room
 * gets 2 KB (casino-state.ts), but a dealt table of 7 is 3.5 KB of JSON with short names and no
 * previous shoe (server/test/table-state-buffer.test.ts): Colyseus grew the patch buffer once per table,
 * and the join buffer on every full encode (it keeps no grown copy of that one), printing its
 * buffer-overflow warning each time. 16 KB leaves room for splits, long names and the previous shoe's
 * seed; 32 KB a table, against the 4 KB of a player's own room.
 */
export const TABLE_STATE_BUFFER = 16 * 1024;

/** Sets a table room's state with encoder buffers of TABLE_STATE_BUFFER (Colyseus sizes them when the state is set). */
export function setTableState(room: { state: TableRoomState }): void {
  const size = Encoder.BUFFER_SIZE;
  Encoder.BUFFER_SIZE = TABLE_STATE_BUFFER;
  try {
    room.state = new TableRoomState();
  } finally {
    Encoder.BUFFER_SIZE = size;
  }
}

/**
 * A shared table's room metadata (the blackjack table's and the Hold'em table's): what the matchmaker
 * filters on (`filterBy(["instanceId", "freeSeat"])`) and `GET /api/tables` and `GET /api/holdem-tables` list.
 */
export interface TableMetadata {
  instanceId: string | null;
  /** Public tables only: whether a seat is free, the seats held for players matched here to sit counted as taken. */
  freeSeat?: boolean;
  tableId: string;
  seated: number;
  watchers: number;
}
