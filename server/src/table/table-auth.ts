import { ErrorCode, ServerError } from "@colyseus/core";
import type { z } from "zod";
import type { SessionClaims } from "../core/auth/session";
import { AppError } from "../platform/errors";
import type { CoreServices } from "../core/services";
import { activityScopeOf } from "../core/rooms/room-scope";

/** A shared table's client as onAuth leaves it: the session's claims and the scope of the table it may join. */
export interface TableAuth extends SessionClaims {
  scope: string;
}

/**
 * The onAuth of the shared tables (the blackjack table, the Hold'em table): checks the session token
 * and the join options, and decides the player's scope (room-scope.ts) before any room is found or
 * created, so a client cannot sit at another activity instance's table by naming its id.
 */
export async function tableAuth(
  services: Pick<CoreServices, "tokens" | "instances">,
  token: string,
  options: unknown,
  schema: z.ZodType<{ instanceId: string | null }>,
): Promise<TableAuth> {
  try {
    const claims = await services.tokens.verify(token);
    const parsed = schema.safeParse(options ?? {});
    if (!parsed.success) throw new AppError("invalid_options", 400, parsed.error.issues.map((i) => i.message).join("; "));
    const scope = await activityScopeOf(services.instances, claims, parsed.data.instanceId, "Guests play at the public tables");
    return { ...claims, scope };
  } catch (error) {
    if (error instanceof AppError) throw new ServerError(ErrorCode.AUTH_FAILED, error.message);
    throw error;
  }
}
