import { CARD_GAME_IDS, type TonightBiggestWin, type TonightRow, type TonightVerify } from "@casino/common";
import type { Database } from "../platform/db/database";
import { sqlPrepared, sqlRows } from "../platform/db/sql";
import { loadProfiles, shownTo, type Profile } from "../leaderboard/profiles";

/** The UTC day of the database's clock: the board's day, for the joins and the reads alike. */
const TODAY = `(now() AT TIME ZONE 'UTC')::date`;

/**
 * Records that these players are in the instance today: the first call of the day for a player and an
 * instance keeps the time (where their board starts); later calls change nothing. A member still
 * connected when the UTC day turns gets today's start at the next board read.
 */
export async function recordTonightJoins(db: Database, instanceId: string, playerIds: readonly string[]): Promise<void> {
  if (playerIds.length === 0) return;
  await db.run((em) =>
    sqlRows(
      em,
      `INSERT INTO tonight_joins (instance_id, day, player_id)
       SELECT $1, ${TODAY}, id FROM unnest($2::uuid[]) AS t(id)
       ON CONFLICT (instance_id, day, player_id) DO NOTHING`,
      [instanceId, [...new Set(playerIds)]],
    ),
  );
}

/** One member's figures as read from the database, before anyone's view of them. */
export interface TonightFigures {
  playerId: string;
  since: string;
  net: number;
  rounds: number;
  hands: number;
  streak: number;
  biggestWin: TonightBiggestWin | null;
}

/** A member's figures with where they stand in the member's rounds: what folding a later round needs. */
interface TallyFigures extends TonightFigures {
  /** `seq` of the biggest win, null when none. */
  bestSeq: number | null;
  /** `seq` of the latest round won or lost (the streak's end), null before any. */
  lastSeq: number | null;
}

/**
 * The instance's board for today, from the durable records only: each member who joined today (its
 * `tonight_joins` row), with their settled rounds (`game_sessions`, every game of chance, the shared
 * crash round's bets and the shared blackjack table's seats) since that first join. One statement; the
 * player's index on game_sessions (player_id, created_at) serves each member's part, and the rounds
 * are folded by hash aggregates only (no sort of a member's evening): the biggest win is the first
 * round (by `seq`) of the highest net, found again by its unique `seq`; the streak is the count of
 * won-or-lost rounds after the latest one that went the other way than the last. Besides the figures:
 * the `seq` of the rounds created in the last `recentMs` (which the next incremental read sees again),
 * and the database's time of the read.
 */
