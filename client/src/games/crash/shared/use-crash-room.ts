import { useEffect, useRef } from "react";
import type { CrashRoomBet, CrashRoomSnapshot } from "@casino/common/crash-room";
import { sharedRoundSettled, sharedStakePlaced } from "../../../store/room";
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
  useCrashHeaderChip(room?.roundId ?? null, mine);
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

/**
 * Tells the header's change chip what the player's bet did (docs/architecture/money-path.md, "One figure
 * per round"): its stake when placed, and its net figure when settled (a cash-out's payout − stake, a
 * bust's −stake, a refund's 0), never the payout alone. Only a change seen here is told: a bet found
 * already placed or settled on joining is not.
 */
export function useCrashHeaderChip(roundId: string | null, mine: CrashRoomBet | null): void {
  // the last bet seen, as round and status; undefined until the room's first state
  const last = useRef<string | null | undefined>(undefined);
  const key = roundId && mine ? `${roundId}:${mine.status}` : null;
  useEffect(() => {
    if (!roundId) return;
    const before = last.current;
    last.current = key;
    if (before === undefined || !key || !mine || key === before) return;
    const sameRound = before?.startsWith(`${roundId}:`) ?? false;
    if (mine.status === "active" && !sameRound) sharedStakePlaced(mine.amount);
    else if (mine.status === "cashed_out" && sameRound) sharedRoundSettled(mine.payout - mine.amount, mine.payout);
    else if (mine.status === "lost" && sameRound) sharedRoundSettled(-mine.amount, 0);
    else if (mine.status === "refunded" && sameRound) sharedRoundSettled(0, mine.amount);
    // the bet and its amount are read when its status changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [roundId, key]);
}
