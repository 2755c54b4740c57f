import { useState } from "react";
import { motion } from "motion/react";
import { coinFlipEngine, type CoinFlipParams, type CoinFlipState, type CoinSide } from "@casino/common/games/coin-flip/engine";
import type { GameTableProps } from "../contract";
import type { HelpContent } from "../shared/GameHelp";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { RoundResult } from "../shared/RoundResult";

const REVEAL_MS = 900;
const SIDES: CoinSide[] = ["heads", "tails"];
/** What a correct call pays per coin, from the engine. */
const PAYS = coinFlipEngine.maxPayout(100, { side: "heads" }) / 100;

/** The game's help: its rules. */
const HELP: HelpContent = {
  rules: (
    <p>
      Call heads or tails. The server flips the coin; a correct call pays back {PAYS} times your bet (made whole as below). Each side comes
      up half the time.
    </p>
  ),
};

const COIN_FLIP: StakeGame<CoinFlipState> = { reveal: REVEAL_MS, help: HELP, label: "Flip", auto: true };

export default function CoinFlipTable(props: GameTableProps) {
  const table = useStakeTable(props, COIN_FLIP);
  const { round, view: last } = table;
  const [side, setSide] = useState<CoinSide>("heads");
  const params: CoinFlipParams = { side };
  // five turns, landing heads (0°) or tails (180°) up
  const turns = round.settledCount * 5 * 360 + (last?.outcome === "tails" ? 180 : 0);

  return (
    <StakeTableFrame
      table={table}
      panel={{
        params,
        children: (
          <div className="grid grid-cols-2 gap-2" role="radiogroup" aria-label="Your call">
            {SIDES.map((s) => (
              <button
                key={s}
                type="button"
                role="radio"
                aria-checked={side === s}
                data-testid={`coin-${s}`}
                disabled={round.pending}
                onClick={() => setSide(s)}
                className={`rounded-lg py-2 font-semibold capitalize ${side === s ? "bg-amber-400 text-slate-950" : "border border-border bg-muted text-foreground hover:bg-border"}`}
              >
                {s}
              </button>
            ))}
          </div>
        ),
      }}
    >
      <div className="flex h-full min-h-72 flex-col items-center justify-center gap-6" style={{ perspective: 800 }}>
        <motion.div
          className="relative h-40 w-40"
          style={{ transformStyle: "preserve-3d" }}
          animate={{ rotateY: turns }}
          transition={{ duration: REVEAL_MS / 1000, ease: [0.2, 0.7, 0.3, 1] }}
        >
          <div className="absolute inset-0 flex items-center justify-center rounded-full border-8 border-amber-300 bg-amber-400 text-2xl font-black text-amber-900 shadow-xl [backface-visibility:hidden]">
            HEADS
          </div>
          <div className="absolute inset-0 flex items-center justify-center rounded-full border-8 border-slate-300 bg-slate-400 text-2xl font-black text-slate-800 shadow-xl [backface-visibility:hidden] [transform:rotateY(180deg)]">
            TAILS
          </div>
        </motion.div>
        <p data-testid="coin-outcome" data-outcome={last?.outcome ?? ""} className="min-h-6 text-lg font-semibold capitalize">
          {last && (
            <motion.span initial={{ opacity: 0 }} animate={{ opacity: 1, transition: { delay: REVEAL_MS / 1000 } }}>
              {last.outcome}
            </motion.span>
          )}
        </p>
        <RoundResult round={round.round} />
      </div>
    </StakeTableFrame>
  );
}
