import { MAX_SKIPS, RANKS, winningRanks, type HiLoMove } from "@casino/common/games/hi-lo/engine";
import { rankOf, type Card } from "@casino/common/games/cards";
import type { GameTableProps } from "../contract";
import type { HelpContent } from "../shared/GameHelp";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { PlayingCard } from "../shared/Cards";
import { RoundResult } from "../shared/RoundResult";
import { formatChance, formatMultiplier, payoutText } from "../shared/format";

/** The engine's view (common/games/hi-lo): nothing is hidden, the next card does not exist yet. */
interface HiLoView {
  amount: number;
  cards: Card[];
  moves: HiLoMove[];
  correct: number;
  skips: number;
  status: "open" | "lost" | "cashed";
  card: Card;
  multiplier: number;
  /** a cash-out now pays cashValue or cashValueUp: cashValueExact rounded down and up (rule 2) */
  cashValue: number;
  cashValueUp: number;
  cashValueExact: number;
  higher: number;
  lower: number;
  skipsLeft: number;
}

const REVEAL_MS = 500;
const MOVE_MARK: Record<HiLoMove, string> = { higher: "▲", lower: "▼", skip: "↷" };

/** The game's help: its rules. */
const HELP: HelpContent = {
  rules: (
    <ul className="list-disc space-y-1 pl-5">
      <li>Each card is drawn from an unlimited deck: every card is equally likely every time. Ranks run 2 (lowest) to ace (highest).</li>
      <li>
        Guess whether the next card is higher or the same, or lower or the same. A correct guess multiplies your winnings; a wrong one ends
        the round.
      </li>
      <li>
        The multiplier of a guess is 13 ÷ (the ranks that win it); the 1 % edge is taken once, at cash-out. Cash out any time after one
        correct guess.
      </li>
      <li>
        Skip a card for free, up to {MAX_SKIPS} times a round. A guess that cannot lose (higher on a 2, lower on an ace) is not offered:
        skip instead.
      </li>
    </ul>
  ),
};

const HI_LO: StakeGame<HiLoView> = { reveal: REVEAL_MS, help: HELP, label: "Bet" };

export default function HiLoTable(props: GameTableProps) {
  const table = useStakeTable(props, HI_LO);
  const { round, view, ready } = table;
  const rank = view ? rankOf(view.card) : 0;
  const chance = (guess: "higher" | "lower") => (view ? winningRanks(rank, guess) / RANKS : 0);
  const guess = (g: "higher" | "lower") => (
    <>
      {g === "higher" ? "Higher or same" : "Lower or same"}
      <span className="block text-xs font-normal">
        {view && view[g] > 0 ? `${formatChance(chance(g))} · ${formatMultiplier(view[g])}` : "—"}
      </span>
    </>
  );

  return (
    <StakeTableFrame
      table={table}
      panel={{
        actions: [
          { testId: "hilo-higher", tone: "go", enabled: ready && view!.higher > 0, action: { type: "higher" }, label: guess("higher") },
          { testId: "hilo-lower", tone: "stop", enabled: ready && view!.lower > 0, action: { type: "lower" }, label: guess("lower") },
          {
            testId: "hilo-skip",
            enabled: ready && view!.skipsLeft > 0,
            action: { type: "skip" },
            label: `Skip (${view?.skipsLeft ?? MAX_SKIPS})`,
          },
          {
            testId: "hilo-cashout",
            tone: "gold",
            enabled: ready && view!.correct > 0,
            action: { type: "cashout" },
            label: `Cash out ${view && view.correct > 0 ? payoutText(view.cashValueExact, { low: view.cashValue, high: view.cashValueUp }) : ""}`,
          },
        ],
      }}
    >
      <div className="flex h-full flex-col items-center gap-5">
        <div className="flex w-full items-center justify-between text-sm">
          <span className="text-muted-foreground">
            Correct guesses{" "}
            <strong className="text-foreground" data-testid="hilo-correct">
              {view?.correct ?? 0}
            </strong>
          </span>
          <span className="text-muted-foreground">
            Multiplier{" "}
            <strong className="text-foreground tabular-nums" data-testid="hilo-multiplier">
              {view && view.multiplier > 0 ? formatMultiplier(view.multiplier) : "—"}
            </strong>
          </span>
        </div>
        <div className="flex items-center justify-center gap-6" data-testid="hilo-card" data-card={view?.card ?? ""}>
          {view ? (
            <PlayingCard key={`${round.round?.roundId}-${view.cards.length}`} card={view.card} highlight={view.status === "lost"} />
          ) : (
            <PlayingCard card={null} />
          )}
        </div>
        {view && (
          <p className="text-sm font-semibold" data-testid="hilo-status" data-status={view.status}>
            {view.status === "lost" ? (
              <span className="text-destructive">Wrong guess: the round is lost</span>
            ) : view.status === "cashed" ? (
              <span className="text-positive">Cashed out</span>
            ) : (
              ""
            )}
          </p>
        )}
        <div className="flex max-w-full flex-wrap justify-center gap-1 pb-1" role="group" aria-label="Cards of this round">
          {(view?.cards ?? []).slice(0, -1).map((c, i) => (
            <div key={i} className="flex flex-col items-center gap-0.5">
              <PlayingCard card={c} size="sm" dim />
              <span className="text-xs text-muted-foreground">{MOVE_MARK[view!.moves[i]!]}</span>
            </div>
          ))}
        </div>
        {!view && <p className="text-sm text-muted-foreground">Set your bet and press Bet to draw the first card.</p>}
        <div className="mt-auto w-full">
          <RoundResult round={round.round} />
        </div>
      </div>
    </StakeTableFrame>
  );
}