async function fullRead(
  db: Database,
  instanceId: string,
  recentMs: number,
): Promise<{ day: string; readAt: number; members: TallyFigures[]; recent: number[] }> {
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `WITH j AS (
         SELECT player_id, joined_at FROM tonight_joins WHERE instance_id = $1 AND day = ${TODAY}
       ), g AS (
         SELECT g.player_id, g.seq, g.game_type, g.created_at, g.payout - g.bet_amount AS net
           FROM j JOIN game_sessions g ON g.player_id = j.player_id AND g.created_at >= j.joined_at
       ), totals AS (
         SELECT player_id, sum(net) AS net, count(*) AS rounds, count(*) FILTER (WHERE game_type = ANY($2::text[])) AS hands,
                max(net) AS best_net, max(seq) FILTER (WHERE net <> 0) AS last_seq,
                array_agg(seq) FILTER (WHERE created_at >= now() - $3::int * interval '1 millisecond') AS recent
           FROM g GROUP BY player_id
       ), best AS (
         SELECT g.player_id, min(g.seq) AS seq FROM g JOIN totals t ON t.player_id = g.player_id AND g.net = t.best_net
          WHERE t.best_net > 0 GROUP BY g.player_id
       ), last AS (
         SELECT g.player_id, sign(g.net) AS dir FROM g JOIN totals t ON t.player_id = g.player_id AND g.seq = t.last_seq
       ), turn AS (
         SELECT g.player_id, max(g.seq) AS seq FROM g JOIN last l ON l.player_id = g.player_id
          WHERE g.net <> 0 AND sign(g.net) <> l.dir GROUP BY g.player_id
       ), streak AS (
         SELECT l.player_id, l.dir * count(*) AS streak
           FROM last l LEFT JOIN turn u ON u.player_id = l.player_id
           JOIN g ON g.player_id = l.player_id AND g.net <> 0 AND g.seq > COALESCE(u.seq, 0)
          GROUP BY l.player_id, l.dir
       )
       SELECT j.player_id, to_char(j.joined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since,
              COALESCE(t.net, 0) AS net, COALESCE(t.rounds, 0) AS rounds, COALESCE(t.hands, 0) AS hands,
              COALESCE(s.streak, 0) AS streak, t.last_seq, t.recent, x.seq AS best_seq,
              b.game_type, b.bet_amount, b.payout, b.payout - b.bet_amount AS best_net, b.nonce, b.params, f.server_seed_hash,
              ${TODAY}::text AS day, ${NOW_MS} AS read_at
         FROM j LEFT JOIN totals t ON t.player_id = j.player_id
                LEFT JOIN streak s ON s.player_id = j.player_id
                LEFT JOIN best x ON x.player_id = j.player_id
                LEFT JOIN game_sessions b ON b.seq = x.seq
                LEFT JOIN fairness_seeds f ON f.id = b.seed_id
        ORDER BY j.joined_at, j.player_id`,
      [instanceId, CARD_GAME_IDS, Math.round(recentMs)],
    ),
  );
  const day = (rows[0]?.day as string | undefined) ?? new Date().toISOString().slice(0, 10);
  return {
    day,
    readAt: rows[0] ? Number(rows[0].read_at) : Date.now(),
    recent: rows.flatMap((r) => ((r.recent as unknown[] | null) ?? []).map(Number)),
    members: rows.map((r) => ({
      playerId: r.player_id as string,
      since: r.since as string,
      net: Number(r.net),
      rounds: Number(r.rounds),
      hands: Number(r.hands),
      streak: Number(r.streak),
      biggestWin:
        r.best_net === null || r.best_net === undefined
          ? null
          : {
              game: r.game_type as string,
              stake: Number(r.bet_amount),
              payout: Number(r.payout),
              net: Number(r.best_net),
              verify: verifyOf(r),
            },
      bestSeq: r.best_seq === null || r.best_seq === undefined ? null : Number(r.best_seq),
      lastSeq: r.last_seq === null || r.last_seq === undefined ? null : Number(r.last_seq),
    })),
  };
}

/** The database's clock, in ms since the epoch. */
const NOW_MS = `(extract(epoch FROM now()) * 1000)::float8`;

/** The instance's board for today (see `fullRead`): the figures only, as the members would see them before anyone's view. */
export async function tonightFigures(db: Database, instanceId: string): Promise<{ day: string; members: TonightFigures[] }> {
  const { day, members } = await fullRead(db, instanceId, 0);
  return { day, members: members.map(figuresOnly) };
}

const figuresOnly = ({ bestSeq: _best, lastSeq: _last, ...figures }: TallyFigures): TonightFigures => figures;

/**
 * A settled round read again by a later read looks back this far before the previous read's time: the
 * rounds of a transaction that began before that read (its `created_at` is the transaction's start) but
 * committed after it are seen then. The rounds already counted are told apart by their unique `seq`.
 */
export const TONIGHT_LOOK_BACK_MS = 3_000;

/** Counts of the board's reads, by kind: what the room's fold saves is measured by them (tests, bench). */
export const tonightReads = { full: 0, incremental: 0 };

/**
 * An instance's board kept by its room: read in full once (the first push, a new UTC day, a member the
 * room did not know of, `invalidate`), then kept up to date by incremental reads that fetch only the
 * rounds created since the previous read (less TONIGHT_LOOK_BACK_MS), folding each round not counted
 * yet into its member's figures, in `seq` order, by the rules of the full read. A round older (by `seq`)
 * than the member's latest won-or-lost round already counted (a transaction that committed late) would
 * change the streak's order: the board is then read in full again, as it is on any doubt. So each read
 * costs the rounds of the last few seconds, not the evening's, and the figures are those of the full read.
 */
