import { CARD_GAME_IDS, type TonightBiggestWin, type TonightRow, type TonightVerify } from "@casino/common";
import type { Database } from "../db/database";
import { sqlRows } from "../db/sql";
import { loadProfiles, shownTo } from "../leaderboard/profiles";

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
 * player's index on game_sessions (player_id, created_at) serves each member's part, and the rounds
 * are folded by hash aggregates only (no sort of a member's evening): the biggest win is the first
 * round (by `seq`) of the highest net, found again by its unique `seq`; the streak is the count of
 * won-or-lost rounds after the latest one that went the other way than the last.
 */
export async function tonightFigures(db: Database, instanceId: string): Promise<{ day: string; members: TonightFigures[] }> {
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `WITH j AS (
         SELECT player_id, joined_at FROM tonight_joins WHERE instance_id = $1 AND day = ${TODAY}
       ), g AS (
         SELECT g.player_id, g.seq, g.game_type, g.payout - g.bet_amount AS net
           FROM j JOIN game_sessions g ON g.player_id = j.player_id AND g.created_at >= j.joined_at
       ), totals AS (
         SELECT player_id, sum(net) AS net, count(*) AS rounds, count(*) FILTER (WHERE game_type = ANY($2::text[])) AS hands,
                max(net) AS best_net, max(seq) FILTER (WHERE net <> 0) AS last_seq
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
              COALESCE(s.streak, 0) AS streak,
              b.game_type, b.bet_amount, b.payout, b.payout - b.bet_amount AS best_net, b.nonce, b.params, f.server_seed_hash,
              ${TODAY}::text AS day
         FROM j LEFT JOIN totals t ON t.player_id = j.player_id
                LEFT JOIN streak s ON s.player_id = j.player_id
                LEFT JOIN best x ON x.player_id = j.player_id
                LEFT JOIN game_sessions b ON b.seq = x.seq
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
      const shown = shownTo(profile, viewer);
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
    boards.set(viewer, rows);
  }
  return { day, boards };
}
