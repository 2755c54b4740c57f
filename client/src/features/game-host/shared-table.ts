import { useMemo } from "react";
import type { SharedTableConnection, SharedTableRoom } from "../../games/contract";
import { useSession } from "../../store/session";
import type { TableConnection } from "../../net/table-room";
import { asRoomRequestError } from "./game-connection";

/**
 * The shared blackjack table the shell offers the blackjack game: the table of the activity instance the
 * server accepted this player into, or a public table with a free seat (guests, standalone, and players
 * whose instance was refused). The connection code is loaded on connect.
 */
export function useSharedTableRoom(): SharedTableRoom | null {
  const token = useSession((s) => s.token);
  const playerId = useSession((s) => s.player?.id ?? null);
  const discord = useSession((s) => s.discord);
  const instanceId = discord?.instanceJoined ? discord.instanceId : null;
  return useMemo(() => {
    if (!token) return null;
    return {
      instanceId,
      playerId,
      connect(listener) {
        let connection: TableConnection | null = null;
        let closed = false;
        const ready = import("../../net/table-room").then(({ TableConnection }) => {
          if (closed) return null;
          connection = new TableConnection(token, instanceId, { status: listener.status, state: listener.state, push: () => undefined });
          void connection.start();
          return connection;
        });
        const request = async <T>(send: (c: TableConnection) => Promise<T>): Promise<T> => {
          const c = await ready;
          if (!c) throw asRoomRequestError(new Error("The table is closed"));
          return send(c).catch((error: unknown) => {
            throw asRoomRequestError(error);
          });
        };
        const shared: SharedTableConnection = {
          sit: (seat) => request((c) => c.sit(seat)),
          leave: () => request((c) => c.leave()),
          bet: (amount) => request((c) => c.bet(amount)),
          ready: () => request((c) => c.ready()),
          act: (action) => request((c) => c.act(action)),
          close: () => {
            closed = true;
            connection?.close();
          },
        };
        return shared;
      },
    };
  }, [token, playerId, instanceId]);
}
