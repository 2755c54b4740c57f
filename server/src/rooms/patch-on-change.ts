import type { Room } from "@colyseus/core";

/**
 * Turns a room's patch timer off: its state is sent only when the room calls `broadcastPatch()` after
 * changing it, so an idle room costs no timer and no CPU.
 *
 * Colyseus 0.18 answers `patchRate = null` by starting a 60 Hz clock tick per room instead, unless a
 * simulation interval exists at that moment. That tick only drives `room.clock` timers, which a room
 * using this must not rely on (`broadcastPatch()` still advances the clock). The assignment is made
 * while a placeholder simulation interval is in place, which is then removed.
 */
export function patchOnlyOnChange(room: Room): void {
  const internals = room as unknown as { _simulationInterval?: unknown };
  const previous = internals._simulationInterval;
  internals._simulationInterval = true;
  try {
    room.patchRate = null;
  } finally {
    internals._simulationInterval = previous;
  }
}
