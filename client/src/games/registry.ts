import type { GameId } from "@casino/common/catalogue";
import type { GameTable } from "./contract";

/**
 * The lazily loaded table of each game that has one. A game without an entry shows the spec's
 * under-development card.
 */
export const GAME_TABLES: Partial<Record<GameId, () => Promise<{ default: GameTable }>>> = {
  dice: () => import("./dice"),
};
