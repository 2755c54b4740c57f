import {
  DAILY_SPIN,
  HOLDEM_GAME,
  historyCursor,
  isRoundingRule,
  LEGACY_ROUNDING,
  type RoundingRule,
  type HistoryCursor,
  type HistoryFilter,
  type HistoryItem,
  type HistoryKind,
  type HistoryPage,
  type PlayerSummary,
} from "@casino/common";
import type { Database } from "../../platform/db/database";
import { sqlRows } from "../../platform/db/sql";

/**
 * A player's history, newest first: the finished rounds (`game_sessions`), the daily spins (their
 * ledger entries, which keep the seed and nonce the wheel drew from), each with its seed pair, the
 * server seed shown only once the pair is rotated, and the Hold'em hands the player was dealt into
 * (`holdem_hand_players`, with the hand's own seed, revealed once the hand is over).
 *
 * Pages are cut by (created_at, id) at the database's full precision (microseconds): the time alone,
 * or the time rounded to JavaScript's milliseconds, would skip rows that share one. Each half is cut
 * and limited on its own (its index serves it), then the three are merged.
 */
export async function historyPage(
  db: Database,
  playerId: string,
  query: {
    limit: number;
    before?: HistoryCursor | { at: string; id: null };
    kind?: HistoryKind;
  } & HistoryFilter,
): Promise<HistoryPage> {
  const { limit, before } = query;
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `WITH page AS (
         (SELECT 'round' AS kind, g.id::text AS id, g.game_type, g.amount, g.bet_amount, g.result, g.payout, g.request_id,
                 g.seed_id, g.nonce, g.params, g.actions, g.outcome, NULL::text AS reference, g.rounding, g.created_at,
                 NULL::text AS hand_seed_hash, NULL::text AS hand_client_seed, NULL::text AS hand_seed
            FROM game_sessions g
           WHERE g.player_id = $1 AND ($6::text IS NULL OR $6 = 'round') AND ${olderThan("g.created_at", "g.id::text")}
             AND ($7::text IS NULL OR g.game_type = $7) AND ($8::text IS NULL OR g.result = $8) AND ${within("g.created_at")}
           ORDER BY g.created_at DESC, g.id::text COLLATE "C" DESC LIMIT $4)
         UNION ALL
         (SELECT 'daily_spin', 'spin-' || e.id, $5, NULL, 0, 'win', e.delta, e.request_id,
                 e.seed_id, e.nonce, NULL, NULL, NULL, e.reference, NULL, e.created_at, NULL, NULL, NULL
            FROM ledger_entries e
           WHERE e.player_id = $1 AND e.reason = 'daily_spin' AND ($6::text IS NULL OR $6 = 'daily_spin') AND ${olderThan("e.created_at", "'spin-' || e.id")}
             AND ($7::text IS NULL OR $7 = $5) AND ($8::text IS NULL OR $8 = 'win') AND ${within("e.created_at")}
           ORDER BY e.created_at DESC, ('spin-' || e.id) COLLATE "C" DESC LIMIT $4)
         UNION ALL
         (SELECT 'holdem_hand', 'holdem-' || hp.hand_id::text, $11, hp.put_in, hp.put_in, ${HAND_RESULT}, hp.won, NULL,
                 NULL, h.hand_number, jsonb_build_object('handId', h.id, 'tableId', h.table_id, 'seat', hp.seat, 'handNumber', h.hand_number),
                 NULL, jsonb_build_object('board', h.result->'board', 'showdown', h.result->'showdown'), NULL, NULL, hp.created_at,
                 h.server_seed_hash, (SELECT s->>'clientSeed' FROM jsonb_array_elements(h.seeds) s WHERE (s->>'seat')::int = hp.seat),
                 h.server_seed
            FROM holdem_hand_players hp JOIN holdem_hands h ON h.id = hp.hand_id
           WHERE hp.player_id = $1 AND ($6::text IS NULL OR $6 = 'holdem_hand') AND ${olderThan("hp.created_at", "'holdem-' || hp.hand_id::text")}
             AND ($7::text IS NULL OR $7 = $11) AND ($8::text IS NULL OR ${HAND_RESULT} = $8) AND ${within("hp.created_at")}
           ORDER BY hp.created_at DESC, ('holdem-' || hp.hand_id::text) COLLATE "C" DESC LIMIT $4))
       SELECT p.*, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
              COALESCE(p.hand_seed_hash, f.server_seed_hash) AS server_seed_hash, COALESCE(p.hand_client_seed, f.client_seed) AS client_seed,
              CASE WHEN p.kind = 'holdem_hand' THEN p.hand_seed WHEN f.active THEN NULL ELSE f.server_seed END AS server_seed
         FROM page p LEFT JOIN fairness_seeds f ON f.id = p.seed_id
        ORDER BY p.created_at DESC, p.id COLLATE "C" DESC
        LIMIT $4`,
      [
        playerId,
        before?.at ?? null,
        before?.id ?? null,
        limit,
        DAILY_SPIN,
        query.kind ?? null,
        query.game ?? null,
        query.result ?? null,
        query.from ?? null,
        query.to ?? null,
        HOLDEM_GAME,
      ],
    ),
  );
  const items = rows.map(historyItem);
  const last = rows[rows.length - 1];
  const nextBefore = rows.length === limit && last ? historyCursor(last.at as string, last.id as string) : null;
  // Hold'em hands are not archived (holdem_hand_players is no partitioned table).
  if (nextBefore || query.kind === "holdem_hand") return { items, nextBefore };
  const archivedBefore = await archivedUntil(db, playerId, query.from ?? null);
  return archivedBefore ? { items, nextBefore, archivedBefore } : { items, nextBefore };
}

