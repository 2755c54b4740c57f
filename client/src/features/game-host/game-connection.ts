import { useMemo } from "react";
import type { GameId } from "@casino/common/catalogue";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameConnection } from "../../games/contract";
import { RoomFailure } from "../../net/room-failure";
import { useRoom } from "../../store/room";

/** A failed request as the tables see every one: the room's own refusal as it is, anything else as code "error". */
export const asRoomFailure = (error: unknown): RoomFailure =>
  error instanceof RoomFailure ? error : new RoomFailure("error", error instanceof Error ? error.message : String(error));

/**
 * The contract's GameConnection on the shell's room connection: each call gets its own request id
 * (made once, resent unchanged after a reconnect), resolves with the `result` answering it and
 * rejects with a RoomFailure for the `error` answering it.
 */
export function useGameConnection(game: GameId): GameConnection {
  const connection = useRoom((s) => s.connection);
  const openRound = useRoom((s) => s.openRound);
  const connected = useRoom((s) => s.status === "open");
  return useMemo(() => {
    const call = (type: "bet" | "act", body: Record<string, unknown>): Promise<BetAnswer> => {
      if (!connection) return Promise.reject(new RoomFailure("disconnected", "Not connected to the casino"));
      return connection.request<BetAnswer>(type, body).catch((error: unknown) => {
        throw asRoomFailure(error);
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
