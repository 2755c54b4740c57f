import { AppError } from "./errors";
import { isOutage, type Log } from "./log";

/**
 * What a player is told when something fails that is not their fault. Never the raw error: its text
 * ("connect ECONNREFUSED 127.0.0.1:5432") says nothing useful to a player and something useful to an
 * attacker. The stable code is what a client acts on; the message is what it shows.
 */
export interface PublicFailure {
  status: number;
  code: string;
  message: string;
}

export const UNAVAILABLE: PublicFailure = {
  status: 503,
  code: "unavailable",
  message: "The casino is unavailable right now; please try again in a moment",
};
export const INTERNAL: PublicFailure = { status: 500, code: "internal", message: "Something went wrong; please try again" };
export const SHUTTING_DOWN: PublicFailure = {
  status: 503,
  code: "shutting_down",
  message: "The server is restarting; please try again in a moment",
};

/**
 * Maps an error nobody turned into an AppError to what the player sees, and logs it once per kind and
 * window under `where` (a room message type, a route): an outage as one line, a bug with its stack.
 */
export function publicFailure(log: Log, where: string, error: unknown): PublicFailure {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
  if (isOutage(error)) {
    log.error(`outage:${where}`, `${where} failed: a backing service is unreachable`, error);
    return UNAVAILABLE;
  }
  log.error(`bug:${where}:${(error as Error)?.message ?? String(error)}`, `${where} failed`, error);
  return INTERNAL;
}
