import type { Redis } from "ioredis";
import { sqlPrepared } from "../platform/db/sql";
import { ANONYMOUS_NAME, isGuestId } from "@casino/common";
import type { Database } from "../platform/db/database";
import { faceHash, faceShown } from "../core/players/face";
import { KEYS } from "./keys";
import type { BoardScripts } from "./scripts";

/** What an entry shows of a player. */
export interface Profile {
  id: string;
  discordId: string;
  username: string;
  avatarUrl: string | null;
  anonymousMode: boolean;
  balance: number;
  activeTag: string | null;
}

/**
 * A player as one viewer sees them in a list of an activity's members (the Tonight board, a race): an
 * anonymous player shows as the spec's anonymous name, with no Discord id or picture, except to
 * themselves.
 */
export function shownTo(profile: Profile, viewerId: string) {
  const self = profile.id === viewerId;
  const hidden = profile.anonymousMode && !self;
  return {
    discordId: hidden ? null : profile.discordId,
    username: hidden ? ANONYMOUS_NAME : profile.username,
    avatarUrl: hidden ? null : profile.avatarUrl,
    face: faceShown(profile.id, hidden),
    hidden,
    self,
  };
}

/** The columns a profile is made of, for `p` = players (`t` = tags joined on the active tag). */
export const PROFILE_COLUMNS = `p.id, p.discord_id, p.username, p.avatar_url, p.anonymous_mode, p.balance, t.name AS tag`;
export const PROFILE_JOIN = `LEFT JOIN tags t ON t.id = p.active_tag_id`;
const PROFILES_SQL = `SELECT ${PROFILE_COLUMNS} FROM players p ${PROFILE_JOIN} WHERE p.id = ANY($1::uuid[])`;

export const profileOfRow = (r: Record<string, unknown>): Profile => ({
  id: r.id as string,
  discordId: r.discord_id as string,
  username: r.username as string,
  avatarUrl: (r.avatar_url as string | null) ?? null,
  anonymousMode: r.anonymous_mode === true,
  balance: Number(r.balance),
  activeTag: (r.tag as string | null) ?? null,
});

/** Profiles of the given players, by id, from PostgreSQL (a prepared statement: see `sqlPrepared`). */
export async function loadProfiles(db: Database, ids: readonly string[]): Promise<Map<string, Profile>> {
  if (ids.length === 0) return new Map();
  const rows = await db.run((em) => sqlPrepared(em, PROFILES_SQL, [ids]));
  return new Map(rows.map((r) => [r.id as string, profileOfRow(r)]));
}

/** How long a stored profile is trusted; an older one is read again from PostgreSQL when a page shows it. */
export const PROFILE_TTL_MS = 10 * 60_000;

/**
 * A stored profile, split into its parts. It is kept as tab-separated text (JSON escapes every tab
 * inside its strings): `readAt`, anonymous 0|1, balance, Discord id, the tag as JSON, the entry's
 * JSON members from playerId to discordId, ready to be pasted into an entry (see EntryRenderer), and
 * the player's face (`faceOf`, a hash of the id: worked out once, when the copy is made, rather than for every entry of
 * every page read; a copy stored before the face was part of it counts as missing).
 * `readAt` (ms) is a time before the PostgreSQL read the copy came from, so the copy reflects every
 * commit made before it; writers keep the copy with the latest `readAt` (see STORE_PROFILES).
 */
export interface StoredProfile {
  readAt: number;
  anonymous: boolean;
  balance: number;
  discordId: string;
  /** `null` or `{"name":…}` */
  tagJson: string;
  /** `"playerId":…,"username":…,"avatarUrl":…,"anonymousMode":…,"discordId":…` */
  membersJson: string;
  /** The player's face (`faceOf`), shown unless the entry is masked. */
  face: string;
}

export function encodeProfile(p: Profile, readAt: number): string {
  const members = JSON.stringify({
    playerId: p.id,
    username: p.username,
    avatarUrl: p.avatarUrl,
    anonymousMode: p.anonymousMode,
    discordId: p.discordId,
  }).slice(1, -1);
  const tag = JSON.stringify(p.activeTag === null ? null : { name: p.activeTag });
  return `${readAt}\t${p.anonymousMode ? 1 : 0}\t${p.balance}\t${p.discordId}\t${tag}\t${members}\t${faceHash(p.id)}`;
}

