import { useMemo } from "react";
import type { SharedCrashConnection, SharedCrashRoom } from "../../games/contract";
import { useSession } from "../../store/session";
import { canInvite, openInvite } from "../../platform/discord-together";
import type { CrashConnection } from "../../net/crash-room";
import { asRoomRequestError } from "./game-connection";

/**
 * The shared crash room the shell offers the crash table: the room of the activity instance the server
 * accepted this player into, or the public room (guests, and players whose instance was refused). The
 * server checks the membership again when the room is joined. The connection code is loaded on connect.
 */
export function useSharedCrashRoom(): SharedCrashRoom | null {
  const token = useSession((s) => s.token);
  const playerId = useSession((s) => s.player?.id ?? null);
  const discord = useSession((s) => s.discord);
  const instanceId = discord?.instanceJoined ? discord.instanceId : null;
  return useMemo(() => {
    if (!token) return null;
    return {
      instanceId,
      playerId,
      invite: instanceId && canInvite() ? () => void openInvite() : null,
      connect(listener) {
        let connection: CrashConnection | null = null;
        let closed = false;
        const ready = import("../../net/crash-room").then(({ CrashConnection }) => {
          if (closed) return null;
          connection = new CrashConnection(token, instanceId, { status: listener.status, state: listener.state, push: () => undefined });
          void connection.start();
          return connection;
        });
        const request = async <T>(send: (c: CrashConnection) => Promise<T>): Promise<T> => {
          const c = await ready;
          if (!c) throw asRoomRequestError(new Error("The crash room is closed"));
          return send(c).catch((error: unknown) => {
            throw asRoomRequestError(error);
          });
        };
        const shared: SharedCrashConnection = {
          bet: (amount, autoCashOut) => request((c) => c.bet(amount, autoCashOut)),
          cashOut: () => request((c) => c.cashOut()),
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
