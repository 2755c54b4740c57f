import type { CrashRoomBet, CrashRoomSnapshot } from "@casino/common/protocol";
import type { SharedCrashConnection, SharedCrashRoom } from "../../contract";
import { useSharedRoom, type SharedRoomStatus } from "../../shared/use-shared-room";

export type CrashRoomStatus = SharedRoomStatus;

export interface CrashRoomControls {
  status: CrashRoomStatus;
  /** The room's state as the server last sent it; null before the first state. */
  room: CrashRoomSnapshot | null;
  /** This player's bet in the current round, as the room lists it. */
  mine: CrashRoomBet | null;
  pending: boolean;
  error: string | null;
  bet(amount: number, autoCashOut: number | null): Promise<void>;
  cashOut(): Promise<void>;
}

/**
 * The shared crash room as a table sees it: the server's state and the player's requests. Nothing here
 * decides a phase, a multiplier or an outcome; the table draws what the room says.
 */
export function useCrashRoom(shared: SharedCrashRoom): CrashRoomControls {
  const { status, state: room, pending, error, send } = useSharedRoom<CrashRoomSnapshot | null, SharedCrashConnection>(shared);

  const mine = room && shared.playerId ? (room.bets[shared.playerId] ?? null) : null;
  return {
    status,
    room,
    mine,
    pending,
    error,
    bet: (amount, autoCashOut) => send((c) => c.bet(amount, autoCashOut)),
    cashOut: () => send((c) => c.cashOut()),
  };
}
