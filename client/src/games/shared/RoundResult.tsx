import { useLayoutEffect } from "react";
import { motion } from "motion/react";
import { CircleX, Equal, Trophy } from "lucide-react";
import { roundResultText } from "@casino/common/format";
import { revealed } from "../../store/room";
import { formatMultiplier, paidText } from "./format";
import type { ShownRound } from "./use-round";

/**
 * The settled outcome of the last round, exactly as the server answered it: net coins, payout and the
 * balance after, in words with an icon (never by colour alone). Appears once the table's reveal
 * animation has played (`round.revealed`). Its appearance is the moment the round's outcome may be told
 * anywhere else: it tells the room store (`revealed`), which releases the payout to the header's
 * balance, the round's rows and its toast, in the same frame, never before.
 * `bets`: how many separate bets the round held. Its slot says where the last round is
 * (`data-round`: none, open, revealing while a settled round waits for its reveal, shown), for tests to
 * wait on.
 */
export function RoundResult(props: { round: ShownRound<unknown> | null; detail?: string; bets?: number }) {
  const { round, detail } = props;
  const shown = round && round.done && round.answer && round.revealed ? round : null;
  const shownId = shown?.answer?.requestId;
  useLayoutEffect(() => {
    if (shownId) revealed(shownId);
  }, [shownId]);
  const text = shown ? roundResultText(shown.result, shown.totalStake, shown.totalPayout, props.bets, shown.unroundedPayout) : "";
  // the multiplier the round reached, before rounding to whole coins
  const reached = shown ? (shown.unroundedPayout ?? shown.totalPayout) : 0;
  const tone =
    shown?.result === "win"
      ? "bg-emerald-400 text-slate-950"
      : shown?.result === "push"
        ? "bg-muted text-foreground ring-1 ring-border"
        : "bg-card text-foreground ring-1 ring-border";
  const Icon = shown?.result === "win" ? Trophy : shown?.result === "push" ? Equal : CircleX;
  return (
    <div
      className="pointer-events-none flex min-h-10 justify-center"
      aria-live="polite"
      data-testid="round-slot"
      data-round={!round ? "none" : round.done && round.answer ? (shown ? "shown" : "revealing") : "open"}
    >
      {shown && (
        <motion.div
          key={shown.answer!.requestId}
          data-testid="round-result"
          data-result={shown.result ?? ""}
          data-stake={shown.totalStake}
          data-payout={shown.totalPayout}
          data-unrounded={shown.unroundedPayout ?? undefined}
          data-balance={shown.answer!.balance}
          initial={{ opacity: 0, y: 8, scale: 0.95 }}
          animate={{ opacity: 1, y: 0, scale: 1, transition: { duration: 0.15 } }}
          className={`rounded-full px-4 py-1.5 text-sm font-semibold shadow-lg ${tone}`}
        >
          <Icon className="mr-1.5 inline h-4 w-4 align-[-3px]" aria-hidden />
          {text}
          {shown.totalStake > 0 && shown.totalPayout > 0 && (
            <span className="ml-2 font-normal opacity-80">
              {formatMultiplier(reached / shown.totalStake)} · {paidText(shown.totalPayout, shown.unroundedPayout)}
            </span>
          )}
          {detail && <span className="ml-2 font-normal opacity-80">{detail}</span>}
        </motion.div>
      )}
    </div>
  );
}
