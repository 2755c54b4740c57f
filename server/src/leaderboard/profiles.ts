import { sqlRows } from "../db/sql";
import type { BoardEntryBase, ActiveTagView } from "@casino/common";
import type { Database } from "../db/database";

/** What an entry shows of a player, read from PostgreSQL for the rows of one page. */
export interface Profile {
  id: string;
  discordId: string;
  username: string;
  avatarUrl: string | null;
  anonymousMode: boolean;
  balance: number;
  activeTag: string | null;
}

const PROFILES_SQL = `SELECT p.id, p.discord_id, p.username, p.avatar_url, p.anonymous_mode, p.balance, t.name AS tag
  FROM players p LEFT JOIN tags t ON t.id = p.active_tag_id
 WHERE p.id = ANY($1::uuid[])`;

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * Profiles of the given players, by id. Read fresh for every page, so a switch to anonymous hides at
 * once. This is the one query of every leaderboard read: on PostgreSQL it goes straight to the
 * driver's pool as a named prepared statement (TypeORM's query runner costs about a third more CPU).
 */
export async function loadProfiles(db: Database, ids: readonly string[]): Promise<Map<string, Profile>> {
  if (ids.length === 0) return new Map();
  const pool = db.embedded ? undefined : (db.dataSource.driver as unknown as { master?: PgPool }).master;
  const rows = pool
    ? (await pool.query({ name: "leaderboard-profiles", text: PROFILES_SQL, values: [ids] })).rows
    : await db.run((em) => sqlRows(em, PROFILES_SQL, [ids]));
  return new Map(
    rows.map((r) => [
      r.id as string,
      {
        id: r.id as string,
        discordId: r.discord_id as string,
        username: r.username as string,
        avatarUrl: (r.avatar_url as string | null) ?? null,
        anonymousMode: r.anonymous_mode === true,
        balance: Number(r.balance),
        activeTag: (r.tag as string | null) ?? null,
      },
    ]),
  );
}

/**
 * The fields of an entry as `viewerId` may see them. An anonymous player is "Anonymous" to everyone but
 * themselves: no name, avatar, badge or tag, and no `discordId` key in the JSON at all.
 */
export function presentPlayer(
  profile: Profile,
  rank: number,
  viewerId: string | null,
  badges: Record<string, string>,
): BoardEntryBase & { activeTag: ActiveTagView | null } {
  if (profile.anonymousMode && profile.id !== viewerId) {
    return { rank, playerId: profile.id, username: "Anonymous", avatarUrl: null, anonymousMode: true, badge: null, activeTag: null };
  }
  return {
    rank,
    playerId: profile.id,
    username: profile.username,
    avatarUrl: profile.avatarUrl,
    anonymousMode: profile.anonymousMode,
    discordId: profile.discordId,
    badge: badges[profile.discordId] ?? null,
    activeTag: profile.activeTag ? { name: profile.activeTag } : null,
  };
}
