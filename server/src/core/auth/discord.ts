import { z } from "zod";
import { AppError } from "../../platform/errors";

/** The verified Discord user behind an OAuth code. */
export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
}

const tokenResponse = z.object({ access_token: z.string().min(1).optional() }).loose();
const guildsResponse = z.array(z.object({ id: z.string().regex(/^\d+$/) }).loose());
const instanceResponse = z
  .object({
    instance_id: z.string(),
    location: z.object({ guild_id: z.string().nullish(), channel_id: z.string().nullish() }).loose().nullish(),
    users: z.array(z.string()),
  })
  .loose();

/** Discord's view of one running activity instance (the Activity Instance API). */
export interface ActivityInstance {
  instanceId: string;
  guildId: string | null;
  channelId: string | null;
  users: string[];
}

/** Guilds listed per request; Discord's maximum for `GET /users/@me/guilds`. */
const GUILD_PAGE = 200;

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
  /** The application's bot token: enables the activity-instance lookup. */
  botToken?: string;
}

/** Exchanges an OAuth code with Discord and reads the user it belongs to. */
export class DiscordOAuth {
  constructor(private readonly options: DiscordOptions) {}

  /**
   * The verified user behind the code, and the ids of the guilds they are in (`guilds` scope), or null
   * when Discord would not list them (scope not granted, or an error): sign-in never fails for that.
   */
  async exchange(code: string, redirectUri?: string): Promise<{ accessToken: string; user: DiscordUser; guildIds: string[] | null }> {
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
    return { accessToken, user: user.data, guildIds: await this.guildIds(accessToken) };
  }

  /** The guilds of the token's user: up to 200 per page, following `after` while pages are full. */
  private async guildIds(accessToken: string): Promise<string[] | null> {
    const ids: string[] = [];
    try {
      for (let after = ""; ;) {
        const query = new URLSearchParams({ limit: String(GUILD_PAGE), ...(after ? { after } : {}) });
        const response = await fetchHonouringRetryAfter(`${this.options.apiBase}/users/@me/guilds?${query}`, {
          headers: { Authorization: `Bearer ${accessToken}` },
        });
        if (!response.ok) return null;
        const page = guildsResponse.safeParse(await response.json().catch(() => null));
        if (!page.success) return null;
        ids.push(...page.data.map((g) => g.id));
        if (page.data.length < GUILD_PAGE || ids.length >= 1000) return ids;
        after = page.data[page.data.length - 1]!.id;
      }
    } catch {
      return null;
    }
  }

  /** True when the server can ask Discord who is connected to an activity instance. */
  get canLookUpInstances(): boolean {
    return Boolean(this.options.botToken && this.options.clientId);
  }

  /**
   * Discord's record of a running activity instance, or null when it does not exist (404). Needs the
   * application's bot token; the instance id is opaque and only passed through.
   */
  async activityInstance(instanceId: string): Promise<ActivityInstance | null> {
    const { apiBase, clientId, botToken } = this.options;
    if (!botToken || !clientId) throw new AppError("discord_not_configured", 503, "Activity instances cannot be checked on this server");
    const response = await fetchHonouringRetryAfter(
      `${apiBase}/applications/${encodeURIComponent(clientId)}/activity-instances/${encodeURIComponent(instanceId)}`,
      { headers: { Authorization: `Bot ${botToken}` } },
    );
    if (response.status === 404) return null;
    if (!response.ok)
      throw new AppError(
        "discord_instance_failed",
        502,
        `Failed to check the activity instance: ${response.statusText || response.status}`,
      );
    const body = instanceResponse.safeParse(await response.json().catch(() => null));
    if (!body.success) throw new AppError("discord_instance_failed", 502, "Discord returned an unreadable activity instance");
    return {
      instanceId: body.data.instance_id,
      guildId: body.data.location?.guild_id ?? null,
      channelId: body.data.location?.channel_id ?? null,
      users: body.data.users,
    };
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

export const discordDisplayName = (user: DiscordUser): string => user.global_name || user.username;
