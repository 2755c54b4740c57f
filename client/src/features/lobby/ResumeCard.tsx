import { PlayCircle } from "lucide-react";
import { gameDefinition } from "@casino/common/catalogue";
import { formatCoins } from "@casino/common/format";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { Button } from "../../ui/Button";
import { GameArt } from "./GameArt";

/**
 * The player's open round (a blackjack hand, a mines board, ...), as the casino room mirrors it in its
 * state: after a reload or on another device the lobby offers to go back to it, in one compact row.
 */
export function ResumeCard() {
  const open = useRoom((s) => s.openRound);
  const openGame = useLobby((s) => s.openGame);
  const game = open ? gameDefinition(open.game) : undefined;
  if (!open || !game) return null;
  return (
    <section
      aria-labelledby="resume-heading"
      data-testid="resume-card"
      className="mb-4 flex items-center gap-2.5 rounded-xl border border-primary/60 bg-card p-1.5 pr-2 shadow-sm"
    >
      <GameArt id={game.id} className="h-11 w-16 shrink-0 overflow-hidden rounded-lg" />
      <div className="min-w-0 flex-1">
        <h2 id="resume-heading" className="truncate text-sm font-bold leading-tight">
          {/* on a phone the short form, "Mines round open", on one line */}
          <span className="hidden sm:inline">Your </span>
          {game.title} round<span className="hidden sm:inline"> is still</span> open
        </h2>
        <p className="truncate text-xs text-muted-foreground">
          {formatCoins(open.totalStake)} coins in play.<span className="hidden sm:inline"> Pick up where you left off.</span>
        </p>
      </div>
      <Button onClick={() => openGame(game.id)} className="shrink-0">
        <PlayCircle className="h-4 w-4" aria-hidden /> Resume
      </Button>
    </section>
  );
}
