import { createSecretKey, type KeyObject } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { unauthorized, type AppError } from "../../platform/errors";

/** What a session token proves: which player this is. */
export interface SessionClaims {
  playerId: string;
  discordId: string;
  guest: boolean;
}

const ISSUER = "casino";
const AUDIENCE = "casino-session";
/** Verified tokens remembered (a client sends the same token with every call); the oldest go first. */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Signed (HS256), expiring session tokens: accepted as a Bearer token on REST and in room onAuth.
 * The HMAC key is imported once (jose would import raw bytes again on every call), and a token already
 * verified is answered from memory until it expires: a token is immutable, so its signature and
 * claims cannot have changed since. Its player's account can: `refuse` is asked at every verification
 * (a suspended or erased player's token is refused with that reason, wherever it is presented).
 */
export class SessionTokens {
  private readonly key: KeyObject;
  private readonly verified = new Map<string, { claims: SessionClaims; expiresAt: number }>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly refuse: (claims: SessionClaims) => AppError | null = () => null,
  ) {
    this.key = createSecretKey(Buffer.from(secret, "utf8"));
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
    const claims = await this.verifySignature(token);
    const refusal = this.refuse(claims);
    if (refusal) throw refusal;
    return claims;
  }

  private async verifySignature(token: string | undefined): Promise<SessionClaims> {
    if (!token) throw unauthorized();
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAt) return known.claims;
      this.verified.delete(token);
      throw unauthorized("Session expired");
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
      if (typeof payload.sub !== "string" || typeof payload.did !== "string") throw unauthorized("Invalid session token");
      const claims: SessionClaims = { playerId: payload.sub, discordId: payload.did, guest: payload.guest === true };
      this.remember(token, claims, typeof payload.exp === "number" ? payload.exp * 1000 : Date.now());
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized("Session expired");
      throw unauthorized("Invalid session token");
    }
  }

  private remember(token: string, claims: SessionClaims, expiresAt: number): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, expiresAt });
  }
}
