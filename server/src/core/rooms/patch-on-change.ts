import type { Room } from "@colyseus/core";
import type { Clock } from "../../platform/clock";

/**
 * Turns a room's patch timer off: its state is sent only when the room calls `broadcastPatch()` after
 * changing it, so an idle room costs no timer and no CPU.
 *
 * Colyseus 0.18 answers `patchRate = null` by starting a 60 Hz clock tick per room instead, unless a
 * simulation interval exists at that moment. That tick only drives `room.clock` timers, which a room
 * using this must not rely on (`broadcastPatch()` still advances the clock). The assignment is made
 * while a placeholder simulation interval is in place, which is then removed.
 *
 * Colyseus also counts `maxMessagesPerSecond` against that clock (`clock.currentTime`, read as each
 * message arrives): with no tick, the clock stands still between state changes and the "per second"
 * window never ends, so a calm connection whose messages change nothing would be dropped after
 * `maxMessagesPerSecond` of them. The clock is therefore advanced to the present as each message
 * arrives, before Colyseus reads it: the window counts seconds whatever the state does. The present is
 * the app's clock (the system's, or a test's manual one), like every other time a room reads.
 */
export function patchOnlyOnChange(room: Room, clock: Clock): void {
  (room.clock as unknown as { now: () => number }).now = () => clock.now();
  const internals = room as unknown as {
    _simulationInterval?: unknown;
    _onMessage: (client: unknown, buffer: unknown) => unknown;
  };
  const previous = internals._simulationInterval;
  internals._simulationInterval = true;
  try {
    room.patchRate = null;
  } finally {
    internals._simulationInterval = previous;
  }
  // Each connection binds `_onMessage` when it joins, after the room's onCreate has run this.
  const onMessage = internals._onMessage;
  internals._onMessage = function (this: Room, client: unknown, buffer: unknown) {
    this.clock.tick();
    return onMessage.call(this, client, buffer);
  };
}
