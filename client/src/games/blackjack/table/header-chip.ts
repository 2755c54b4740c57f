import { useEffect, useRef } from "react";
import { sharedRoundSettled, sharedStakePlaced } from "../../../store/room";
import type { SeatView } from "./Seat";

/**
 * Tells the header's change chip what the player's seat did (docs/architecture/money-path.md, "One
 * figure per round"): each stake as it leaves the balance (the bet, then a double, a split or insurance)
 * and, once the round is settled, its net figure (payout − everything staked), never the payout alone.
 * Only what changes while the table is open is told: a bet or a settled round found on joining is not.
 */
export function useTableHeaderChip(bet: number | null, seat: SeatView | null): void {
  // what this round has staked and the chip has told, 0 when no round of the player's is open
  const told = useRef(0);
  const seen = useRef<{ bet: number | null; payout: number | null } | null>(null);
  const staked = seat?.staked ?? 0;
  const payout = seat?.payout ?? null;
  useEffect(() => {
    const before = seen.current;
    seen.current = { bet, payout };
    if (!before) return;
    if (before.bet === null && bet !== null) {
      sharedStakePlaced(bet);
      told.current = bet;
    } else if (told.current > 0 && payout === null && staked > told.current) {
      sharedStakePlaced(staked - told.current);
      told.current = staked;
    }
    if (told.current > 0 && before.payout === null && payout !== null) {
      sharedRoundSettled(payout - staked, payout);
      told.current = 0;
    }
  }, [bet, staked, payout]);
}
