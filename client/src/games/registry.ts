import { GAMES, type GameId } from "@casino/common/catalogue";
import type { GameTable, WatchViewProps } from "./contract";
import type { ComponentType } from "react";
import type { GameLobby } from "./shared/lobby-art";

/**
 * What the client knows of a game, found by its folder `client/src/games/<game>/`: `lobby.tsx` (its
 * icon and picture, in the lobby's bundle), `index.tsx` (its table, a lazy chunk of its own) and, if it
 * has one, `watch.tsx` (how a watcher sees another player's round, also lazy). A game of the catalogue
 * without a table shows the spec's under-development card. Nothing here lists games.
 */
export interface ClientGame {
  lobby: GameLobby;
  table?: () => Promise<{ default: GameTable }>;
  watch?: () => Promise<{ default: ComponentType<WatchViewProps> }>;
}

const folderOf = (path: string) => /^\.\/([^/]+)\//.exec(path)![1];
const byFolder = <T>(modules: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(modules).map(([path, module]) => [folderOf(path), module]));

const LOBBIES = byFolder(import.meta.glob<GameLobby>("./*/lobby.tsx", { eager: true, import: "lobby" }));
const TABLES = byFolder(import.meta.glob<{ default: GameTable }>("./*/index.tsx"));
const WATCH_VIEWS = byFolder(import.meta.glob<{ default: ComponentType<WatchViewProps> }>("./*/watch.tsx"));

/** Every game of the catalogue: its lobby art, its table and its watch view. */
export const CLIENT_GAMES = Object.fromEntries(
  GAMES.map(({ id }) => [id, { lobby: LOBBIES[id], table: TABLES[id], watch: WATCH_VIEWS[id] }]),
) as Record<GameId, ClientGame>;

/** The lazily loaded table of each game that has one. */
export const GAME_TABLES: Partial<Record<GameId, () => Promise<{ default: GameTable }>>> = Object.fromEntries(
  Object.entries(CLIENT_GAMES).flatMap(([id, game]) => (game.table ? [[id, game.table]] : [])),
);
