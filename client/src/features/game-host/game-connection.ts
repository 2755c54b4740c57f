import { useMemo } from "react";
import type { GameId } from "@casino/common/catalogue";
import type { BetAnswer } from "@casino/common/protocol";
import { RoomRequestError, type GameConnection } from "../../games/contract";
import { RoomFailure } from "../../net/room-failure";
import { useRoom } from "../../store/room";

export const asRoomRequestError = (error: unknown): RoomRequestError =>
  error instanceof RoomFailure
    ? new RoomRequestError(error.code, error.message, error.details)
    : new RoomRequestError("error", error instanceof Error ? error.message : String(error));

/**
 * The contract's GameConnection on the shell's room connection: each call gets its own request id
 * (made once, resent unchanged after a reconnect), resolves with the `result` answering it and
 * rejects with a RoomRequestError for the `error` answering it.
 */
export function useGameConnection(game: GameId): GameConnection {
  const connection = useRoom((s) => s.connection);
  const openRound = useRoom((s) => s.openRound);
  const connected = useRoom((s) => s.status === "open");
  return useMemo(() => {
    const call = (type: "bet" | "act", body: Record<string, unknown>): Promise<BetAnswer> => {
      if (!connection) return Promise.reject(new RoomRequestError("disconnected", "Not connected to the casino"));
      return connection.request<BetAnswer>(type, body).catch((error: unknown) => {
        throw asRoomRequestError(error);
      });
    };
    return {
      bet: (amount, params) => call("bet", params === undefined ? { game, amount } : { game, amount, params }),
      act: (action) => call("act", { action }),
      openRound,
      connected,
    };
  }, [connection, game, openRound, connected]);
}
