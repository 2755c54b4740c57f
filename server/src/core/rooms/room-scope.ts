import { crashJoinOptions, describeZodError, type CrashJoinOptions } from "@casino/common";
import type { SessionClaims } from "../auth/session";
import { AppError, badRequest } from "../../platform/errors";
import { notInScope, type Instances } from "../players/instances";

/** The public room's scope: everyone who is not playing inside a Discord activity instance. */
export const PUBLIC_SCOPE = "public";

/** The room scope of an activity instance. */
export const instanceScope = (instanceId: string): string => `instance:${instanceId}`;

/** The scope a crash room was created for, from its creation options (already checked by crashScopeOf). */
export function roomScope(options: CrashJoinOptions): string {
  return options.instanceId === null ? PUBLIC_SCOPE : instanceScope(options.instanceId);
}

/**
 * Which shared crash room a player may join: the one of the activity instance they named, or the public
 * one. This is the single place that decides it, called before a room is found or created, so a client
 * cannot sit in another instance's room by naming its id.
 *
 * A guest has no instance and plays in the public room. A Discord player plays in an instance only when
 * that instance was joined with their own session (sign-in with the SDK's instance id, or
 * `POST /api/instances/join`) and, when the server holds the bot token, Discord's activity-instance
 * lookup listed them in it (`Instances.admits`).
 */
export async function crashScopeOf(instances: Pick<Instances, "admits">, claims: SessionClaims, options: unknown): Promise<string> {
  const parsed = crashJoinOptions.safeParse(options ?? {});
  if (!parsed.success) throw badRequest(describeZodError(parsed.error), "invalid_options");
  return activityScopeOf(instances, claims, parsed.data.instanceId, "Guests play in the public crash room");
}

/**
 * The scope of a shared room (the crash room, the blackjack table) named by `instanceId`, by the rule
 * above: the public scope for null, the instance's only for a player whose own session joined it.
 */
export async function activityScopeOf(
  instances: Pick<Instances, "admits">,
  claims: SessionClaims,
  instanceId: string | null,
  guestRefusal: string,
): Promise<string> {
  if (instanceId === null) return PUBLIC_SCOPE;
  if (claims.guest) throw new AppError("forbidden", 403, guestRefusal);
  if (!(await instances.admits(claims.playerId, instanceId))) throw notInScope("instance");
  return instanceScope(instanceId);
}
