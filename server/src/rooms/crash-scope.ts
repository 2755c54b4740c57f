import { crashJoinOptions, describeZodError, type CrashJoinOptions } from "@casino/common";
import type { SessionClaims } from "../auth/session";
import { AppError, badRequest } from "../errors";

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
 * one. This is the single place that decides it, called before a room is found or created.
 *
 * Today the instance comes from the join options and the session says who the player is: a guest may
 * only play in the public room, a Discord player in the instance they name. Proving that the player is
 * really in that instance (Discord's activity-instance lookup, or the instance recorded when the
 * session was issued) belongs here too.
 */
export async function crashScopeOf(claims: SessionClaims, options: unknown): Promise<string> {
  const parsed = crashJoinOptions.safeParse(options ?? {});
  if (!parsed.success) throw badRequest(describeZodError(parsed.error), "invalid_options");
  const { instanceId } = parsed.data;
  if (instanceId === null) return PUBLIC_SCOPE;
  if (claims.guest) throw new AppError("forbidden", 403, "Guests play in the public crash room");
  return instanceScope(instanceId);
}