/**
 * The end of the newest archived month (docs/architecture/retention.md, "Archived months") that held
 * entries of the player and ends after `from` (the asked span reaches into it), or null: the player's
 * checkpoints in force, one per archived ledger month they had entries in.
 */
async function archivedUntil(db: Database, playerId: string, from: string | null): Promise<string | null> {
  const [row] = await db.run((em) =>
    sqlRows<{ until: string | null }>(
      em,
      `SELECT to_char(max(a.range_to) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS until
         FROM ledger_checkpoints_in_force k JOIN archived_partitions a ON a.name = k.partition
        WHERE k.player_id = $1 AND ($2::timestamptz IS NULL OR a.range_to > $2::timestamptz)`,
      [playerId, from],
    ),
  );
  return row?.until ?? null;
}

/** A hand's result for the player: won when it won more than it put in, a push when as much. */
const HAND_RESULT = `(CASE WHEN hp.won > hp.put_in THEN 'win' WHEN hp.won < hp.put_in THEN 'lose' ELSE 'push' END)`;

/** Rows in the asked span: at or after `from` ($9), strictly before `to` ($10). */
const within = (at: string, from = "$9", to = "$10") =>
  `(${from}::timestamptz IS NULL OR ${at} >= ${from}::timestamptz) AND (${to}::timestamptz IS NULL OR ${at} < ${to}::timestamptz)`;

/**
 * The finished rounds a filter keeps, as the history's rows of kind "round" are filtered: the game ($2),
 * the result ($3), the span ($4, $5). The wheel's spins are no rounds, so its game keeps none.
 */
const ROUNDS_MATCHING = `g.player_id = $1 AND ($2::text IS NULL OR g.game_type = $2) AND ($3::text IS NULL OR g.result = $3)
   AND ${within("g.created_at", "$4", "$5")}`;

/**
 * The totals and the most played game of the rounds a filter keeps (ROUNDS_MATCHING's parameters), in one
 * pass: one row per game, ordered so the first is the most played (ties: the latest played, then by
 * name); the window sums over every game's group carry the totals on that row. No round matches: no row.
 */
export const SUMMARY_TOTALS = `SELECT game_type, count(*)::text AS game_rounds, (sum(count(*)) OVER ())::text AS rounds,
        (COALESCE(sum(sum(bet_amount)) OVER (), 0))::text AS wagered,
        (COALESCE(sum(sum(payout - bet_amount)) OVER (), 0))::text AS net
   FROM game_sessions g WHERE ${ROUNDS_MATCHING}
  GROUP BY game_type ORDER BY count(*) DESC, max(created_at) DESC, game_type LIMIT 1`;

/**
 * The round with the largest win among those a filter keeps, as a history row: found among the index's
 * entries (ties: the latest, then by id), then its one row read whole.
 */
export const BIGGEST_WIN = `SELECT 'round' AS kind, g.id::text AS id, g.game_type, g.amount, g.bet_amount, g.result, g.payout, g.request_id,
        g.seed_id, g.nonce, g.params, g.actions, g.outcome, NULL::text AS reference, g.rounding, g.created_at,
        to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
        f.server_seed_hash, f.client_seed, CASE WHEN f.active THEN NULL ELSE f.server_seed END AS server_seed
   FROM (SELECT g.id, g.created_at FROM game_sessions g
          WHERE ${ROUNDS_MATCHING} AND g.payout > g.bet_amount
          ORDER BY g.payout - g.bet_amount DESC, g.created_at DESC, g.id::text COLLATE "C" DESC LIMIT 1) top
   JOIN game_sessions g ON g.id = top.id AND g.created_at = top.created_at
   LEFT JOIN fairness_seeds f ON f.id = g.seed_id`;

