import { Lock, Sparkles, TriangleAlert } from "lucide-react";
import type { GameDefinition } from "@casino/common/catalogue";
import { playSound } from "../../ui/sounds";
import { Button } from "../../ui/Button";
import { cn } from "../../ui/cn";
import { GameIcon } from "./GameIcon";

interface GameTileProps {
  game: GameDefinition;
  popular?: boolean;
  /** No table yet: the game opens the under-development card. */
  wip?: boolean;
  /** Why the game cannot be played now; a locked tile is dimmed and its button disabled. */
  lockMessage?: string | null;
  onPlay(): void;
}

/** A game card: title, description, icon, the Popular and WIP badges, and Play Now. */
export function GameTile({ game, popular, wip, lockMessage, onPlay }: GameTileProps) {
  const locked = Boolean(lockMessage);
  return (
    <article
      data-testid={`game-tile-${game.id}`}
      aria-labelledby={`game-title-${game.id}`}
      className={cn(
        "flex flex-col gap-2.5 rounded-2xl border border-border bg-card p-3 shadow-sm transition duration-200 sm:gap-3 sm:p-4",
        locked ? "opacity-55" : "hover:-translate-y-0.5 hover:border-primary/60 hover:shadow-md",
      )}
    >
      <div className="flex items-start gap-2.5 sm:gap-3">
        <div className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-primary/15 text-primary-ink sm:h-12 sm:w-12">
          {locked ? <Lock className="h-5 w-5 sm:h-6 sm:w-6" aria-hidden /> : <GameIcon id={game.id} className="h-5 w-5 sm:h-6 sm:w-6" />}
        </div>
        <div className="min-w-0 flex-1">
          <h3 id={`game-title-${game.id}`} className="text-sm font-bold leading-tight sm:text-base">
            {game.title}
          </h3>
          <div className="mt-1 flex flex-wrap gap-1.5">
            {popular && (
              <span className="inline-flex items-center gap-1 rounded-full bg-gold/20 px-2 py-0.5 text-xs font-semibold text-gold">
                <Sparkles className="animate-sparkle h-3 w-3" aria-hidden /> Popular
              </span>
            )}
            {wip && (
              <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-xs font-semibold text-muted-foreground">
                <TriangleAlert className="h-3 w-3" aria-hidden /> WIP
              </span>
            )}
            {locked && <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-semibold">Locked</span>}
          </div>
        </div>
      </div>
      <p className="flex-1 text-xs text-muted-foreground sm:min-h-10 sm:text-sm">{locked ? lockMessage : game.description}</p>
      <Button
        size="sm"
        className="w-full sm:h-10"
        disabled={locked}
        onClick={() => {
          playSound("click");
          onPlay();
        }}
      >
        Play Now
      </Button>
    </article>
  );
}
