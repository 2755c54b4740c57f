import type { Room } from "@colyseus/core";

/**
 * Turns a room's `autoDispose` on or off. A shared room turns it off while it has work (a round, a
 * hand, a seat) and on once it has none, many times in its life.
 *
 * Core's setter (0.18) clears its pending dispose timer when autoDispose goes off but keeps the timer's
 * handle, and a room holding a handle is never disposed once empty: it waits for a join to drop it. A
 * room whose last switch to off came after its last join was then never disposed, so `disconnect()`
 * and the server's shutdown waited on it for ever. The handle goes with the timer here.
 */
export function setAutoDispose(room: Room, on: boolean): void {
  room.autoDispose = on;
  if (!on) {
    const internals = room as unknown as { _autoDisposeTimeout?: NodeJS.Timeout };
    clearTimeout(internals._autoDisposeTimeout);
    internals._autoDisposeTimeout = undefined;
  }
}
