import { LOSE_TOAST_MS, WIN_TOAST_MS } from "@casino/common/constants";
import { netCoinsText } from "@casino/common/format";
import type { BetAnswer } from "@casino/common/protocol";
import { useSettings } from "../../store/settings";
import { toast } from "../../store/toast";
import { refreshLeaderboard } from "../../store/leaderboard";
import { playSound } from "../../ui/sounds";

/**
 * The spec's game end: net = payout − stake of the whole round. A gain: "You won!" "+N coins" for 3 s and
 * the win sound; a loss: "Better luck next time" with the negative amount for 2 s and the lose sound; a
 * push: nothing. The amount is the round's net figure (`netCoinsText`), the one the header's chip, the
 * result line and the history tell. A player who turned result toasts off in Settings hears the sound without the toast (the
 * table shows the result already). During an auto-bet no round has its own toast or sound: the auto-bet
 * tells its summary when it stops. The balance itself comes from the server, never from this arithmetic.
 */
export function announceRoundEnd(answer: BetAnswer): void {
  const { autoBetRunning, resultToastsOn } = useSettings.getState();
  if (autoBetRunning) {
    refreshLeaderboard();
    return;
  }
  const net = answer.totalPayout - answer.totalStake;
  if (net > 0) {
    if (resultToastsOn) toast({ title: "You won!", description: netCoinsText(net), variant: "success", duration: WIN_TOAST_MS });
    playSound("win");
  } else if (net < 0) {
    if (resultToastsOn)
      toast({ title: "Better luck next time", description: netCoinsText(net), variant: "destructive", duration: LOSE_TOAST_MS });
    playSound("lose");
  }
  refreshLeaderboard();
}
