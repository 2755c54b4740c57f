import { GAME_STATS_REFRESH_MS } from "@casino/common/constants";
import type { GameStat } from "@casino/common/lobby";
import { api } from "../../net/api";
import { usePolling } from "../../net/usePolling";

/** The last counts read, kept for the lobby's next mount (going back to the lobby from a game). */
let lastRead: GameStat[] | undefined;

/** The player's play counts per game (`GET /api/game-stats`), polled every 30 s. */
export function useGameStats() {
  return usePolling(
    async () => {
      const body = await api<GameStat[] | { items?: GameStat[]; stats?: GameStat[] }>("/game-stats");
      lastRead = Array.isArray(body) ? body : (body.items ?? body.stats ?? []);
      return lastRead;
    },
    GAME_STATS_REFRESH_MS,
    [],
    lastRead,
  );
}
