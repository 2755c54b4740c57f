import { Schema, type } from "@colyseus/schema";
import type { TableRoomState as TableRoomStateShape } from "@casino/common";

/**
 * The shared blackjack table's state: one JSON snapshot (`TableSnapshot`, common/src/table.ts), the same
 * for every client at the table, seated or watching. It holds only public cards (the engine's
 * `tableView`): never a card still in the shoe, never the shoe's seed.
 */
export class TableRoomState extends Schema implements TableRoomStateShape {
  @type("string") snapshot = "";
}
