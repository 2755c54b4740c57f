import { useEffect } from "react";
import { animate, motion, useMotionValue, useTransform } from "motion/react";
import { MAX_TARGET, MIN_TARGET, type LimboParams, type LimboState } from "@casino/common/games/limbo/engine";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { useTarget } from "../shared/TargetField";
import { formatChance, formatMultiplier } from "../shared/format";

const REVEAL_MS = 700;

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <>
      <p>
        Pick a target multiplier from {MIN_TARGET}× to {MAX_TARGET.toLocaleString("en-US")}×. The server draws a result multiplier; if it
        reaches your target, you win your bet times the target.
      </p>
      <p className="mt-2">The chance that the result reaches a target x is 99 % ÷ x, so every target returns 99 %.</p>
    </>
  ),
  payTable: (
    <PayTable
      head={["Target", "Win chance"]}
      rows={[1.01, 1.5, 2, 5, 10, 100, 1000].map((t) => ({ label: formatMultiplier(t), pays: formatChance(0.99 / t) }))}
    />
  ),
};

const LIMBO: StakeGame<LimboState> = { reveal: REVEAL_MS, help: HELP, label: "Bet", auto: true };

export default function LimboTable(props: GameTableProps) {
  const table = useStakeTable(props, LIMBO);
  const { round, view: last } = table;
  const targetField = useTarget("2.00", `Enter a target from ${MIN_TARGET}× to ${MAX_TARGET.toLocaleString("en-US")}×`);
  const target = targetField.value;
  const params: LimboParams = { target };

  const shown = useMotionValue(1);
  const text = useTransform(shown, (v) => formatMultiplier(v));
  useEffect(() => {
    if (!last) return;
    shown.set(1);
    const controls = animate(shown, last.result, { duration: REVEAL_MS / 1000, ease: "easeOut" });
    return () => controls.stop();
  }, [round.settledCount]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <StakeTableFrame
      table={table}
      panel={{
        params,
        target: { field: targetField, label: "Target multiplier", testId: "limbo-target" },
      }}
    >
      <div className="flex h-full min-h-72 flex-col items-center justify-center gap-6">
        <motion.div
          data-testid="limbo-result"
          data-value={last?.result ?? ""}
          className={`text-6xl font-black tabular-nums sm:text-7xl ${last ? (last.win ? "text-positive" : "text-destructive") : "text-muted-foreground"}`}
        >
          {last ? <motion.span>{text}</motion.span> : "1.00×"}
        </motion.div>
        <p className="text-sm text-muted-foreground">
          Target <span className="font-semibold text-foreground">{Number.isFinite(target) ? formatMultiplier(target) : "—"}</span>
        </p>
        <RoundResult round={round.round} />
      </div>
    </StakeTableFrame>
  );
}