export class TonightTally {
  private day: string | null = null;
  private members: TallyFigures[] = [];
  private readonly byPlayer = new Map<string, TallyFigures>();
  /** `seq` of the rounds counted that a next read may return again, with the database's time of the read that counted them. */
  private readonly counted = new Map<number, number>();
  private readAt = 0;
  private stale = true;

  constructor(
    private readonly db: Database,
    private readonly instanceId: string,
  ) {}

  /** The next read is a full one. */
  invalidate(): void {
    this.stale = true;
  }

  /** The board now: `{ day, members }` as `tonightFigures` has it. */
  async read(): Promise<{ day: string; members: TonightFigures[]; full: boolean }> {
    const full = this.stale || !(await this.incremental());
    if (full) await this.full();
    return { day: this.day!, members: this.members.map(figuresOnly), full };
  }

  private async full(): Promise<void> {
    tonightReads.full += 1;
    this.stale = true;
    const read = await fullRead(this.db, this.instanceId, TONIGHT_LOOK_BACK_MS);
    this.day = read.day;
    this.members = read.members;
    this.byPlayer.clear();
    for (const m of read.members) this.byPlayer.set(m.playerId, m);
    this.counted.clear();
    for (const seq of read.recent) this.counted.set(seq, read.readAt);
    this.readAt = read.readAt;
    this.stale = false;
  }

  /**
   * Folds the rounds created since the last read; false when the board must be read in full instead (the
   * figures may then be folded in part: only a full read makes them whole again).
   */
  private async incremental(): Promise<boolean> {
    tonightReads.incremental += 1;
    const from = this.readAt - TONIGHT_LOOK_BACK_MS;
    const rows = await this.db.run((em) =>
      sqlPrepared(
        em,
        `WITH j AS (
           SELECT player_id, joined_at FROM tonight_joins WHERE instance_id = $1 AND day = ${TODAY}
         )
         SELECT j.player_id, g.seq, g.game_type, g.bet_amount, g.payout, g.nonce, f.server_seed_hash,
                jsonb_build_object('shoeId', g.params->'shoeId', 'round', g.params->'round', 'gameNumber', g.params->'gameNumber') AS params,
                ${TODAY}::text AS day, ${NOW_MS} AS read_at
           FROM j LEFT JOIN game_sessions g
                  ON g.player_id = j.player_id AND g.created_at >= GREATEST(j.joined_at, to_timestamp($2::float8 / 1000))
                  AND NOT (g.seq = ANY($3::bigint[]))
                  LEFT JOIN fairness_seeds f ON f.id = g.seed_id
          ORDER BY g.seq`,
        [this.instanceId, from, [...this.counted.keys()]],
      ),
    );
    // The members: the same as the last full read's, on the same day, or the board is read in full.
    const players = new Set(rows.map((r) => r.player_id as string));
    if (rows.length === 0 || rows[0]!.day !== this.day || players.size !== this.members.length) return false;
    for (const id of players) if (!this.byPlayer.has(id)) return false;
    const readAt = Number(rows[0]!.read_at);
    for (const r of rows) {
      if (r.seq === null || r.seq === undefined) continue;
      const seq = Number(r.seq);
      const member = this.byPlayer.get(r.player_id as string)!;
      const net = Number(r.payout) - Number(r.bet_amount);
      // A round won or lost before the streak's end counted already: its place in the streak is a full read's.
      if (net !== 0 && member.lastSeq !== null && seq < member.lastSeq) return false;
      member.net += net;
      member.rounds += 1;
      if ((CARD_GAME_IDS as readonly string[]).includes(r.game_type as string)) member.hands += 1;
      if (net > 0 && (!member.biggestWin || net > member.biggestWin.net || (net === member.biggestWin.net && seq < member.bestSeq!))) {
        member.biggestWin = {
          game: r.game_type as string,
          stake: Number(r.bet_amount),
          payout: Number(r.payout),
          net,
          verify: verifyOf(r),
        };
        member.bestSeq = seq;
      }
      if (net !== 0) {
        const dir = Math.sign(net);
        member.streak = Math.sign(member.streak) === dir ? member.streak + dir : dir;
        member.lastSeq = seq;
      }
      this.counted.set(seq, readAt);
    }
    // A round counted well before the next read's look-back (its record is older than the read that
    // counted it) is not returned again: forgotten, with a second's margin for clocks read in one instant.
    for (const [seq, at] of this.counted) if (at < readAt - TONIGHT_LOOK_BACK_MS - 1000) this.counted.delete(seq);
    this.readAt = readAt;
    return true;
  }
}

