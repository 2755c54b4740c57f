import { useState } from "react";
import { motion } from "motion/react";
import { MAX_MINES, MIN_MINES, TILES, minesMultiplier, type MinesParams } from "@casino/common/games/mines/engine";
import { minesSafeChance } from "@casino/common/games/mines/engine";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { ActionButton } from "../shared/ActionButton";
import { PayTable } from "../shared/GameHelp";
import { GemIcon, MineIcon } from "../shared/icons";
import { RoundResult } from "../shared/RoundResult";
import { formatChance, formatMultiplier, payoutText } from "../shared/format";

/** The engine's view (common/games/mines): the mines appear once the round is over. */
interface MinesView {
  mineCount: number;
  revealed: number[];
  status: "open" | "lost" | "cashed";
  multiplier: number;
  /** a cash-out now pays cashValue or cashValueUp: cashValueExact rounded down and up (rule 2) */
  cashValue: number;
  cashValueUp: number;
  cashValueExact: number;
  nextMultiplier: number;
  mines?: number[];
  hit?: number | null;
}

const REVEAL_MS = 600;
const COUNTS = Array.from({ length: MAX_MINES - MIN_MINES + 1 }, (_, i) => MIN_MINES + i);
const multiplierOf = (mines: number, gems: number) => {
  const [n, d] = minesMultiplier(mines, gems);
  return n / d;
};

/** The rules of the game, for its help. */
const RULES = (
  <ul className="list-disc space-y-1 pl-5">
    <li>
      {TILES} tiles hide {MIN_MINES}–{MAX_MINES} mines (your choice) placed when you bet. Reveal tiles one by one: each gem raises the
      multiplier, a mine loses the bet.
    </li>
    <li>Cash out any time after the first gem. Finding every gem cashes out by itself.</li>
    <li>After k gems the multiplier is 0.99 × C(25, k) ÷ C(25 − mines, k), so any cash-out returns 99 %.</li>
  </ul>
);

const MINES: StakeGame<MinesView> = { reveal: REVEAL_MS, label: "Bet" };

export default function MinesTable(props: GameTableProps) {
  const table = useStakeTable(props, MINES);
  const { round, view, open, ready } = table;
  const [mines, setMines] = useState(3);
  const params: MinesParams = { mines };
  const mineCount = view?.mineCount ?? mines;
  const gems = view?.revealed.length ?? 0;

  return (
    <StakeTableFrame
      table={table}
      help={{
        rules: RULES,
        payTable: (
          <PayTable
            head={[`Gems (${mineCount} mine${mineCount === 1 ? "" : "s"})`, "Multiplier"]}
            rows={Array.from({ length: Math.min(TILES - mineCount, 12) }, (_, i) => i + 1).map((k) => ({
              label: `${k} · reached ${formatChance(0.99 / multiplierOf(mineCount, k))}`,
              pays: formatMultiplier(multiplierOf(mineCount, k)),
            }))}
          />
        ),
      }}
      panel={{
        params,
        roundActions: (
          <ActionButton testId="mines-cashout" tone="gold" enabled={ready && gems > 0} onClick={() => void round.act({ type: "cashout" })}>
            Cash out{" "}
            {gems > 0 && view
              ? `${payoutText(view.cashValueExact, { low: view.cashValue, high: view.cashValueUp })} (${formatMultiplier(view.multiplier)})`
              : ""}
          </ActionButton>
        ),
      }}
    >
      <div className="flex flex-col items-center gap-4">
        {/* The count is chosen on the table, above its grid: in view before the first bet on any screen. */}
        <label className="flex w-full max-w-md items-center justify-between gap-3 text-sm text-muted-foreground">
          Mines on the grid
          <select
            aria-label="Mines"
            data-testid="mines-count"
            value={mines}
            disabled={!!open || round.pending}
            onChange={(e) => setMines(Number(e.target.value))}
            className="min-h-9 rounded-lg border border-border bg-background px-3 py-1.5 text-foreground"
          >
            {COUNTS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <div className="flex w-full max-w-md justify-between text-xs text-muted-foreground sm:text-sm">
          <span>
            Multiplier{" "}
            <strong className="text-foreground" data-testid="mines-multiplier">
              {view && gems > 0 ? formatMultiplier(view.multiplier) : "—"}
            </strong>
          </span>
          <span>
            Next{" "}
            <strong className="text-foreground">
              {view && open && view.nextMultiplier > 0 ? formatMultiplier(view.nextMultiplier) : "—"}
            </strong>
          </span>
          <span>
            Safe tile <strong className="text-foreground">{open ? formatChance(minesSafeChance(mineCount, gems)) : "—"}</strong>
          </span>
        </div>
        <div className="grid w-full max-w-md grid-cols-5 gap-2" role="group" aria-label="Mines grid">
          {Array.from({ length: TILES }, (_, tile) => {
            const gem = !!view && view.revealed.includes(tile);
            const mine = !!view?.mines?.includes(tile);
            const hit = view?.hit === tile;
            // once the round is over every tile shows what it held: the mines, and the gems not picked
            const over = !!round.round?.done && !!view?.mines;
            const missed = over && !gem && !mine;
            const state = gem ? "gem" : mine ? "mine" : missed ? "gem-missed" : "hidden";
            const name = gem ? "gem" : hit ? "mine, hit" : mine ? "mine" : missed ? "gem, not picked" : "hidden";
            return (
              <motion.button
                key={`${round.round?.roundId ?? "none"}-${tile}`}
                type="button"
                data-testid={`mines-tile-${tile}`}
                data-state={state}
                data-hit={hit || undefined}
                aria-label={`Tile ${tile + 1}: ${name}`}
                disabled={!ready || gem}
                onClick={() => void round.act({ type: "reveal", tile })}
                whileTap={{ scale: 0.92 }}
                className={`flex aspect-square items-center justify-center rounded-lg border text-2xl shadow sm:text-3xl ${
                  hit
                    ? "border-rose-700 bg-rose-400 ring-2 ring-rose-500"
                    : gem
                      ? "border-positive bg-positive/25"
                      : mine
                        ? "border-rose-300 bg-rose-100"
                        : missed
                          ? "border-dashed border-positive/60 bg-card/60"
                          : "border-foreground/15 bg-muted hover:bg-border disabled:hover:bg-muted"
                } ${state === "hidden" && ready ? "cursor-pointer" : ""}`}
              >
                {state !== "hidden" && (
                  <motion.span
                    initial={{ scale: 0, rotate: -90 }}
                    animate={{ scale: 1, rotate: 0 }}
                    transition={{ type: "spring", stiffness: 300, damping: 15 }}
                  >
                    {gem || missed ? <GemIcon size={34} /> : <MineIcon size={34} />}
                  </motion.span>
                )}
              </motion.button>
            );
          })}
        </div>
        {!view && <p className="text-sm text-muted-foreground">Choose the number of mines, set your bet and press Bet.</p>}
        <RoundResult round={round.round} />
      </div>
    </StakeTableFrame>
  );
}
