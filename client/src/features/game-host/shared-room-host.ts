import { useMemo } from "react";
import { useSession } from "../../store/session";
import { canInvite, openInvite } from "../../platform/discord-together";
import type { ConnectionListener, RoomConnection } from "../../net/room";
import { asRoomFailure } from "./game-connection";

/** Who joins a shared room (the crash table, the blackjack table) and for which activity instance. */
export interface SharedRoomHost {
  token: string;
  playerId: string | null;
  /** The instance the server accepted this player into; null for the public room. */
  instanceId: string | null;
  /** Discord's invite dialog, where it is offered (inside an instance, not in a DM), as for the strip's Invite. */
  invite: (() => void) | null;
}

/**
 * A shared room the shell offers a game: the room of the activity instance the server accepted this
 * player into, or the public one (guests, standalone, and players whose instance was refused). The
 * server checks the membership again when the room is joined. `build` runs again when the session or
 * the instance changes.
 */
export function useSharedRoomHost<R>(build: (host: SharedRoomHost) => R): R | null {
  const token = useSession((s) => s.token);
  const playerId = useSession((s) => s.player?.id ?? null);
  const discord = useSession((s) => s.discord);
  const instanceId = discord?.instanceJoined ? discord.instanceId : null;
  return useMemo(
    () => (token ? build({ token, playerId, instanceId, invite: instanceId && canInvite() ? () => void openInvite() : null }) : null),
    // `build` is a module-level function of each room
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [token, playerId, instanceId],
  );
}

/**
 * Opens a shared room's connection, its code loaded on demand: requests wait for it and reject as
 * RoomFailure (with `closedMessage` once closed); `close` ends it, loaded or not.
 */
export function connectLazily<S, C extends RoomConnection<S>>(
  load: () => Promise<(listener: ConnectionListener<S>) => C>,
  listener: Pick<ConnectionListener<S>, "status" | "state">,
  closedMessage: string,
): { request<T>(send: (c: C) => Promise<T>): Promise<T>; close(): void } {
  let connection: C | null = null;
  let closed = false;
  const ready = load().then((create) => {
    if (closed) return null;
    connection = create({ status: listener.status, state: listener.state, push: () => undefined });
    void connection.start();
    return connection;
  });
  return {
    async request<T>(send: (c: C) => Promise<T>): Promise<T> {
      const c = await ready;
      if (!c) throw asRoomFailure(new Error(closedMessage));
      return send(c).catch((error: unknown) => {
        throw asRoomFailure(error);
      });
    },
    close() {
      closed = true;
      connection?.close();
    },
  };
}
