import { useState } from "react";
import { motion } from "motion/react";
import { MAX_CHANCE, MIN_CHANCE, ROLLS, diceEngine, type DiceParams, type DiceState } from "@casino/common/games/dice/engine";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { useTarget } from "../shared/TargetField";
import { formatChance, formatMultiplier } from "../shared/format";

const REVEAL_MS = 450;
const LAST = (ROLLS - 1) / 100; // 99.99

/** The range of targets the engine accepts for a direction: win chance from MIN_CHANCE to MAX_CHANCE. */
const targetRange = (direction: DiceParams["direction"]): [number, number] =>
  direction === "under" ? [MIN_CHANCE / 100, MAX_CHANCE / 100] : [(ROLLS - 1 - MAX_CHANCE) / 100, (ROLLS - 1 - MIN_CHANCE) / 100];

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <>
      <p>
        The server rolls a number from 0.00 to {LAST.toFixed(2)} ({ROLLS.toLocaleString("en-US")} equally likely rolls). Roll under wins
        when the roll is below your target; roll over wins when it is above.
      </p>
      <p className="mt-2">
        Your win chance is from {formatChance(MIN_CHANCE / ROLLS)} to {formatChance(MAX_CHANCE / ROLLS)}. A win pays 99 ÷ chance (in
        percent) times your bet, made whole as below.
      </p>
    </>
  ),
  payTable: (
    <PayTable
      head={["Win chance", "Pays"]}
      rows={[MAX_CHANCE, 5000, 2500, 1000, 100, MIN_CHANCE].map((c) => ({
        label: formatChance(c / ROLLS),
        // what the engine pays a 10,000-coin bet under that target, per coin
        pays: formatMultiplier(diceEngine.maxPayout(10_000, { target: c / 100, direction: "under" }) / 10_000),
      }))}
    />
  ),
};

const DICE: StakeGame<DiceState> = { reveal: REVEAL_MS, help: HELP, label: "Roll", auto: true };

export default function DiceTable(props: GameTableProps) {
  const table = useStakeTable(props, DICE);
  const { round, view: last } = table;
  const [direction, setDirection] = useState<DiceParams["direction"]>("under");
  const targetField = useTarget("50", "Enter a target from 0.01 to 99.98");
  const target = targetField.value;
  const [lo, hi] = targetRange(direction);
  const params: DiceParams = { target, direction };

  const flip = () => {
    const next = direction === "under" ? "over" : "under";
    setDirection(next);
    if (Number.isFinite(target)) targetField.setText(String(round2(LAST - target)));
  };

  const sliderValue = Number.isFinite(target) ? Math.min(hi, Math.max(lo, target)) : 50;
  const winFrom = direction === "under" ? 0 : sliderValue;
  const winTo = direction === "under" ? sliderValue : 100;

  return (
    <StakeTableFrame
      table={table}
      panel={{
        params,
        target: {
          field: targetField,
          label: "Target",
          testId: "dice-target",
          beside: (
            <div className="flex flex-col gap-1 text-xs text-muted-foreground">
              Direction
              <button
                type="button"
                data-testid="dice-direction"
                onClick={flip}
                disabled={round.pending}
                className="rounded-lg bg-muted px-3 py-2 font-semibold text-foreground hover:bg-border"
              >
                Roll {direction} ⇄
              </button>
            </div>
          ),
        },
      }}
    >
      <div className="flex h-full flex-col justify-center gap-8 py-8">
        <div className="flex justify-center">
          <motion.div
            key={round.settledCount}
            data-testid="dice-roll"
            initial={{ scale: 0.6, opacity: 0 }}
            animate={{ scale: 1, opacity: 1 }}
            className={`rounded-2xl px-6 py-3 text-5xl font-black tabular-nums ${last ? (last.win ? "text-positive" : "text-destructive") : "text-muted-foreground"}`}
          >
            {last ? last.roll.toFixed(2) : "—"}
          </motion.div>
        </div>
        <div className="relative mx-2 h-14">
          <div className="absolute inset-x-0 top-6 h-3 rounded-full bg-rose-500/80" />
          <div className="absolute top-6 h-3 rounded-full bg-emerald-500" style={{ left: `${winFrom}%`, width: `${winTo - winFrom}%` }} />
          {last && (
            <motion.div
              className="absolute top-0 -ml-4 flex h-8 w-8 items-center justify-center rounded-md bg-white text-[10px] font-bold text-slate-900 shadow"
              initial={false}
              animate={{ left: `${last.roll}%` }}
              transition={{ type: "spring", stiffness: 200, damping: 22 }}
            >
              {Math.round(last.roll)}
            </motion.div>
          )}
          <input
            type="range"
            aria-label="Target slider"
            data-testid="dice-slider"
            min={lo}
            max={hi}
            step={0.01}
            value={sliderValue}
            disabled={round.pending}
            onChange={(e) => targetField.setText(e.target.value)}
            className="absolute inset-x-0 top-3.5 h-8 w-full cursor-pointer appearance-none bg-transparent accent-white"
          />
          <div className="absolute inset-x-0 top-11 flex justify-between text-[10px] text-muted-foreground">
            {[0, 25, 50, 75, 100].map((n) => (
              <span key={n}>{n}</span>
            ))}
          </div>
        </div>
        <RoundResult round={round.round} />
      </div>
    </StakeTableFrame>
  );
}
