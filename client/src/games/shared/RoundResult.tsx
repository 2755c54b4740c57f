import { motion } from "motion/react";
import { formatCoins, formatMultiplier } from "./format";
import type { ShownRound } from "./use-round";

/**
 * The settled outcome of the last round, exactly as the server answered it: net coins, payout and the
 * balance after. Appears once the table's reveal animation has played (`delay` seconds).
 */
export function RoundResult(props: { round: ShownRound<unknown> | null; delay?: number; detail?: string }) {
  const { round, delay = 0, detail } = props;
  const shown = round && round.done && round.answer ? round : null;
  const net = shown ? shown.totalPayout - shown.totalStake : 0;
  const text = !shown
    ? ""
    : shown.result === "win"
      ? `You won +${formatCoins(net)} coins`
      : shown.result === "push"
        ? "Push: your bet is returned"
        : net < 0
          ? `You lost ${formatCoins(-net)} coin${net === -1 ? "" : "s"}`
          : "No win";
  const tone =
    shown?.result === "win"
      ? "bg-emerald-500/90 text-slate-950"
      : shown?.result === "push"
        ? "bg-slate-600/90 text-foreground"
        : "bg-card/90 text-foreground";
  return (
    <div className="pointer-events-none flex min-h-10 justify-center" aria-live="polite">
      {shown && (
        <motion.div
          key={shown.answer!.requestId}
          data-testid="round-result"
          data-result={shown.result ?? ""}
          data-stake={shown.totalStake}
          data-payout={shown.totalPayout}
          data-balance={shown.answer!.balance}
          initial={{ opacity: 0, y: 8, scale: 0.95 }}
          animate={{ opacity: 1, y: 0, scale: 1, transition: { delay } }}
          className={`rounded-full px-4 py-1.5 text-sm font-semibold shadow-lg ${tone}`}
        >
          {text}
          {shown.totalStake > 0 && shown.totalPayout > 0 && (
            <span className="ml-2 font-normal opacity-80">
              {formatMultiplier(shown.totalPayout / shown.totalStake)} · paid {formatCoins(shown.totalPayout)}
            </span>
          )}
          {detail && <span className="ml-2 font-normal opacity-80">{detail}</span>}
        </motion.div>
      )}
    </div>
  );
}
