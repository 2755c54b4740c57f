import { Flame, Sparkles } from "lucide-react";
import { mostPlayed, type GameStat } from "@casino/common/lobby";
import { formatCoins } from "@casino/common/format";
import { PICK_HEIGHT, PickButton, PickList, PickRow } from "./PickRow";

/**
 * Most Played: the player's top 3 games, as one compact row. Hidden when the stats cannot be read, and
 * while unknown on a device that never opened a game. On a device that has (`keepPlace`), its place is
 * kept from the first render: an invisible row while the counts load, a line while no round is counted
 * (each as tall as the row's buttons), so the catalogue below never moves under a finger when the
 * answer arrives.
 */
export function MostPlayed({ stats, keepPlace }: { stats: GameStat[] | undefined; keepPlace: boolean }) {
  const top = stats ? mostPlayed(stats) : [];
  if (top.length === 0 && !keepPlace) return null;
  return (
    <PickRow
      id="most-played"
      title="Most Played"
      icon={<Flame className="h-4 w-4 text-destructive" aria-hidden />}
      hidden={stats === undefined}
    >
      {top.length === 0 ? (
        <p className={`flex ${PICK_HEIGHT} items-center text-sm text-muted-foreground`}>
          Your three most played games show here once you play a round.
        </p>
      ) : (
        <PickList>
          {top.map(({ game, playCount, popular }) => (
            <PickButton
              key={game.id}
              game={game}
              testId={`most-played-${game.id}`}
              label={`Play ${game.title}`}
              detail={
                <>
                  {formatCoins(playCount)} {playCount === 1 ? "play" : "plays"}
                  {popular && (
                    <span className="inline-flex items-center gap-0.5 font-semibold text-gold-ink" title="Popular">
                      <Sparkles className="animate-sparkle h-3 w-3" aria-hidden />
                      <span className="sr-only sm:not-sr-only">Popular</span>
                    </span>
                  )}
                </>
              }
            />
          ))}
        </PickList>
      )}
    </PickRow>
  );
}
