import { spinAvailability } from "@casino/common/format";
import { useSession } from "../../store/session";
import { useNow } from "../../ui/useNow";

/** Whether the daily spin can be claimed now, and else how long until it can (re-read every 30 s). */
export function useSpinAvailability(): { ready: boolean; msLeft: number } {
  const lastSpin = useSession((s) => s.player?.lastDailySpin ?? null);
  const now = useNow(30_000);
  return spinAvailability(lastSpin, now);
}
