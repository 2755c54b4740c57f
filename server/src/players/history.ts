import {
  DAILY_SPIN,
  historyCursor,
  isRoundingRule,
  LEGACY_ROUNDING,
  type RoundingRule,
  type HistoryCursor,
  type HistoryItem,
  type HistoryKind,
  type HistoryPage,
} from "@casino/common";
import type { Database } from "../db/database";
import { sqlRows } from "../db/sql";

/**
 * A player's history, newest first: the finished rounds (`game_sessions`) and the daily spins (their
 * ledger entries, which keep the seed and nonce the wheel drew from), each with its seed pair, the
 * server seed shown only once the pair is rotated.
 *
 * Pages are cut by (created_at, id) at the database's full precision (microseconds): the time alone,
 * or the time rounded to JavaScript's milliseconds, would skip rows that share one. Each half is cut
 * and limited on its own (its index serves it), then the two are merged.
 */
export async function historyPage(
  db: Database,
  playerId: string,
  query: { limit: number; before?: HistoryCursor | { at: string; id: null }; kind?: HistoryKind },
): Promise<HistoryPage> {
  const { limit, before } = query;
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `WITH page AS (
         (SELECT 'round' AS kind, g.id::text AS id, g.game_type, g.amount, g.bet_amount, g.result, g.payout, g.request_id,
                 g.seed_id, g.nonce, g.params, g.actions, g.outcome, NULL::text AS reference, g.rounding, g.created_at
            FROM game_sessions g
           WHERE g.player_id = $1 AND ($6::text IS NULL OR $6 = 'round') AND ${olderThan("g.created_at", "g.id::text")}
           ORDER BY g.created_at DESC, g.id::text COLLATE "C" DESC LIMIT $4)
         UNION ALL
         (SELECT 'daily_spin', 'spin-' || e.id, $5, NULL, 0, 'win', e.delta, e.request_id,
                 e.seed_id, e.nonce, NULL, NULL, NULL, e.reference, NULL, e.created_at
            FROM ledger_entries e
           WHERE e.player_id = $1 AND e.reason = 'daily_spin' AND ($6::text IS NULL OR $6 = 'daily_spin') AND ${olderThan("e.created_at", "'spin-' || e.id")}
           ORDER BY e.created_at DESC, ('spin-' || e.id) COLLATE "C" DESC LIMIT $4))
       SELECT p.*, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
              f.server_seed_hash, f.client_seed, CASE WHEN f.active THEN NULL ELSE f.server_seed END AS server_seed
         FROM page p LEFT JOIN fairness_seeds f ON f.id = p.seed_id
        ORDER BY p.created_at DESC, p.id COLLATE "C" DESC
        LIMIT $4`,
      [playerId, before?.at ?? null, before?.id ?? null, limit, DAILY_SPIN, query.kind ?? null],
    ),
  );
  const items = rows.map(historyItem);
  const last = rows[rows.length - 1];
  return { items, nextBefore: rows.length === limit && last ? historyCursor(last.at as string, last.id as string) : null };
}

/** Rows strictly after the cursor in the page order: older, or as old with a smaller id. */
const olderThan = (at: string, id: string) =>
  `($2::timestamptz IS NULL OR ${at} < $2::timestamptz OR ($3::text IS NOT NULL AND ${at} = $2::timestamptz AND (${id}) COLLATE "C" < $3::text COLLATE "C"))`;

function historyItem(r: Record<string, unknown>): HistoryItem {
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
