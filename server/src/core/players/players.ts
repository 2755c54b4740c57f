import { randomBytes, randomInt } from "node:crypto";
import { faceOf } from "./face";
import { ANONYMOUS_NAME, GUEST_ID_PREFIX, GUEST_NUMBER_LIMIT, isGuestId, type PlayerRecord, type PublicPlayer } from "@casino/common";
import { isUniqueViolation, type Database } from "../../platform/db/database";
import { Player } from "../../platform/db/entities/index";
import { isUuid } from "../../platform/db/sql";
import type { NewPlayer } from "../ledger/engine/index";
import { AppError, accountArchived, accountErased, accountSuspended, forbidden, notFound } from "../../platform/errors";
import type { SessionClaims } from "../auth/session";

/** The fields a leaderboard entry shows (besides the balance, which the ledger moves). */
const SHOWN_FIELDS = ["username", "avatarUrl", "anonymousMode", "activeTagId"] as const;

/** How a player is made: the ledger's `createPlayer` (ledger.ts), with their starting grant and seeds. */
export interface PlayerCreation {
  createPlayer(fields: NewPlayer): Promise<Player>;
}

/** Players: lookups, Discord upserts, guests, and how a record is shown to its owner and to others. */
export class Players {
  private readonly profileListeners: ((playerId: string) => Promise<void>)[] = [];

  constructor(
    private readonly db: Database,
    private readonly ledger: PlayerCreation,
    private readonly specialBadges: ReadonlyMap<string, string>,
  ) {}

  /** By player id or by Discord/guest id. */
  find(ref: string): Promise<Player | null> {
    return this.db.run((em) => em.getRepository(Player).findOneBy(isUuid(ref) ? { id: ref } : { discordId: ref }));
  }

  /** An archived guest, or an erased player, is gone for everyone but the ledger. */
  async get(ref: string): Promise<Player> {
    const player = await this.find(ref);
    if (!player || player.archivedAt || player.status === "erased") throw notFound("Player not found");
    return player;
  }

  /** The caller's own player; a reference to anyone else is refused. */
  async own(claims: SessionClaims, ref: string): Promise<Player> {
    if (ref !== claims.playerId && ref !== claims.discordId) throw forbidden();
    const player = await this.find(claims.playerId);
    if (!player) throw notFound("Player not found");
    // An archived guest's session no longer works, nor a suspended or erased player's.
    if (player.archivedAt) throw accountArchived();
    const refusal = closedAccountRefusal(player);
    if (refusal) throw refusal;
    return player;
  }

  /** Creates the player for a verified Discord user, or refreshes their name and avatar. */
  async upsertDiscordUser(discordId: string, username: string, avatarUrl: string | null): Promise<Player> {
    const existing = await this.find(discordId);
    if (existing) {
      await this.db.run((em) => em.update(Player, { id: existing.id }, { username, avatarUrl }));
      if (existing.username !== username || existing.avatarUrl !== avatarUrl) await this.profileChanged(existing.id);
      return this.get(existing.id);
    }
    try {
      return await this.ledger.createPlayer({ discordId, username, avatarUrl });
    } catch (error) {
      if (isUniqueViolation(error)) return this.get(discordId); // created concurrently by another request
      throw error;
    }
  }

  createGuest(username?: string): Promise<Player> {
    const discordId = `${GUEST_ID_PREFIX}${randomBytes(12).toString("hex")}`;
    return this.ledger.createPlayer({ discordId, username: username ?? `Guest ${randomInt(GUEST_NUMBER_LIMIT)}`, avatarUrl: null });
  }

  async update(
    id: string,
    fields: Partial<
      Pick<
        Player,
        | "anonymousMode"
        | "themeMode"
        | "themeModeChosen"
        | "themeColor"
        | "soundOn"
        | "soundVolume"
        | "animationsOn"
        | "resultToastsOn"
        | "reactionsOn"
        | "dailySpinReminder"
        | "tosAcceptedVersion"
        | "activeTagId"
        | "username"
      >
    >,
  ): Promise<Player> {
    const player = await this.db.run(async (em) => {
      await em.update(Player, { id }, fields);
      return em.getRepository(Player).findOneByOrFail({ id });
    });
    if (SHOWN_FIELDS.some((f) => f in fields)) await this.profileChanged(id);
    return player;
  }

  /**
   * Called after a change of what the leaderboards show of a player (the leaderboards read their copy
   * again). The change is answered once the listeners are done. A listener does not fail: the change
   * is committed whatever happens to a copy of it.
   */
  onProfileChanged(listener: (playerId: string) => Promise<void>): void {
    this.profileListeners.push(listener);
  }

  private async profileChanged(playerId: string): Promise<void> {
    await Promise.all(this.profileListeners.map((listener) => listener(playerId)));
  }

  badgeOf(player: Player): string | null {
    return this.specialBadges.get(player.discordId) ?? null;
  }

  toRecord(p: Player): PlayerRecord {
    return {
      id: p.id,
      discordId: p.discordId,
      username: p.username,
      avatarUrl: p.avatarUrl,
      face: faceOf(p.id),
      balance: p.balance,
      activeTagId: p.activeTagId,
      anonymousMode: p.anonymousMode,
      themeMode: p.themeMode,
      themeModeChosen: p.themeModeChosen,
      themeColor: p.themeColor,
      soundOn: p.soundOn,
      soundVolume: p.soundVolume,
      animationsOn: p.animationsOn,
      resultToastsOn: p.resultToastsOn,
      reactionsOn: p.reactionsOn,
      lastDailySpin: p.lastDailySpin?.toISOString() ?? null,
      dailySpinReminder: p.dailySpinReminder,
      reminderEnabled: p.dailySpinReminder,
      lastReminderSent: p.lastReminderSent?.toISOString() ?? null,
      tosAcceptedVersion: p.tosAcceptedVersion,
      dotsGamesPlayedToday: p.dotsGamesPlayedToday,
      dotsLastPlayedDate: p.dotsLastPlayedDate,
      createdAt: p.createdAt.toISOString(),
      isGuest: isGuestId(p.discordId),
      badge: this.badgeOf(p),
    };
  }

  /** Others never see an anonymous player's name or avatar. */
  toPublic(p: Player): PublicPlayer {
    return {
      id: p.id,
      username: p.anonymousMode ? ANONYMOUS_NAME : p.username,
      avatarUrl: p.anonymousMode ? null : p.avatarUrl,
      balance: p.balance,
      anonymousMode: p.anonymousMode,
      activeTagId: p.activeTagId,
      badge: p.anonymousMode ? null : this.badgeOf(p),
    };
  }
}

/** Why a player's session is refused whatever it asks for: suspended or erased (null for an active account). */
export function closedAccountRefusal(player: Pick<Player, "status">): AppError | null {
  if (player.status === "suspended") return accountSuspended();
  if (player.status === "erased") return accountErased();
  return null;
}
