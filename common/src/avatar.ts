import { DISCORD_CDN } from "./constants";

/**
 * Where a Discord avatar is fetched from. Inside Discord the activity may only reach its own origin, so
 * Discord's CDN is reached through the URL mapping `DISCORD_CDN_PREFIX` -> cdn.discordapp.com (set in the
 * Developer Portal, docs/discord-deploy.md); outside Discord straight from the CDN.
 */
export const DISCORD_CDN_PREFIX = "/discord-cdn";

/**
 * A Discord avatar's address on the CDN from the user id and avatar hash (animated hashes, a_..., are
 * GIFs); null without a hash. The server stores this address and the strip builds it from Discord's
 * participants: one address for one face, loaded once.
 */
export function discordAvatarUrl(userId: string, hash: string | null | undefined): string | null {
  if (!hash) return null;
  const ext = hash.startsWith("a_") ? "gif" : "png";
  return `${DISCORD_CDN}/avatars/${encodeURIComponent(userId)}/${encodeURIComponent(hash)}.${ext}`;
}

/**
 * The address an avatar picture is loaded from: a Discord CDN avatar through the activity's mapped
 * prefix when framed by Discord (`embedded`), as it is otherwise. Anything else (another host, a
 * non-avatar path of the CDN, a malformed value) is no picture at all: nothing is fetched from a third
 * party, and the generated face shows instead.
 */
export function avatarSource(url: string | null | undefined, embedded: boolean): string | null {
  if (!url || !url.startsWith(`${DISCORD_CDN}/avatars/`)) return null;
  const path = url.slice(DISCORD_CDN.length);
  if (path.includes("..") || /[\s\\]/.test(path)) return null;
  return embedded ? `${DISCORD_CDN_PREFIX}${path}` : url;
}
