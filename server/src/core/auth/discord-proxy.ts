import { createPublicKey, verify, type KeyObject } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import { AppError } from "../../platform/errors";

/**
 * Requests proven to come through Discord's activity proxy. When the application's public key is
 * configured, Discord's proxy adds three headers to each request it forwards
 * (discord-api-docs, "Multiplayer Experience" → "Validating Proxy Request Headers"):
 * - `X-Discord-Proxy-Payload`: base64 of a JSON payload `{application_id, user_id, created_at, expires_at, …}`;
 * - `X-Signature-Ed25519`: the Ed25519 signature of the payload's bytes (base64; the docs' Python sample
 *   reads it as hex, so both spellings are accepted: 64 bytes are 88 base64 or 128 hex characters);
 * - `X-Signature-Timestamp`: the payload's `created_at`, which must match it exactly.
 * A payload whose `expires_at` has passed is stale. A request without the headers, or with any of them
 * wrong, is refused with 401.
 */
export const PROXY_HEADERS = {
  signature: "x-signature-ed25519",
  timestamp: "x-signature-timestamp",
  payload: "x-discord-proxy-payload",
} as const;

/** What Discord's proxy vouches for. Times are Unix seconds. */
export interface ProxyToken {
  applicationId: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

/** A payload stamped this far ahead of the server's clock is refused (clocks drift, but not by minutes). */
export const MAX_CLOCK_SKEW_SECONDS = 300;

const payloadSchema = z
  .object({
    application_id: z.union([z.string(), z.number()]).transform(String),
    user_id: z.union([z.string(), z.number()]).transform(String),
    created_at: z.number().int(),
    expires_at: z.number().int(),
  })
  .loose();

/** The 32-byte raw Ed25519 key of the developer portal (hex) as a key node:crypto verifies with. */
export function discordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error("a Discord public key is 64 hex characters");
  // SubjectPublicKeyInfo of an Ed25519 key: a fixed 12-byte prefix, then the raw key.
  const der = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(hex, "hex")]);
  return createPublicKey({ key: der, format: "der", type: "spki" });
}

const refused = (code: string, message: string) => new AppError(code, 401, message);

/** The proxy vouched for a Discord user other than the one the request acts for. */
export const proxyUserMismatch = () => refused("proxy_user_mismatch", "Discord's proxy signed this request for another user");

function signatureBytes(text: string): Buffer | null {
  if (/^[0-9a-f]{128}$/i.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/]{86}==$/.test(text)) return Buffer.from(text, "base64");
  return null;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The proxy's token when the headers prove the request came through Discord's proxy for this
 * application; otherwise throws a 401 `AppError` saying what was wrong.
 */
export function verifyProxyHeaders(
  headers: IncomingHttpHeaders,
  key: KeyObject,
  options: { applicationId?: string; nowSeconds?: number } = {},
): ProxyToken {
  const signature = header(headers, PROXY_HEADERS.signature);
  const timestamp = header(headers, PROXY_HEADERS.timestamp);
  const payload = header(headers, PROXY_HEADERS.payload);
  if (!signature || !timestamp || !payload) {
    throw refused("proxy_signature_missing", "This request did not come through Discord's proxy (its signature headers are missing)");
  }
  const payloadBytes = /^[A-Za-z0-9+/]+={0,2}$/.test(payload) ? Buffer.from(payload, "base64") : null;
  const sig = signatureBytes(signature);
  if (!payloadBytes || !sig) throw refused("proxy_signature_invalid", "Discord's proxy signature is unreadable");
  // The signature covers the payload's exact bytes: checked before anything in them is believed.
  if (!verify(null, payloadBytes, key, sig)) throw refused("proxy_signature_invalid", "Discord's proxy signature does not match");
  let json: unknown;
  try {
    json = JSON.parse(payloadBytes.toString("utf8"));
  } catch {
    throw refused("proxy_signature_invalid", "Discord's proxy payload is unreadable");
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) throw refused("proxy_signature_invalid", "Discord's proxy payload is unreadable");
  const token = parsed.data;
  if (String(token.created_at) !== timestamp)
    throw refused("proxy_signature_invalid", "Discord's proxy timestamp does not match its payload");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (token.expires_at < now) throw refused("proxy_signature_stale", "Discord's proxy signature has expired; reload the activity");
  if (token.created_at > now + MAX_CLOCK_SKEW_SECONDS)
    throw refused("proxy_signature_stale", "Discord's proxy signature is dated in the future");
  if (options.applicationId && token.application_id !== options.applicationId) {
    throw refused("proxy_signature_invalid", "Discord's proxy signed this request for another application");
  }
  return { applicationId: token.application_id, userId: token.user_id, createdAt: token.created_at, expiresAt: token.expires_at };
}

/**
 * The check as configured: off (every request passes) without a public key; with one, `verify` demands
 * the proxy's headers, and `verifyFor` also that they vouch for the given Discord user.
 */
export class DiscordProxyCheck {
  private readonly key: KeyObject | null;

  constructor(private readonly options: { publicKey?: string; applicationId?: string }) {
    this.key = options.publicKey ? discordPublicKey(options.publicKey) : null;
  }

  get enabled(): boolean {
    return this.key !== null;
  }

  /** The proxy's token, or null when the check is off. */
  verify(headers: IncomingHttpHeaders, nowSeconds?: number): ProxyToken | null {
    if (!this.key) return null;
    return verifyProxyHeaders(headers, this.key, { applicationId: this.options.applicationId, nowSeconds });
  }

  /** As `verify`, and the proxy must have signed for this Discord user. */
  verifyFor(headers: IncomingHttpHeaders, discordUserId: string): void {
    const token = this.verify(headers);
    if (token && token.userId !== discordUserId) throw proxyUserMismatch();
  }
}
