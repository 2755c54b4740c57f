import { useMemo } from "react";
import type { TableSeatPlayer, TableSnapshot } from "@casino/common/table";
import type { BlackjackAction } from "@casino/common/games/blackjack/engine";
import type { SharedTableConnection, SharedTableRoom } from "../../contract";
import { useSharedRoom, type SharedRoomStatus } from "../../shared/use-shared-room";
import { serverClockOffset } from "../../shared/server-clock";

export type TableRoomStatus = SharedRoomStatus;

export interface TableRoomControls {
  status: TableRoomStatus;
  /** The table as the server last sent it; null before the first snapshot. */
  table: TableSnapshot | null;
  /** Milliseconds to add to `Date.now()` for the server's clock, measured when the last snapshot arrived (server-clock.ts). */
  clockOffset: number;
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

interface Received {
  table: TableSnapshot;
  clockOffset: number;
}

/**
 * The shared table as the UI sees it: the server's snapshot and the player's requests. Nothing here
 * decides a turn, a card or an outcome; the table draws what the room says.
 */
export function useTableRoom(shared: SharedTableRoom): TableRoomControls {
  // Each snapshot is paired with the server clock's offset as it arrives, not when React draws it.
  const stamped = useMemo(
    () => ({
      connect: (listener: { status(status: SharedRoomStatus): void; state(state: Received | null): void }) =>
        shared.connect({
          status: listener.status,
          state: (table) => listener.state(table && { table, clockOffset: serverClockOffset(table, Date.now()) }),
        }),
    }),
    [shared],
  );
  const { status, state, pending, error, send } = useSharedRoom<Received | null, SharedTableConnection>(stamped);
  const table = state?.table ?? null;

  const me = (table && shared.playerId && table.players.find((p) => p.playerId === shared.playerId)) || null;
  return {
    status,
    table,
    clockOffset: state?.clockOffset ?? 0,
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
