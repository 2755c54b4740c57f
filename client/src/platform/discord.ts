import { DiscordSDK } from "@discord/embedded-app-sdk";
import { DISCORD_SCOPES } from "@casino/common/constants";
import type { ClientConfig, TokenAnswer } from "@casino/common/api";
import type { DiscordContext } from "../store/session";
import { adoptDiscordSdk } from "./discord-sdk";

/**
 * Start-up inside Discord (spec section 4): the Embedded App SDK, ready, authorize (identify and guilds,
 * a code, no prompt), the code exchanged by our server for an access token and a session, then
 * authenticate with that token. Loaded with a dynamic import, so the SDK never weighs on the guest lobby.
 */

/** Discord drops messages silently when something is wrong; never wait for ever. */
const READY_TIMEOUT_MS = 10_000;

export interface DiscordStart {
  session: TokenAnswer;
  context: DiscordContext;
}

export async function startDiscord(): Promise<DiscordStart> {
  const config = await fetch("/api/client-config", { credentials: "include" });
  const { discordClientId } = config.ok ? ((await config.json()) as ClientConfig) : { discordClientId: null };
  if (!discordClientId) throw new Error("Discord sign-in is not configured on this server");

  const instance = new DiscordSDK(discordClientId);
  await withTimeout(instance.ready(), READY_TIMEOUT_MS, "Discord did not answer the start-up handshake");
  const { code } = await instance.commands.authorize({
    client_id: discordClientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: [...DISCORD_SCOPES],
  });

  // No redirect_uri: an activity's authorize call has none, and Discord refuses an exchange whose
  // redirect_uri differs from the authorization's.
  const res = await fetch("/api/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    // The instance is joined with this session: the shared rooms of the instance (the crash room, the
    // instance's boards) admit only players whose own session joined it.
    body: JSON.stringify({ code, instanceId: instance.instanceId }),
    credentials: "include",
  });
  if (!res.ok) throw new Error(`Token exchange failed: ${res.statusText || res.status}`);
  const session = (await res.json().catch(() => ({}))) as Partial<TokenAnswer>;
  if (!session.access_token || !session.session_token || !session.player) throw new Error("No access token received");

  const auth = await instance.commands.authenticate({ access_token: session.access_token });
  adoptDiscordSdk(instance);
  return {
    session: session as TokenAnswer,
    context: {
      instanceId: instance.instanceId,
      instanceJoined: session.instance != null,
      guildId: instance.guildId,
      channelId: instance.channelId,
      platform: instance.platform,
      user: {
        id: auth.user.id,
        username: auth.user.username,
        globalName: auth.user.global_name ?? null,
        avatar: auth.user.avatar ?? null,
      },
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
