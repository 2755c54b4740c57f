import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { unauthorized } from "../errors";

/** What a session token proves: which player this is. */
export interface SessionClaims {
  playerId: string;
  discordId: string;
  guest: boolean;
}

const ISSUER = "casino";
const AUDIENCE = "casino-session";

/** Signed (HS256), expiring session tokens: accepted as a Bearer token on REST and in room onAuth. */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  issue(claims: SessionClaims, ttlSeconds = this.ttlSeconds): Promise<string> {
    return new SignJWT({ did: claims.discordId, guest: claims.guest })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.playerId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  async verify(token: string | undefined): Promise<SessionClaims> {
    if (!token) throw unauthorized();
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
      if (typeof payload.sub !== "string" || typeof payload.did !== "string") throw unauthorized("Invalid session token");
      return { playerId: payload.sub, discordId: payload.did, guest: payload.guest === true };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized("Session expired");
      throw unauthorized("Invalid session token");
    }
  }
}
