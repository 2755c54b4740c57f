import { sqlRows } from "../db/sql";
import type { Database } from "../db/database";

export interface LedgerMismatch {
  playerId: string;
  balance: number;
  ledgerSum: number;
  lastBalanceAfter: number | null;
}

/**
 * Recomputes every balance from the ledger: each player's balance must equal the sum of their entries,
 * and the last entry's running balance must equal it too.
 */
export async function auditLedger(db: Database): Promise<{ players: number; mismatches: LedgerMismatch[] }> {
  return db.run(async (em) => {
    const [{ count }] = await sqlRows(em, `SELECT count(*)::int AS count FROM players`);
    const rows = await sqlRows(
      em,
      `
      SELECT p.id, p.balance, COALESCE(l.total, 0) AS total, last.balance_after
        FROM players p
        LEFT JOIN (SELECT player_id, sum(delta) AS total FROM ledger_entries GROUP BY player_id) l ON l.player_id = p.id
        LEFT JOIN LATERAL (SELECT balance_after FROM ledger_entries e WHERE e.player_id = p.id ORDER BY e.id DESC LIMIT 1) last ON true
       WHERE p.balance <> COALESCE(l.total, 0) OR last.balance_after IS DISTINCT FROM p.balance`,
    );
    return {
      players: Number(count),
      mismatches: rows.map((r: Record<string, unknown>) => ({
        playerId: r.id as string,
        balance: Number(r.balance),
        ledgerSum: Number(r.total),
        lastBalanceAfter: r.balance_after === null ? null : Number(r.balance_after),
      })),
    };
  });
}
