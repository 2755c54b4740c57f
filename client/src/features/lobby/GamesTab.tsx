import { useState } from "react";
import { Search } from "lucide-react";
import { gamesAvailable } from "@casino/common/format";
import type { GameDefinition } from "@casino/common/catalogue";
import { searchGames } from "./game-search";
import { gamesByCategory, mostPlayed } from "@casino/common/lobby";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { useGamePicks } from "../../store/game-picks";
import { GameTile } from "./GameTile";
import { MostPlayed } from "./MostPlayed";
import { RecentlyPlayed } from "./RecentlyPlayed";
import { Favourites } from "./Favourites";
import { ResumeCard } from "./ResumeCard";
import { OutOfCoins } from "../no-coins/OutOfCoins";
import { FirstRunGuide } from "../first-run/FirstRunGuide";
import { useGameStats } from "./useGameStats";
import { GAME_TABLES } from "../../games/registry";
import { HOLDEM_PATH, go } from "../../app/address";

const GROUPS = gamesByCategory();
/** Poker's second button: the Hold'em table against other players (its own page, app/address.ts). */
const HOLDEM_JOIN = { label: "Hold'em table", testId: "join-table-holdem" };
const openHoldem = () => go(HOLDEM_PATH, { aboveLobby: true });
const GRID = "grid grid-cols-2 gap-2.5 sm:gap-3 lg:grid-cols-3";

/**
 * Search, the first-run guide until it is closed, the open round to resume, then Most Played, recently played and favourites, each one compact
 * row, then the six categories: on a phone the catalogue starts on the first screen.
 */
export function GamesTab() {
  const stats = useGameStats();
  const openGame = useLobby((s) => s.openGame);
  const connectionLost = useRoom((s) => s.status === "lost");
  const recentKnown = useGamePicks((s) => s.recent.length > 0);
  const [query, setQuery] = useState("");
  const popular = stats.data ? (mostPlayed(stats.data)[0]?.game.id ?? null) : null;
  const tile = (game: GameDefinition, place?: string) => (
    <GameTile
      key={game.id}
      game={game}
      place={place}
      popular={popular === game.id}
      wip={!GAME_TABLES[game.id]}
      lockMessage={connectionLost && game.kind === "chance" ? "Connection lost: reconnect to play." : null}
      onPlay={() => openGame(game.id)}
      onJoinTable={game.id === "blackjack" ? () => openGame(game.id, true) : game.id === "poker" ? openHoldem : undefined}
      joinTable={game.id === "poker" ? HOLDEM_JOIN : undefined}
    />
  );
  const searching = query.trim() !== "";
  const found = searching ? searchGames(query) : [];

  return (
    <div>
      <div role="search" className="relative mb-4">
        <label htmlFor="game-search" className="sr-only">
          Search games
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <input
          id="game-search"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search games"
          autoComplete="off"
          className="h-11 w-full rounded-xl border border-border bg-card pl-9 pr-3 text-base outline-none placeholder:text-muted-foreground focus:border-primary sm:max-w-sm"
        />
      </div>
      <FirstRunGuide />
      <ResumeCard />
      <OutOfCoins className="mb-4" />
      {searching ? (
        <section aria-labelledby="search-results" data-testid="search-results">
          <h2 id="search-results" className="mb-3 text-lg font-bold sm:text-xl">
            Search results
          </h2>
          {found.length === 0 ? (
            <p className="text-muted-foreground">No game matches “{query.trim()}”.</p>
          ) : (
            <div className={GRID}>{found.map((g) => tile(g, "search"))}</div>
          )}
        </section>
      ) : (
        <>
          <MostPlayed stats={stats.data} keepPlace={recentKnown && !stats.error} />
          <RecentlyPlayed />
          <Favourites />
          <div className="mt-2 space-y-8">
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
                <div className={GRID}>{games.map((g) => tile(g))}</div>
              </section>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
