import type { TableSnapshot } from "@casino/common/table";

/**
 * A shared table's timers (the blackjack and the Hold'em table) by the server's clock. A snapshot
 * carries the server's time when it was sent (`serverTime`); its difference to this device's clock when
 * the snapshot arrives is added to the device's clock from then on, so a phone whose clock is minutes
 * off still shows the betting window and the turn ring as the server runs them (off only by the
 * snapshot's travel time).
 */

/** Milliseconds to add to this device's clock to read the server's, from a snapshot and when it arrived. */
export const serverClockOffset = (table: Pick<TableSnapshot, "serverTime">, receivedAt: number): number => table.serverTime - receivedAt;

/** Whole seconds left to the table's deadline at `now` (the server's clock), or null when no timer runs. */
export const secondsLeft = (table: Pick<TableSnapshot, "deadline">, now: number): number | null =>
  table.deadline === null ? null : Math.max(0, Math.ceil((table.deadline - now) / 1000));