/**
 * The player's totals over their finished rounds (`game_sessions`, the durable record) that match the
 * history's filters (all of them without a filter): count, stake, net, the round with the largest win
 * (as a history row, for its verify link) and the most played game. Sums are taken in the database as
 * bigint/numeric, then read as numbers (coins stay far below 2^53).
 *
 * Two statements, each one pass over the player's entries of `idx_game_sessions_player`, which carries
 * the columns they filter and sum (an index-only scan: no heap page per round, which at a year's depth
 * is thousands of pages spread over the year): SUMMARY_TOTALS and BIGGEST_WIN.
 */
export async function playerSummary(db: Database, playerId: string, filter: HistoryFilter = {}): Promise<PlayerSummary> {
  const params = [playerId, filter.game ?? null, filter.result ?? null, filter.from ?? null, filter.to ?? null];
  return db.run(async (em) => {
    const [totals] = await sqlRows(em, SUMMARY_TOTALS, params);
    const [best] = await sqlRows(em, BIGGEST_WIN, params);
    return {
      rounds: Number(totals?.rounds ?? 0),
      wagered: Number(totals?.wagered ?? 0),
      net: Number(totals?.net ?? 0),
      biggestWin: best ? historyItem(best) : null,
      favouriteGame: totals ? { gameType: totals.game_type as string, rounds: Number(totals.game_rounds) } : null,
    };
  });
}

/** Rows strictly after the cursor in the page order: older, or as old with a smaller id. */
const olderThan = (at: string, id: string) =>
  `($2::timestamptz IS NULL OR ${at} < $2::timestamptz OR ($3::text IS NOT NULL AND ${at} = $2::timestamptz AND (${id}) COLLATE "C" < $3::text COLLATE "C"))`;

function historyItem(r: Record<string, unknown>): HistoryItem {
  if (r.kind === "holdem_hand") return handItem(r);
  const spin = r.kind === "daily_spin";
  const segment = spin ? Number(/segment (\d+)/.exec(String(r.reference ?? ""))?.[1]) : NaN;
  return {
    id: r.id as string,
    kind: spin ? "daily_spin" : "round",
    gameType: r.game_type as string,
    amount: r.amount === null || r.amount === undefined ? null : Number(r.amount),
    betAmount: Number(r.bet_amount),
    result: r.result as HistoryItem["result"],
    payout: Number(r.payout),
    requestId: (r.request_id as string | null) ?? null,
    params: spin ? {} : r.params,
    actions: spin ? [] : ((r.actions as unknown[] | null) ?? []),
    rounding: spin ? null : isRoundingRule(Number(r.rounding)) ? (Number(r.rounding) as RoundingRule) : LEGACY_ROUNDING,
    outcome: spin ? { segment: Number.isInteger(segment) ? segment : null, prize: Number(r.payout) } : r.outcome,
    createdAt: r.at as string,
    fairness: {
      serverSeedHash: (r.server_seed_hash as string | null) ?? null,
      clientSeed: (r.client_seed as string | null) ?? null,
      nonce: r.nonce === null || r.nonce === undefined ? null : Number(r.nonce),
      serverSeed: (r.server_seed as string | null) ?? null,
    },
  };
}

/** A Hold'em hand as a history row: what the player's seat put in and won, and the hand's own seed. */
function handItem(r: Record<string, unknown>): HistoryItem {
  return {
    id: r.id as string,
    kind: "holdem_hand",
    gameType: r.game_type as string,
    amount: Number(r.amount),
    betAmount: Number(r.bet_amount),
    result: r.result as HistoryItem["result"],
    payout: Number(r.payout),
    requestId: null,
    params: r.params,
    actions: [],
    rounding: null,
    outcome: r.outcome,
    createdAt: r.at as string,
    fairness: {
      serverSeedHash: (r.server_seed_hash as string | null) ?? null,
      clientSeed: (r.client_seed as string | null) ?? null,
      nonce: r.nonce === null || r.nonce === undefined ? null : Number(r.nonce),
      serverSeed: (r.server_seed as string | null) ?? null,
    },
  };
}
