/** What Discord puts in the activity's URL when it launches it in its iframe. */
export interface DiscordLaunch {
  frameId: string;
  instanceId: string;
  platform: string;
  guildId: string | null;
  channelId: string | null;
}

/**
 * The Discord path is taken when frame_id, instance_id and platform are all in the query string (the
 * SDK itself requires them); anything else is a standalone visit. Read once at start-up, before any
 * navigation drops the query string.
 */
export function discordLaunch(search: string): DiscordLaunch | null {
  const q = new URLSearchParams(search);
  const frameId = q.get("frame_id");
  const instanceId = q.get("instance_id");
  const platform = q.get("platform");
  if (!frameId || !instanceId || !platform) return null;
  return { frameId, instanceId, platform, guildId: q.get("guild_id"), channelId: q.get("channel_id") };
}
