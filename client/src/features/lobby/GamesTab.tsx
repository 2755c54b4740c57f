import { gamesAvailable } from "@casino/common/format";
import { gamesByCategory, mostPlayed } from "@casino/common/lobby";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { GameTile } from "./GameTile";
import { MostPlayed } from "./MostPlayed";
import { useGameStats } from "./useGameStats";
import { usePlayable } from "./usePlayable";

const GROUPS = gamesByCategory();

/** Most Played, then the six categories with their games. */
export function GamesTab() {
  const stats = useGameStats();
  const playable = usePlayable();
  const openGame = useLobby((s) => s.openGame);
  const connectionLost = useRoom((s) => s.status === "lost");
  const popular = stats.data ? (mostPlayed(stats.data)[0]?.game.id ?? null) : null;
  return (
    <div>
      <MostPlayed stats={stats.data} />
      <div className="space-y-8">
        {GROUPS.map(({ category, games }) => (
          <section key={category} aria-labelledby={`category-${category}`} data-testid="category">
            <div className="mb-3 flex items-baseline justify-between gap-3">
              <h2 id={`category-${category}`} className="text-lg font-bold sm:text-xl">
                {category}
              </h2>
              <p className="text-sm text-muted-foreground" data-testid="category-count">
                {gamesAvailable(games.length)}
              </p>
            </div>
            <div className="grid grid-cols-2 gap-2.5 sm:gap-3 lg:grid-cols-3">
              {games.map((game) => (
                <GameTile
                  key={game.id}
                  game={game}
                  popular={popular === game.id}
                  wip={playable !== null && !playable.has(game.id)}
                  lockMessage={connectionLost && game.kind === "chance" ? "Connection lost: reconnect to play." : null}
                  onPlay={() => openGame(game.id)}
                />
              ))}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
