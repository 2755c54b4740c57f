import { Lock, Sparkles, Star, TriangleAlert } from "lucide-react";
import type { GameDefinition } from "@casino/common/catalogue";
import { playSound } from "../../ui/sounds";
import { Button } from "../../ui/Button";
import { cn } from "../../ui/cn";
import { useGamePicks } from "../../store/game-picks";
import { GameArt } from "./GameArt";
import { GameIcon } from "./GameIcon";

interface GameTileProps {
  game: GameDefinition;
  popular?: boolean;
  /** No table yet: the game opens the under-development card. */
  wip?: boolean;
  /** Why the game cannot be played now; a locked tile is dimmed and its button disabled. */
  lockMessage?: string | null;
  onPlay(): void;
  /** A game with a shared table (blackjack, poker's Hold'em table): a second button that opens it. */
  onJoinTable?: () => void;
  /** That button's words and test id: "Join the table" and `join-table-<game id>` unless said otherwise. */
  joinTable?: { label: string; testId: string };
  /** Where the tile is shown (a game can be in Favourites and in its category): keeps ids unique. */
  place?: string;
}

/** The star on a tile: adds the game to the player's favourites on this device, or takes it out. */
export function FavouriteButton({ game, className }: { game: GameDefinition; className?: string }) {
  const favourite = useGamePicks((s) => s.favourites.includes(game.id));
  const toggle = useGamePicks((s) => s.toggleFavourite);
  return (
    <button
      type="button"
      aria-pressed={favourite}
      aria-label={favourite ? `Remove ${game.title} from favourites` : `Add ${game.title} to favourites`}
      title={favourite ? "Remove from favourites" : "Add to favourites"}
      onClick={() => toggle(game.id)}
      className={cn("grid h-9 w-9 place-items-center rounded-full bg-black/45 text-white transition hover:bg-black/65", className)}
    >
      <Star className={cn("h-4.5 w-4.5", favourite && "fill-amber-300 text-amber-300")} aria-hidden />
    </button>
  );
}

/**
 * A game card: its illustration (with the favourite star and the Popular and WIP badges over it, so
 * badges that arrive later move nothing), the icon and title, the description, and Play Now.
 */
export function GameTile({ game, popular, wip, lockMessage, onPlay, onJoinTable, joinTable, place = "all" }: GameTileProps) {
  const locked = Boolean(lockMessage);
  const titleId = `game-title-${place}-${game.id}`;
  return (
    <article
      data-testid={place === "all" ? `game-tile-${game.id}` : `${place}-tile-${game.id}`}
      aria-labelledby={titleId}
      className={cn(
        "game-tile flex flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm transition duration-200",
        locked ? "opacity-55" : "hover:border-primary/60 hover:shadow-md",
      )}
    >
      <div className="relative aspect-[16/9] w-full sm:aspect-[2/1]">
        <GameArt id={game.id} className="absolute inset-0 h-full w-full" />
        {locked && (
          <span className="absolute inset-0 grid place-items-center bg-black/40 text-white">
            <Lock className="h-7 w-7" aria-hidden />
          </span>
        )}
        <div className="absolute left-2 top-2 flex flex-wrap gap-1.5">
          {popular && (
            <span className="inline-flex items-center gap-1 rounded-full bg-black/60 px-2 py-0.5 text-xs font-semibold text-amber-300">
              <Sparkles className="animate-sparkle h-3 w-3" aria-hidden /> Popular
            </span>
          )}
          {wip && (
            <span className="inline-flex items-center gap-1 rounded-full bg-black/60 px-2 py-0.5 text-xs font-semibold text-white">
              <TriangleAlert className="h-3 w-3" aria-hidden /> WIP
            </span>
          )}
          {locked && <span className="rounded-full bg-black/60 px-2 py-0.5 text-xs font-semibold text-white">Locked</span>}
        </div>
        <FavouriteButton game={game} className="absolute right-1.5 top-1.5" />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3 sm:gap-2.5 sm:p-4">
        <h3 id={titleId} className="flex items-center gap-1.5 text-sm font-bold leading-tight sm:text-base">
          <GameIcon id={game.id} className="h-4 w-4 shrink-0 text-primary-ink" />
          <span className="min-w-0">{game.title}</span>
        </h3>
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
        {onJoinTable && (
          <Button
            size="sm"
            variant="outline"
            className="-mt-1 w-full sm:mt-0 sm:h-10"
            disabled={locked}
            data-testid={joinTable?.testId ?? `join-table-${game.id}`}
            onClick={() => {
              playSound("click");
              onJoinTable();
            }}
          >
            {joinTable?.label ?? "Join the table"}
          </Button>
        )}
      </div>
    </article>
  );
}
