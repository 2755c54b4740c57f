import { MOST_PLAYED_SHOWN } from "./constants";
import { CATEGORIES, GAMES, type Category, type GameDefinition } from "./catalogue";

/** The lobby's grouping: the six categories in order, each with its games in catalogue order. */
export const gamesByCategory = (): { category: Category; games: GameDefinition[] }[] =>
  CATEGORIES.map((category) => ({ category, games: GAMES.filter((g) => g.category === category) }));

export interface GameStat {
  gameType: string;
  playCount: number;
}

/**
 * Most Played: the top games by play count, only games the catalogue knows and played at least once,
 * ties in catalogue order; the first carries the Popular marker.
 */
export function mostPlayed(
  stats: readonly GameStat[],
  shown = MOST_PLAYED_SHOWN,
): { game: GameDefinition; playCount: number; popular: boolean }[] {
  const counts = new Map<string, number>();
  for (const s of stats) {
    if (Number.isFinite(s.playCount) && s.playCount > 0) counts.set(s.gameType, (counts.get(s.gameType) ?? 0) + s.playCount);
  }
  return GAMES.filter((g) => counts.has(g.id))
    .map((game, order) => ({ game, playCount: counts.get(game.id)!, order }))
    .sort((a, b) => b.playCount - a.playCount || a.order - b.order)
    .slice(0, shown)
    .map(({ game, playCount }, i) => ({ game, playCount, popular: i === 0 }));
}
