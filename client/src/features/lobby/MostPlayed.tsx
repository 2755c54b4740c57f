import { Flame, Sparkles } from "lucide-react";
import { mostPlayed, type GameStat } from "@casino/common/lobby";
import { formatCoins } from "@casino/common/format";
import { useLobby } from "../../store/lobby";
import { playSound } from "../../ui/sounds";
import { GameIcon } from "./GameIcon";

/** One row whatever it holds (one to three games, or the line saying none yet), so its height never changes. */
const ROW = "grid h-16 grid-cols-3 gap-2 sm:gap-3";

/**
 * Most Played: the player's top 3 games, as one compact row. Hidden when the stats cannot be read, and
 * while unknown on a device that never opened a game. On a device that has (`keepPlace`), its place is
 * kept from the first render: an invisible row while the counts load, a line while no round is counted,
 * so the catalogue below never moves under a finger when the answer arrives.
 */
export function MostPlayed({ stats, keepPlace }: { stats: GameStat[] | undefined; keepPlace: boolean }) {
  const openGame = useLobby((s) => s.openGame);
  const top = stats ? mostPlayed(stats) : [];
  if (top.length === 0 && !keepPlace) return null;
  const loading = stats === undefined;
  return (
    <section aria-labelledby="most-played" className={`mb-6 ${loading ? "invisible" : ""}`} aria-hidden={loading || undefined}>
      <h2 id="most-played" className="mb-2 flex items-center gap-2 text-lg font-bold sm:text-xl">
        <Flame className="h-5 w-5 text-destructive" aria-hidden /> Most Played
      </h2>
      {top.length === 0 ? (
        <p className="flex h-16 items-center text-sm text-muted-foreground">
          Your three most played games show here once you play a round.
        </p>
      ) : (
        <ul className={ROW}>
          {top.map(({ game, playCount, popular }) => (
            <li key={game.id} data-testid={`most-played-${game.id}`} className="min-w-0">
              <button
                className="flex h-full w-full items-center gap-2 rounded-2xl border border-border bg-card px-2 text-left hover:border-primary/60 sm:gap-3 sm:px-3"
                onClick={() => {
                  playSound("click");
                  openGame(game.id);
                }}
                aria-label={`Play ${game.title}`}
              >
                <span className="relative hidden h-9 w-9 shrink-0 place-items-center rounded-xl bg-primary/15 text-primary-ink min-[400px]:grid">
                  <GameIcon id={game.id} className="h-5 w-5" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-semibold sm:text-base">{game.title}</span>
                  <span className="flex items-center gap-1 text-xs text-muted-foreground">
                    {formatCoins(playCount)} {playCount === 1 ? "play" : "plays"}
                    {popular && (
                      <span className="inline-flex items-center gap-0.5 font-semibold text-gold-ink" title="Popular">
                        <Sparkles className="animate-sparkle h-3 w-3" aria-hidden />
                        <span className="sr-only sm:not-sr-only">Popular</span>
                      </span>
                    )}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
