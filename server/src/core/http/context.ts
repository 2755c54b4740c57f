import type { Request, RequestHandler } from "express";
import type { SessionClaims, SessionTokens } from "../auth/session";
import { unauthorized, type AppError } from "../../platform/errors";

declare module "express-serve-static-core" {
  interface Request {
    session?: SessionClaims;
    /** Why the bearer token, if one was sent, was not accepted. */
    sessionError?: AppError;
  }
}

/**
 * Reads `Authorization: Bearer <session token>` once per request, without refusing anything: whether a
 * route needs a player is the route's own business (it calls `sessionOf`). So a route that does not
 * exist is a 404 for everyone, and no list of protected paths has to be kept in step with the routers.
 */
export function readSession(tokens: SessionTokens): RequestHandler {
  return async (req, _res, next) => {
    const match = /^Bearer\s+(.+)$/i.exec(req.get("authorization") ?? "");
    if (match) {
      try {
        req.session = await tokens.verify(match[1]);
      } catch (error) {
        req.sessionError = error as AppError;
      }
    }
    next();
  };
}

/** The caller's session; a 401 (saying why: missing, invalid, expired) when there is none. */
export function sessionOf(req: Request): SessionClaims {
  if (req.session) return req.session;
  throw req.sessionError ?? unauthorized();
}

/** Route-level guard for routes that need a player before anything else runs (rate limits keyed by player). */
export const requireSession: RequestHandler = (req, _res, next) => {
  sessionOf(req);
  next();
};
