import type { LeaderboardScope } from "@casino/common";
import type { SessionClaims } from "../core/auth/session";
import type { Guilds } from "../core/players/guilds";
import { notInScope, type Instances } from "../core/players/instances";
import { forbidden } from "../platform/errors";
import type { BoardSpec } from "./leaderboards";

/**
 * The scope of a board after checking the caller belongs to it: any session may see the global
 * board; a guild or an instance only a Discord player listed in it (guests have neither).
 */
export async function authorisedScope(
  memberships: { guilds: Guilds; instances: Instances },
  claims: SessionClaims,
  q: { scope: LeaderboardScope; guildId?: string; instanceId?: string },
): Promise<Pick<BoardSpec, "scope" | "scopeId">> {
  if (q.scope === "global") return { scope: "global" };
  if (claims.guest) throw forbidden("Guests only see the global leaderboard; launch the casino in Discord");
  if (q.scope === "guild") {
    if (!q.guildId || !(await memberships.guilds.isMember(claims.playerId, q.guildId))) throw notInScope("guild");
    return { scope: "guild", scopeId: q.guildId };
  }
  if (!q.instanceId || !(await memberships.instances.isMember(claims.playerId, q.instanceId))) throw notInScope("instance");
  return { scope: "instance", scopeId: q.instanceId };
}
