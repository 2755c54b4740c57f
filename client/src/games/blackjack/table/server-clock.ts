import { useEffect, useState } from "react";
import type { TableSnapshot } from "@casino/common/table";
import { useNow } from "../../../ui/useNow";

/**
 * The table's timers by the server's clock. A snapshot carries the server's time when it was sent
 * (`serverTime`); the difference to this device's clock when it arrives is added to the device's clock
 * from then on, so a phone whose clock is minutes off still shows the betting window and the turn ring
 * as the server runs them (off only by the snapshot's travel time).
 */
export function useServerNow(table: Pick<TableSnapshot, "serverTime"> | null, everyMs: number): number {
  const serverTime = table?.serverTime;
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    // Measured once per snapshot, when it arrives.
    if (serverTime !== undefined) setOffset(serverTime - Date.now());
  }, [serverTime]);
  return useNow(everyMs) + offset;
}

/** Whole seconds left to the table's deadline at `now` (the server's clock), or null when no timer runs. */
export const secondsLeft = (table: Pick<TableSnapshot, "deadline">, now: number): number | null =>
  table.deadline === null ? null : Math.max(0, Math.ceil((table.deadline - now) / 1000));
