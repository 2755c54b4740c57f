import { useEffect } from "react";
import { animate, motion, useMotionValue, useTransform } from "motion/react";
import { MAX_TARGET, MIN_TARGET, type LimboParams, type LimboState } from "@casino/common/games/limbo/engine";
import type { GameTableProps } from "../contract";
import { StakeBetPanel } from "../shared/StakeBetPanel";
import { GameFrame } from "../shared/GameFrame";
import { PayTable } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { TargetField, useTarget } from "../shared/TargetField";
import { formatChance, formatMultiplier } from "../shared/format";
import { useRound } from "../shared/use-round";
import { useStake } from "../shared/use-stake";

const REVEAL_MS = 700;

export default function LimboTable(props: GameTableProps) {
  const { game, balance } = props;
  const round = useRound<LimboState>(props, REVEAL_MS);
  const stake = useStake(game.id, balance);
  const targetField = useTarget("2.00", `Enter a target from ${MIN_TARGET}× to ${MAX_TARGET.toLocaleString("en-US")}×`);
  const target = targetField.value;
  const params: LimboParams = { target };

  const last = round.round?.view ?? null;
  const shown = useMotionValue(1);
  const text = useTransform(shown, (v) => formatMultiplier(v));
  useEffect(() => {
    if (!last) return;
    shown.set(1);
    const controls = animate(shown, last.result, { duration: REVEAL_MS / 1000, ease: "easeOut" });
    return () => controls.stop();
  }, [round.settledCount]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <GameFrame
      table={props}
      help={{
        rules: (
          <>
            <p>
              Pick a target multiplier from {MIN_TARGET}× to {MAX_TARGET.toLocaleString("en-US")}×. The server draws a result multiplier; if
              it reaches your target, you win your bet times the target.
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
      }}
      panel={(showHelp) => (
        <StakeBetPanel
          table={props}
          round={round}
          stake={stake}
          params={params}
          paramsProblem={targetField.problem}
          label="Bet"
          onShowHelp={showHelp}
          autoDelayMs={REVEAL_MS}
        >
          <TargetField label="Target multiplier" testId="limbo-target" target={targetField} disabled={round.pending} />
        </StakeBetPanel>
      )}
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
    </GameFrame>
  );
}
