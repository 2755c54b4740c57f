import Fuse, { type IFuseOptions } from "fuse.js";
import { GAMES, type GameDefinition } from "@casino/common/catalogue";

const OPTIONS: IFuseOptions<GameDefinition> = {
  keys: [
    { name: "title", weight: 3 },
    { name: "keywords", weight: 2 },
    { name: "category", weight: 1 },
    { name: "description", weight: 1 },
  ],
  ignoreLocation: true,
  includeScore: true,
};
const games = GAMES as readonly GameDefinition[] as GameDefinition[];
// A long word forgives a typo or two ("blakjack", "rolette"); a short one must be spelled as it is
// ("free" is not "fruit").
const loose = new Fuse(games, { ...OPTIONS, threshold: 0.34 });
const strict = new Fuse(games, { ...OPTIONS, threshold: 0.05 });

/**
 * The lobby's search: every word of the query matches the game's title, other names (`keywords` in the
 * catalogue: "holdem", "21", "free"...), category or description, spelled loosely; best match first.
 */
export function searchGames(query: string): GameDefinition[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scores = new Map<GameDefinition, number>();
  words.forEach((word, i) => {
    const found = new Map((word.length > 4 ? loose : strict).search(word).map((r) => [r.item, r.score ?? 0]));
    for (const game of i === 0 ? found.keys() : [...scores.keys()]) {
      const score = found.get(game);
      if (score === undefined) scores.delete(game);
      else scores.set(game, (scores.get(game) ?? 0) + score);
    }
  });
  return [...scores].sort((a, b) => a[1] - b[1]).map(([game]) => game);
}
