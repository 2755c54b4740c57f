import { Flame, Sparkles } from "lucide-react";
import { mostPlayed, type GameStat } from "@casino/common/lobby";
import { formatCoins } from "@casino/common/format";
import { useLobby } from "../../store/lobby";
import { playSound } from "../../ui/sounds";
import { GameIcon } from "./GameIcon";

/** Most Played: the player's top 3 games; hidden while unknown and when the stats cannot be read. */
export function MostPlayed({ stats }: { stats: GameStat[] | undefined }) {
  const openGame = useLobby((s) => s.openGame);
  if (!stats) return null;
  const top = mostPlayed(stats);
  if (top.length === 0) return null;
  return (
    <section aria-labelledby="most-played" className="mb-8">
      <h2 id="most-played" className="mb-3 flex items-center gap-2 text-xl font-bold">
        <Flame className="h-5 w-5 text-destructive" aria-hidden /> Most Played
      </h2>
      <ul className="grid gap-3 sm:grid-cols-3">
        {top.map(({ game, playCount, popular }) => (
          <li key={game.id} data-testid={`most-played-${game.id}`}>
            <button
              className="flex w-full items-center gap-3 rounded-2xl border border-border bg-card p-3 text-left hover:border-primary/60"
              onClick={() => {
                playSound("click");
                openGame(game.id);
              }}
              aria-label={`Play ${game.title}`}
            >
              <span className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-primary/15 text-primary-ink">
                <GameIcon id={game.id} className="h-5 w-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold">{game.title}</span>
                <span className="block text-xs text-muted-foreground">
                  {formatCoins(playCount)} {playCount === 1 ? "play" : "plays"}
                </span>
              </span>
              {popular && (
                <span className="inline-flex items-center gap-1 rounded-full bg-gold/20 px-2 py-0.5 text-xs font-semibold text-gold">
                  <Sparkles className="animate-sparkle h-3 w-3" aria-hidden /> Popular
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
