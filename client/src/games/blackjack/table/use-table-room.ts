import type { TableSeatPlayer, TableSnapshot } from "@casino/common/table";
import type { BlackjackAction } from "@casino/common/games/blackjack";
import type { SharedTableConnection, SharedTableRoom } from "../../contract";
import { useSharedRoom, type SharedRoomStatus } from "../../shared/use-shared-room";

export type TableRoomStatus = SharedRoomStatus;

export interface TableRoomControls {
  status: TableRoomStatus;
  /** The table as the server last sent it; null before the first snapshot. */
  table: TableSnapshot | null;
  /** This player's seat, or null while watching. */
  me: TableSeatPlayer | null;
  pending: boolean;
  error: string | null;
  sit(seat: number): Promise<void>;
  leave(): Promise<void>;
  bet(amount: number): Promise<void>;
  ready(): Promise<void>;
  act(action: BlackjackAction): Promise<void>;
}

/**
 * The shared table as the UI sees it: the server's snapshot and the player's requests. Nothing here
 * decides a turn, a card or an outcome; the table draws what the room says.
 */
export function useTableRoom(shared: SharedTableRoom): TableRoomControls {
  const { status, state: table, pending, error, send } = useSharedRoom<TableSnapshot | null, SharedTableConnection>(shared);

  const me = (table && shared.playerId && table.players.find((p) => p.playerId === shared.playerId)) || null;
  return {
    status,
    table,
    me,
    pending,
    error,
    sit: (seat) => send((c) => c.sit(seat)),
    leave: () => send((c) => c.leave()),
    bet: (amount) => send((c) => c.bet(amount)),
    ready: () => send((c) => c.ready()),
    act: (action) => send((c) => c.act(action)),
  };
}
