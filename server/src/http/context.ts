import type { Request, RequestHandler } from "express";
import type { SessionClaims, SessionTokens } from "../auth/session";
import { unauthorized } from "../errors";

declare module "express-serve-static-core" {
  interface Request {
    session?: SessionClaims;
  }
}

/** Requires `Authorization: Bearer <session token>`; the player comes from the token, never the body. */
export function requireSession(tokens: SessionTokens): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get("authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header);
    req.session = await tokens.verify(match?.[1]);
    next();
  };
}

export function sessionOf(req: Request): SessionClaims {
  if (!req.session) throw unauthorized();
  return req.session;
}
