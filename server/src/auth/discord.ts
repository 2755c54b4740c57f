import { z } from "zod";
import { DISCORD_CDN } from "@casino/common";
import { AppError } from "../errors";

/** The verified Discord user behind an OAuth code. */
export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
}

const tokenResponse = z.object({ access_token: z.string().min(1).optional() }).loose();
const userResponse = z
  .object({ id: z.string().regex(/^\d+$/), username: z.string(), global_name: z.string().nullish(), avatar: z.string().nullish() })
  .loose();

/** Retry-After above this is not worth holding a request open for; the client gets the 429 instead. */
const MAX_RETRY_AFTER_MS = 5_000;
const MAX_ATTEMPTS = 3;

export interface DiscordOptions {
  clientId?: string;
  clientSecret?: string;
  apiBase: string;
}

/** Exchanges an OAuth code with Discord and reads the user it belongs to. */
export class DiscordOAuth {
  constructor(private readonly options: DiscordOptions) {}

  async exchange(code: string, redirectUri?: string): Promise<{ accessToken: string; user: DiscordUser }> {
    const { clientId, clientSecret, apiBase } = this.options;
    if (!clientId || !clientSecret) throw new AppError("discord_not_configured", 503, "Discord sign-in is not configured on this server");
    const form = new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: "authorization_code", code });
    if (redirectUri) form.set("redirect_uri", redirectUri);
    const response = await fetchHonouringRetryAfter(`${apiBase}/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
    });
    if (!response.ok) {
      throw new AppError("token_exchange_failed", 502, `Token exchange failed: ${response.statusText || response.status}`);
    }
    const body = tokenResponse.safeParse(await response.json().catch(() => ({})));
    const accessToken = body.success ? body.data.access_token : undefined;
    if (!accessToken) throw new AppError("no_access_token", 502, "No access token received");

    const me = await fetchHonouringRetryAfter(`${apiBase}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
    if (!me.ok) throw new AppError("discord_user_failed", 502, `Failed to read the Discord user: ${me.statusText || me.status}`);
    const user = userResponse.safeParse(await me.json().catch(() => null));
    if (!user.success) throw new AppError("discord_user_failed", 502, "Discord returned an unreadable user");
    return { accessToken, user: user.data };
  }
}

/** Discord answers 429 with Retry-After (seconds); wait that long and try again, a bounded number of times. */
async function fetchHonouringRetryAfter(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    if (response.status !== 429 || attempt >= MAX_ATTEMPTS) return response;
    const waitMs = Number(response.headers.get("retry-after") ?? "1") * 1000;
    if (!Number.isFinite(waitMs) || waitMs > MAX_RETRY_AFTER_MS) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs)));
  }
}

/** The avatar on Discord's CDN from the user id and avatar hash (animated hashes start with a_). */
export function discordAvatarUrl(user: DiscordUser): string | null {
  if (!user.avatar) return null;
  const ext = user.avatar.startsWith("a_") ? "gif" : "png";
  return `${DISCORD_CDN}/avatars/${user.id}/${user.avatar}.${ext}`;
}

export const discordDisplayName = (user: DiscordUser): string => user.global_name || user.username;
