import type { SharedCrashConnection, SharedCrashRoom } from "../../games/contract";
import { connectLazily, useSharedRoomHost, type SharedRoomHost } from "./shared-room-host";

/** The shared crash room the shell offers the crash table (see useSharedRoomHost). */
export function useSharedCrashRoom(): SharedCrashRoom | null {
  return useSharedRoomHost(crashRoom);
}

function crashRoom({ token, playerId, instanceId, invite }: SharedRoomHost): SharedCrashRoom {
  return {
    instanceId,
    playerId,
    invite,
    connect(listener) {
      const room = connectLazily(
        () =>
          import("../../net/crash-room").then(
            ({ CrashConnection }) =>
              (l) =>
                new CrashConnection(token, instanceId, l, playerId),
          ),
        listener,
        "The crash room is closed",
      );
      const shared: SharedCrashConnection = {
        bet: (amount, autoCashOut) => room.request((c) => c.bet(amount, autoCashOut)),
        cashOut: () => room.request((c) => c.cashOut()),
        close: room.close,
      };
      return shared;
    },
  };
}
