import { useCallback, useEffect, useRef, useState } from "react";
import type { CrashRoomBet, CrashRoomSnapshot } from "@casino/common/protocol";
import type { SharedCrashConnection, SharedCrashRoom } from "../../contract";
import { errorText } from "../../shared/use-round";

export type CrashRoomStatus = "connecting" | "open" | "reconnecting" | "lost";

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
  const [status, setStatus] = useState<CrashRoomStatus>("connecting");
  const [room, setRoom] = useState<CrashRoomSnapshot | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const connection = useRef<SharedCrashConnection | null>(null);

  useEffect(() => {
    const c = shared.connect({ status: setStatus, state: setRoom });
    connection.current = c;
    return () => {
      connection.current = null;
      c.close();
    };
  }, [shared]);

  const send = useCallback(async (work: (c: SharedCrashConnection) => Promise<unknown>) => {
    const c = connection.current;
    if (!c) return;
    setPending(true);
    setError(null);
    try {
      await work(c);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  }, []);

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
