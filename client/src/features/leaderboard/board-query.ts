import type { LeaderboardBoard, LeaderboardWindow } from "@casino/common/api";
import type { ScopeParams } from "../../store/leaderboard";

/** The REST path of each board (spec section 7). */
export const BOARD_PATHS: Record<LeaderboardBoard, string> = {
  balance: "/leaderboard",
  speed: "/game/dots/leaderboard",
  kills: "/game/dot-battle/leaderboard",
};

/** The scope and window as query parameters (after the page and limit): nothing for the defaults. */
export function boardQuery(scope: ScopeParams, window: LeaderboardWindow): string {
  const q = new URLSearchParams();
  if (scope.scope !== "global") q.set("scope", scope.scope);
  if (scope.guildId) q.set("guildId", scope.guildId);
  if (scope.instanceId) q.set("instanceId", scope.instanceId);
  if (window !== "all") q.set("window", window);
  const text = q.toString();
  return text ? `&${text}` : "";
}
