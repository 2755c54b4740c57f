import type { TableSnapshot } from "@casino/common/table";
import type { SharedTableConnection, SharedTableRoom } from "../../games/contract";
import { useTogether } from "../../store/together";
import { connectLazily, useSharedRoomHost, type SharedRoomHost } from "./shared-room-host";

/**
 * The shared blackjack table the shell offers the blackjack game (see useSharedRoomHost): the
 * instance's table, or a public table with a free seat. While it is open, the player's place at it
 * (a seat, or watching) is the strip's to show to the others of the instance.
 */
export function useSharedTableRoom(): SharedTableRoom | null {
  return useSharedRoomHost(tableRoom);
}

/** The player's place at the table this snapshot shows, told to the together store when it changes. */
function placeAt(playerId: string | null, snapshot: TableSnapshot | null): void {
  const seat = (snapshot && playerId && snapshot.players.find((p) => p.playerId === playerId)?.seat) || null;
  if (useTogether.getState().sharedTable?.seat !== seat) useTogether.setState({ sharedTable: { seat } });
}

function tableRoom({ token, playerId, instanceId, invite }: SharedRoomHost): SharedTableRoom {
  return {
    instanceId,
    playerId,
    invite,
    connect(listener) {
      // Only the instance's own table is shown in the strip (a public table has no strip).
      const place = instanceId !== null;
      if (place) placeAt(playerId, null);
      const room = connectLazily(
        () =>
          import("../../net/table-room").then(
            ({ TableConnection }) =>
              (l) =>
                new TableConnection(token, instanceId, l, playerId),
          ),
        {
          status: listener.status,
          state: (snapshot: TableSnapshot | null) => {
            if (place) placeAt(playerId, snapshot);
            listener.state(snapshot);
          },
        },
        "The table is closed",
      );
      const shared: SharedTableConnection = {
        sit: (seat) => room.request((c) => c.sit(seat)),
        leave: () => room.request((c) => c.leave()),
        bet: (amount) => room.request((c) => c.bet(amount)),
        ready: () => room.request((c) => c.ready()),
        act: (action) => room.request((c) => c.act(action)),
        close: () => {
          room.close();
          if (place) useTogether.setState({ sharedTable: null });
        },
      };
      return shared;
    },
  };
}
