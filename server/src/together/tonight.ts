import { ANONYMOUS_NAME, CARD_GAME_IDS, type TonightBiggestWin, type TonightRow, type TonightVerify } from "@casino/common";
import type { Database } from "../db/database";
import { sqlRows } from "../db/sql";
import { loadProfiles } from "../leaderboard/profiles";

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

/**
 * The instance's board for today, from the durable records only: each member who joined today (its
 * `tonight_joins` row), with their settled rounds (`game_sessions`, every game of chance, the shared
 * crash round's bets and the shared blackjack table's seats) since that first join. One statement; the
 * player's index on game_sessions (player_id, created_at) serves each member's part.
 */
export async function tonightFigures(db: Database, instanceId: string): Promise<{ day: string; members: TonightFigures[] }> {
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `WITH j AS (
         SELECT player_id, joined_at FROM tonight_joins WHERE instance_id = $1 AND day = ${TODAY}
       ), g AS (
         SELECT g.player_id, g.seq, g.game_type, g.bet_amount, g.payout, g.payout - g.bet_amount AS net, g.seed_id, g.nonce, g.params
           FROM j JOIN game_sessions g ON g.player_id = j.player_id AND g.created_at >= j.joined_at
       ), totals AS (
         SELECT player_id, sum(net) AS net, count(*) AS rounds, count(*) FILTER (WHERE game_type = ANY($2::text[])) AS hands
           FROM g GROUP BY player_id
       ), best AS (
         SELECT DISTINCT ON (player_id) player_id, game_type, bet_amount, payout, net, seed_id, nonce, params
           FROM g WHERE net > 0 ORDER BY player_id, net DESC, seq
       ), runs AS (
         SELECT player_id, sign(net) AS dir, row_number() OVER (PARTITION BY player_id ORDER BY seq DESC) AS n FROM g WHERE net <> 0
       ), streak AS (
         SELECT l.player_id, l.dir * COALESCE(min(r.n) FILTER (WHERE r.dir <> l.dir) - 1, count(r.n)) AS streak
           FROM runs l JOIN runs r ON r.player_id = l.player_id
          WHERE l.n = 1 GROUP BY l.player_id, l.dir
       )
       SELECT j.player_id, to_char(j.joined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since,
              COALESCE(t.net, 0) AS net, COALESCE(t.rounds, 0) AS rounds, COALESCE(t.hands, 0) AS hands,
              COALESCE(s.streak, 0) AS streak,
              b.game_type, b.bet_amount, b.payout, b.net AS best_net, b.nonce, b.params, f.server_seed_hash,
              ${TODAY}::text AS day
         FROM j LEFT JOIN totals t ON t.player_id = j.player_id
                LEFT JOIN streak s ON s.player_id = j.player_id
                LEFT JOIN best b ON b.player_id = j.player_id
                LEFT JOIN fairness_seeds f ON f.id = b.seed_id
        ORDER BY j.joined_at, j.player_id`,
      [instanceId, CARD_GAME_IDS],
    ),
  );
  const day = (rows[0]?.day as string | undefined) ?? new Date().toISOString().slice(0, 10);
  return {
    day,
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
    })),
  };
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
  const ranked = rankFigures(members);
  const profiles = await loadProfiles(
    db,
    ranked.map((m) => m.playerId),
  );
  const boards = new Map<string, TonightRow[]>();
  for (const viewer of new Set(viewerIds)) {
    const rows: TonightRow[] = [];
    for (const m of ranked) {
      const profile = profiles.get(m.playerId);
      if (!profile) continue;
      const self = m.playerId === viewer;
      const hidden = profile.anonymousMode && !self;
      rows.push({
        rank: rows.length + 1,
        discordId: hidden ? null : profile.discordId,
        username: hidden ? ANONYMOUS_NAME : profile.username,
        avatarUrl: hidden ? null : profile.avatarUrl,
        hidden,
        self,
        net: m.net,
        rounds: m.rounds,
        hands: m.hands,
        streak: m.streak,
        biggestWin: m.biggestWin && (hidden ? { ...m.biggestWin, verify: null } : m.biggestWin),
        since: m.since,
      });
    }
    boards.set(viewer, rows);
  }
  return { day, boards };
}