/** Where the round is verified: its shoe's round, its seed and nonce, or its crash game (see TonightVerify). */
function verifyOf(r: Record<string, unknown>): TonightVerify | null {
  const p = (r.params ?? {}) as { shoeId?: unknown; round?: unknown; gameNumber?: unknown };
  if (typeof p.shoeId === "string" && typeof p.round === "number") return { kind: "shoe", shoeId: p.shoeId, round: p.round };
  if (typeof r.server_seed_hash === "string" && r.nonce !== null && r.nonce !== undefined)
    return { kind: "round", serverSeedHash: r.server_seed_hash, nonce: Number(r.nonce) };
  if (typeof p.gameNumber === "number") return { kind: "chain", gameNumber: p.gameNumber };
  return null;
}

/** Best net first; then more rounds, then the earlier join. Ranks are 1, 2, 3… in that order. */
export function rankFigures(members: readonly TonightFigures[]): TonightFigures[] {
  return members
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.net - a.m.net || b.m.rounds - a.m.rounds || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * The board as each viewer sees it, with one read of the figures and one of the profiles: another
 * viewer sees a member in anonymous mode as ANONYMOUS_NAME, without avatar, Discord id or the biggest
 * win's verify link (its seed would name the player); the member sees themself as they are.
 */
export async function tonightBoards(
  db: Database,
  instanceId: string,
  viewerIds: readonly string[],
): Promise<{ day: string; boards: Map<string, TonightRow[]> }> {
  const { day, members } = await tonightFigures(db, instanceId);
  const profiles = await loadProfiles(
    db,
    members.map((m) => m.playerId),
  );
  return { day, boards: boardsOf(members, profiles, viewerIds) };
}

/** The board of each viewer, from the members' figures and profiles (see `tonightBoards`). */
export function boardsOf(
  members: readonly TonightFigures[],
  profiles: ReadonlyMap<string, Profile>,
  viewerIds: readonly string[],
): Map<string, TonightRow[]> {
  const { shared, own } = boardViews(members, profiles, viewerIds);
  return new Map([...new Set(viewerIds)].map((viewer) => [viewer, own.get(viewer) ?? shared]));
}

/**
 * The board's views: `shared`, the one every viewer sees, and `own`, the board of each viewer in
 * anonymous mode who is on it (their own row unhidden), the only viewers who see it otherwise. So
 * the shared board is written (and its push encoded) once for the instance, however many see it.
 */
export function boardViews(
  members: readonly TonightFigures[],
  profiles: ReadonlyMap<string, Profile>,
  viewerIds: readonly string[],
): { shared: TonightRow[]; own: Map<string, TonightRow[]> } {
  const ranked = rankFigures(members);
  const own = new Map<string, TonightRow[]>();
  for (const viewer of new Set(viewerIds)) {
    if (profiles.get(viewer)?.anonymousMode && ranked.some((m) => m.playerId === viewer))
      own.set(viewer, rowsFor(ranked, profiles, viewer));
  }
  return { shared: rowsFor(ranked, profiles, null), own };
}

/** The ranked members as `viewer` sees them (null: anyone who is none of them). */
function rowsFor(ranked: readonly TonightFigures[], profiles: ReadonlyMap<string, Profile>, viewer: string | null): TonightRow[] {
  const rows: TonightRow[] = [];
  for (const m of ranked) {
    const profile = profiles.get(m.playerId);
    if (!profile) continue;
    const { self: _self, ...shown } = shownTo(profile, viewer ?? "");
    rows.push({
      rank: rows.length + 1,
      ...shown,
      net: m.net,
      rounds: m.rounds,
      hands: m.hands,
      streak: m.streak,
      biggestWin: m.biggestWin && (shown.hidden ? { ...m.biggestWin, verify: null } : m.biggestWin),
      since: m.since,
    });
  }
  return rows;
}
