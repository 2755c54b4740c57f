import { sqlRows } from "../../platform/db/sql";
import type { InstanceJoinAnswer } from "@casino/common";
import type { Database } from "../../platform/db/database";
import type { DiscordOAuth, ActivityInstance } from "../auth/discord";
import type { SessionClaims } from "../auth/session";
import { AppError, forbidden } from "../../platform/errors";

/** A user who just joined may not be listed yet; Discord does not say how soon they appear. */
const LOOKUP_ATTEMPTS = 3;
const LOOKUP_RETRY_MS = 400;

/**
 * Activity instances: the players of one running session of the activity (a voice channel, a text
 * channel or a DM). The instance id comes from the client, so it is accepted only with a Discord
 * session (guests have no instance scope), and, when the server holds the application's bot token,
 * only after Discord's Activity Instance API lists the player among the instance's users.
 */
export class Instances {
  constructor(
    private readonly db: Database,
    private readonly discord: DiscordOAuth,
  ) {}

  async join(claims: SessionClaims, instanceId: string): Promise<InstanceJoinAnswer> {
    if (claims.guest) throw forbidden("Guests have no activity instance; launch the casino in Discord");
    let instance: ActivityInstance | null = null;
    if (this.discord.canLookUpInstances) {
      instance = await this.lookUp(instanceId, claims.discordId);
      if (!instance) throw forbidden("You are not connected to that activity instance");
    }
    await this.db.run((em) =>
      sqlRows(
        em,
        `INSERT INTO activity_instance_members (instance_id, player_id, guild_id, channel_id, verified) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (instance_id, player_id) DO UPDATE SET verified = activity_instance_members.verified OR EXCLUDED.verified,
           guild_id = COALESCE(EXCLUDED.guild_id, activity_instance_members.guild_id),
           channel_id = COALESCE(EXCLUDED.channel_id, activity_instance_members.channel_id)`,
        [instanceId, claims.playerId, instance?.guildId ?? null, instance?.channelId ?? null, instance !== null],
      ),
    );
    return { instanceId, verified: instance !== null, guildId: instance?.guildId ?? null };
  }

  /** The instance when Discord lists the user in it (retrying briefly for a user who just joined), else null. */
  private async lookUp(instanceId: string, discordId: string): Promise<ActivityInstance | null> {
    for (let attempt = 1; ; attempt++) {
      const instance = await this.discord.activityInstance(instanceId);
      if (instance?.users.includes(discordId)) return instance;
      if (!instance || attempt >= LOOKUP_ATTEMPTS) return null;
      await new Promise((resolve) => setTimeout(resolve, LOOKUP_RETRY_MS));
    }
  }

  async isMember(playerId: string, instanceId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(em, `SELECT 1 FROM activity_instance_members WHERE player_id = $1 AND instance_id = $2`, [playerId, instanceId]),
    );
    return rows.length > 0;
  }

  /**
   * Whether the player may play in the instance's shared rooms: the instance was joined with this
   * player's session, and, when the server can ask Discord, Discord listed the player in it.
   */
  async admits(playerId: string, instanceId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows<{ verified: boolean }>(em, `SELECT verified FROM activity_instance_members WHERE player_id = $1 AND instance_id = $2`, [
        playerId,
        instanceId,
      ]),
    );
    if (rows.length === 0) return false;
    return rows[0]!.verified || !this.discord.canLookUpInstances;
  }

  async members(instanceId: string): Promise<string[]> {
    const rows = await this.db.run((em) =>
      sqlRows<{ player_id: string }>(em, `SELECT player_id FROM activity_instance_members WHERE instance_id = $1`, [instanceId]),
    );
    return rows.map((r) => r.player_id);
  }
}

/** Refusal when a caller asks for a scope they are not part of. */
export const notInScope = (what: "guild" | "instance") =>
  new AppError("not_in_scope", 403, what === "guild" ? "You are not a member of that guild" : "You have not joined that activity instance");
