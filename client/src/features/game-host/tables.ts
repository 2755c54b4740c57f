import type { GameId } from "@casino/common/catalogue";
import { GAME_TABLES } from "../../games/registry";

/** The games that have a table (the rest open the under-development card). Loaded lazily by the lobby. */
export const gamesWithTables = (): Set<GameId> => new Set(Object.keys(GAME_TABLES) as GameId[]);
