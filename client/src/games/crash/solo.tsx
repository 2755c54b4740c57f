import { useEffect, useState } from "react";
import { animate, motion, useMotionValue, useTransform } from "motion/react";
import { MAX_CASH_OUT, MIN_CASH_OUT, type CrashParams, type CrashState } from "@casino/common/games/crash/engine";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import type { HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { CASH_OUT_CHANCES } from "./chances";
import { useTarget } from "../shared/TargetField";
import { formatMultiplier } from "../shared/format";
import type { StakeText } from "../shared/use-stake";

const W = 600;
const H = 300;
/** The flight lasts longer for a higher crash point, within bounds. */
const flightMs = (crashPoint: number) => Math.min(1000, 300 + 300 * Math.log(Math.max(1, crashPoint)));
const revealMs = (a: BetAnswer) => flightMs((a.view as CrashState).crashPoint);

/** The curve m(p) = crash^p for p in [0, 1], drawn to the crash point. */
function curvePath(crash: number, top: number): string {
  const points: string[] = [];
  for (let i = 0; i <= 60; i++) {
    const p = i / 60;
    const m = crash ** p;
    points.push(`${(p * W).toFixed(1)},${(H - ((m - 1) / (top - 1 || 1)) * (H - 20)).toFixed(1)}`);
  }
  return `M ${points.join(" L ")}`;
}

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <>
      <p>
        Set your automatic cash-out (from {MIN_CASH_OUT}× to {MAX_CASH_OUT.toLocaleString("en-US")}×) and bet. The multiplier rises from
        1.00× until it crashes. If it reaches your cash-out before crashing, you win your bet times the cash-out; otherwise you lose the
        bet.
      </p>
      <p className="mt-2">
        The crash point comes from your own provably-fair stream; the chance of reaching x is 99 % ÷ x, and 1 in about 50 rounds crashes at
        1.00×.
      </p>
    </>
  ),
  payTable: CASH_OUT_CHANCES,
  rtpRows: (bet) => !bet.includes("shared room"),
};

const SOLO_CRASH: StakeGame<CrashState> = { reveal: revealMs, help: HELP, label: "Bet", auto: true };

/** The crash of a player alone: their own provably-fair stream, one bet at a time. */
export function SoloCrash(props: GameTableProps & { amount?: StakeText }) {
  const table = useStakeTable(props, SOLO_CRASH, props.amount);
  const { round, view: last } = table;
  const cashField = useTarget("2.00", `Enter a cash-out from ${MIN_CASH_OUT}× to ${MAX_CASH_OUT.toLocaleString("en-US")}×`);
  const params: CrashParams = { cashOutAt: cashField.value };

  const progress = useMotionValue(0);
  const multiplier = useTransform(progress, (p) => formatMultiplier(last ? last.crashPoint ** p : 1));
  // the flight of the last settled round has landed once its count is the table's settled count
  const [landedCount, setLandedCount] = useState(0);
  const landed = landedCount === round.settledCount;
  useEffect(() => {
    if (!last) return;
    const flight = round.settledCount;
    progress.set(0);
    const controls = animate(progress, 1, {
      duration: flightMs(last.crashPoint) / 1000,
      ease: "easeIn",
      onComplete: () => setLandedCount(flight),
    });
    return () => controls.stop();
  }, [round.settledCount]); // eslint-disable-line react-hooks/exhaustive-deps

  const top = last ? Math.max(last.crashPoint, Math.min(last.cashOutAt, last.crashPoint * 1.5), 1.2) : 2;
  const cashY = last ? H - ((last.cashOutAt - 1) / (top - 1)) * (H - 20) : null;

  return (
    <StakeTableFrame
      table={table}
      panel={{
        params,
        pending: round.pending || !landed,
        target: { field: cashField, label: "Auto cash-out", testId: "crash-cashout" },
      }}
    >
      <div className="relative flex h-full min-h-72 flex-col">
        <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" preserveAspectRatio="none" aria-hidden>
          <rect x={0} y={0} width={W} height={H} fill="transparent" />
          {cashY !== null && cashY > 0 && (
            <g>
              <line x1={0} x2={W} y1={cashY} y2={cashY} stroke="#fbbf24" strokeDasharray="6 6" strokeWidth={2} />
              <text x={W - 4} y={cashY - 6} textAnchor="end" fill="#fbbf24" fontSize={14}>
                cash-out {formatMultiplier(last!.cashOutAt)}
              </text>
            </g>
          )}
          {last && (
            <motion.path
              key={round.settledCount}
              d={curvePath(last.crashPoint, top)}
              fill="none"
              stroke={landed ? (last.win ? "#34d399" : "#fb7185") : "#e2e8f0"}
              strokeWidth={5}
              strokeLinecap="round"
              style={{ pathLength: progress }}
            />
          )}
        </svg>
        <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center gap-2">
          <motion.div
            data-testid="crash-multiplier"
            className={`rounded-2xl bg-card/90 px-4 text-5xl font-black tabular-nums sm:text-6xl ${last && landed ? (last.win ? "text-positive" : "text-destructive") : "text-foreground"}`}
          >
            {last ? multiplier : "1.00×"}
          </motion.div>
          {last && landed && (
            <p
              data-testid="crash-point"
              data-value={last.crashPoint}
              className="rounded-full bg-card/90 px-3 py-0.5 text-sm text-foreground"
            >
              Crashed at {formatMultiplier(last.crashPoint)} {last.win ? `· cashed out at ${formatMultiplier(last.cashOutAt)}` : ""}
            </p>
          )}
        </div>
        <div className="mt-auto">
          <RoundResult round={landed ? round.round : null} />
        </div>
      </div>
    </StakeTableFrame>
  );
}
