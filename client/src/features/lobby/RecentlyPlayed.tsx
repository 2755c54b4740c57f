import { History } from "lucide-react";
import { gameDefinition } from "@casino/common/catalogue";
import { useGamePicks } from "../../store/game-picks";
import { useLobby } from "../../store/lobby";
import { playSound } from "../../ui/sounds";
import { GameArt } from "./GameArt";

/** The games last opened on this device, the latest first; hidden until one was played. */
export function RecentlyPlayed() {
  const recent = useGamePicks((s) => s.recent);
  const openGame = useLobby((s) => s.openGame);
  const games = recent.map(gameDefinition).filter((g) => g !== undefined);
  if (games.length === 0) return null;
  return (
    <section aria-labelledby="recently-played" className="mb-8">
      <h2 id="recently-played" className="mb-3 flex items-center gap-2 text-xl font-bold">
        <History className="h-5 w-5 text-primary-ink" aria-hidden /> Recently played
      </h2>
      <ul className="grid grid-cols-2 gap-2.5 sm:grid-cols-4 sm:gap-3">
        {games.map((game) => (
          <li key={game.id} data-testid={`recent-${game.id}`}>
            <button
              className="flex w-full items-center gap-2.5 rounded-2xl border border-border bg-card p-2 text-left hover:border-primary/60"
              onClick={() => {
                playSound("click");
                openGame(game.id);
              }}
              aria-label={`Play ${game.title} again`}
            >
              <GameArt id={game.id} className="h-9 w-16 shrink-0 overflow-hidden rounded-lg" />
              <span className="min-w-0 text-sm font-semibold leading-tight">{game.title}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
