import { GAMES, type GameId } from "../catalogue";
import type { AnyGameEngine } from "./engine";

/**
 * Every game playable through the casino room: the engines of the catalogue's chance games, loaded once
 * when this module is first imported (a top-level await, so an importer sees them all). Adding a game is
 * adding its entry to the catalogue; nothing here lists games.
 */
export const ENGINES: Partial<Record<GameId, AnyGameEngine>> = Object.fromEntries(
  await Promise.all(
    GAMES.flatMap((game) =>
      "engine" in game
        ? [
            game.engine().then(({ default: engine }) => {
              if (engine.id !== game.id) throw new Error(`the catalogue's ${game.id} loads the engine of ${engine.id}`);
              return [game.id, engine] as const;
            }),
          ]
        : [],
    ),
  ),
);

export const engineFor = (game: string): AnyGameEngine | undefined =>
  Object.prototype.hasOwnProperty.call(ENGINES, game) ? ENGINES[game as GameId] : undefined;
