import { PlayCircle } from "lucide-react";
import { gameDefinition } from "@casino/common/catalogue";
import { formatCoins } from "@casino/common/format";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { Button } from "../../ui/Button";
import { GameArt } from "./GameArt";

/**
 * The player's open round (a blackjack hand, a mines board, ...), as the casino room mirrors it in its
 * state: after a reload or on another device the lobby offers to go back to it.
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
      className="mb-6 flex items-center gap-3 rounded-2xl border border-primary/60 bg-card p-3 shadow-sm sm:p-4"
    >
      <GameArt id={game.id} className="h-14 w-24 shrink-0 overflow-hidden rounded-lg sm:h-16 sm:w-28" />
      <div className="min-w-0 flex-1">
        <h2 id="resume-heading" className="font-bold leading-tight">
          Your {game.title} round is still open
        </h2>
        <p className="text-sm text-muted-foreground">{formatCoins(open.totalStake)} coins in play. Pick up where you left off.</p>
      </div>
      <Button onClick={() => openGame(game.id)} className="shrink-0">
        <PlayCircle className="h-4 w-4" aria-hidden /> Resume
      </Button>
    </section>
  );
}