/** The parts of `stored`, or null when there is none, it is older than `ttlMs` at `now` or has no face (an older encoding). */
export function splitProfile(stored: string | null | undefined, now: number, ttlMs = PROFILE_TTL_MS): StoredProfile | null {
  if (!stored) return null;
  const [readAt, anonymous, balance, discordId, tagJson, membersJson, face] = stored.split("\t") as [
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (now - Number(readAt) >= ttlMs || !face) return null;
  return { readAt: Number(readAt), anonymous: anonymous === "1", balance: Number(balance), discordId, tagJson, membersJson, face };
}

export function profileOf(stored: StoredProfile): Profile {
  const members = JSON.parse(`{${stored.membersJson}}`) as { playerId: string; username: string; avatarUrl: string | null };
  const tag = JSON.parse(stored.tagJson) as { name: string } | null;
  return {
    id: members.playerId,
    discordId: stored.discordId,
    username: members.username,
    avatarUrl: members.avatarUrl,
    anonymousMode: stored.anonymous,
    balance: stored.balance,
    activeTag: tag?.name ?? null,
  };
}

/**
 * The profiles shown on boards, kept in a Redis hash beside the boards so that a page is one Redis
 * round trip (see Leaderboards.pageJson): filled for every ranked player by a build, refreshed from
 * PostgreSQL by every change made through `Players` (before the change is answered), and read again
 * from PostgreSQL when found missing or older than PROFILE_TTL_MS (which bounds how long a change made
 * behind the server's back, by hand in the database, stays unseen). Every write goes through one
 * script that keeps the copy read last, so a slow reader never overwrites a newer copy, whichever
 * process or build wrote it.
 */
export class ProfileStore {
  constructor(
    private readonly redis: Redis & BoardScripts,
    private readonly load: (ids: readonly string[]) => Promise<Map<string, Profile>>,
    private readonly ttlMs = PROFILE_TTL_MS,
  ) {}

  /** Profiles of the given players: the stored copies, and fresh ones for those missing or too old. */
  async get(ids: readonly string[]): Promise<Map<string, StoredProfile>> {
    if (ids.length === 0) return new Map();
    return this.complete(ids, await this.redis.hmget(KEYS.profiles, ...ids));
  }

  /** `stored[i]` is the stored copy for `ids[i]`; the missing and stale ones are read from PostgreSQL (and stored). */
  async complete(ids: readonly string[], stored: readonly (string | null | undefined)[]): Promise<Map<string, StoredProfile>> {
    const now = Date.now();
    const found = new Map<string, StoredProfile>();
    const missing: string[] = [];
    ids.forEach((id, i) => {
      const parts = splitProfile(stored[i], now, this.ttlMs);
      if (parts) found.set(id, parts);
      else missing.push(id);
    });
    if (missing.length === 0) return found;
    const readAt = Date.now();
    const encoded = [...(await this.load(missing)).values()].map((p) => [p.id, encodeProfile(p, readAt)] as const);
    for (const [id, text] of encoded) found.set(id, splitProfile(text, readAt, Infinity)!);
    if (encoded.length > 0) await this.redis.storeProfiles(KEYS.profiles, ...encoded.flat());
    return found;
  }

  /** A player's profile changed: the stored copy is replaced by one read after the change. */
  async refresh(playerId: string): Promise<void> {
    const readAt = Date.now();
    // Guests are never ranked: no copy of theirs is ever shown.
    await this.store(
      [...(await this.load([playerId])).values()].filter((p) => !isGuestId(p.discordId)),
      readAt,
    );
  }

  /** Stores copies read at `readAt`, each unless a copy read later is already there. */
  async store(profiles: readonly Profile[], readAt: number): Promise<void> {
    if (profiles.length === 0) return;
    await this.redis.storeProfiles(KEYS.profiles, ...profiles.flatMap((p) => [p.id, encodeProfile(p, readAt)]));
  }
}
