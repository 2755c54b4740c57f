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
 * Profiles of the given players, by id, from PostgreSQL. On PostgreSQL the query goes straight to the
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

/** How long a profile read for a page is reused; a change made through the server drops it at once. */
export const PROFILE_TTL_MS = 30_000;
const PROFILE_CACHE_SIZE = 50_000;

/**
 * The profiles of the players shown on pages, kept a short while so that a page read costs Redis
 * alone. Correctness does not rest on the time limit: every change of a name, avatar, tag or anonymous
 * mode goes through `Players`, which drops the entry here and tells the other processes to drop it
 * (see `Leaderboards.profileChanged`). The time limit only bounds how long a change made behind the
 * server's back (by hand in the database) stays unseen. A profile's balance is not read from here.
 */
export class ProfileCache {
  private readonly entries = new Map<string, { profile: Profile; at: number }>();
  /** Bumped on every invalidation, so a read that started before it does not store what it read. */
  private generation = 0;

  constructor(
    private readonly load: (ids: readonly string[]) => Promise<Map<string, Profile>>,
    private readonly ttlMs = PROFILE_TTL_MS,
    private readonly size = PROFILE_CACHE_SIZE,
  ) {}

  async get(ids: readonly string[]): Promise<Map<string, Profile>> {
    const now = Date.now();
    const found = new Map<string, Profile>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = this.entries.get(id);
      if (hit && now - hit.at < this.ttlMs) found.set(id, hit.profile);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const generation = this.generation;
    const loaded = await this.load(missing);
    const keep = generation === this.generation;
    for (const [id, profile] of loaded) {
      found.set(id, profile);
      if (!keep) continue;
      // Full: start again rather than evict one by one (cheap, and entries live 30 s at most anyway).
      if (this.entries.size >= this.size) this.entries.clear();
      this.entries.set(id, { profile, at: now });
    }
    return found;
  }

  invalidate(ids: readonly string[] | "all"): void {
    this.generation++;
    if (ids === "all") this.entries.clear();
    else for (const id of ids) this.entries.delete(id);
  }
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
