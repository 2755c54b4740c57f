import { sqlRows } from "../platform/db/sql";
import type { Database } from "../platform/db/database";
import { accountBalances, openStakes, type AccountBalance } from "../core/economy";

export interface LedgerMismatch {
  playerId: string;
  balance: number;
  ledgerSum: number;
  lastBalanceAfter: number | null;
}

/** A row whose player (or seed) is missing: a reference the schema no longer checks on each insert. */
export interface MissingReference {
  /** `<table>.<column>` of the row that refers */
  reference: string;
  /** the id referred to, which no row has */
  id: string;
  /** rows that refer to it */
  rows: number;
}

/**
 * References written only under a lock on the row they refer to, without a foreign key (migration
 * 1764100000006): table, column, the referenced table.
 */
const LOCKED_REFERENCES = [
  ["ledger_entries", "player_id", "players"],
  ["game_sessions", "player_id", "players"],
  ["game_sessions", "seed_id", "fairness_seeds"],
  ["processed_requests", "player_id", "players"],
] as const;

/** The whole economy: the players' balances and every other account's, which must sum to zero. */
export interface Economy {
  /** the sum of the players' balances */
  players: number;
  /** every account that is not a player's (house, mint, holding), with its balance */
  accounts: AccountBalance[];
  /** players plus accounts: 0 when every coin that moved came from an account and went to one */
  total: number;
}

/** A holding whose balance is not the stakes of the rounds still open there. */
export interface HoldingMismatch {
  account: string;
  balance: number;
  openStakes: number;
}

export interface LedgerAudit {
  players: number;
  mismatches: LedgerMismatch[];
  missingReferences: MissingReference[];
  economy: Economy;
  holdingMismatches: HoldingMismatch[];
}

/**
 * Recomputes every balance from the ledger: each player's balance must equal the sum of their entries,
 * and the last entry's running balance must equal it too. The entries of archived months count by their
 * checkpoints (`ledger_checkpoints_in_force`, migration 1764100000018): a balance is the player's
 * checkpoints plus the entries kept, and a player whose entries were all archived has the running
 * balance of their last archived entry. All accounts (the players' and the house's,
 * mint's and holdings') must sum to zero, and each holding must hold the stakes of the rounds open
 * there. Every ledger entry, round and stored answer must belong to a player that exists, and every
 * round to a seed that exists. One snapshot (REPEATABLE READ): the money work that commits meanwhile
 * is seen whole or not at all.
 */
export async function auditLedger(db: Database): Promise<LedgerAudit> {
  return db.transaction(async (em) => {
    await sqlRows(em, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    const [{ count }] = await sqlRows(em, `SELECT count(*)::int AS count FROM players`);
    const rows = await sqlRows(
      em,
      `
      SELECT p.id, p.balance, COALESCE(l.total, 0) + COALESCE(k.total, 0) AS total,
             COALESCE(last.balance_after, k.balance_after) AS balance_after
        FROM players p
        LEFT JOIN (SELECT player_id, sum(delta) AS total FROM ledger_entries GROUP BY player_id) l ON l.player_id = p.id
        LEFT JOIN (SELECT player_id, sum(amount) AS total, (array_agg(last_balance_after ORDER BY last_id DESC))[1] AS balance_after
                     FROM ledger_checkpoints_in_force WHERE player_id IS NOT NULL GROUP BY player_id) k ON k.player_id = p.id
        LEFT JOIN LATERAL (SELECT balance_after FROM ledger_entries e WHERE e.player_id = p.id ORDER BY e.id DESC LIMIT 1) last ON true
       WHERE p.balance <> COALESCE(l.total, 0) + COALESCE(k.total, 0)
          OR COALESCE(last.balance_after, k.balance_after) IS DISTINCT FROM p.balance`,
    );
    const missing = await sqlRows<{ reference: string; id: string; rows: number }>(
      em,
      LOCKED_REFERENCES.map(
        ([table, column, parent]) =>
          `(SELECT '${table}.${column}' AS reference, r.${column}::text AS id, count(*)::int AS rows FROM ${table} r
             WHERE r.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${parent} x WHERE x.id = r.${column}) GROUP BY r.${column})`,
      ).join(" UNION ALL ") + ` ORDER BY 1, 2`,
    );
    const [{ total: playersTotal }] = await sqlRows<{ total: string | number }>(
      em,
      `SELECT coalesce(sum(balance), 0) AS total FROM players`,
    );
    const accounts = await accountBalances(em);
    const held = new Map((await openStakes(em)).map((h) => [h.account, h.balance]));
    const holdingMismatches: HoldingMismatch[] = [];
    for (const account of new Set([...accounts.map((a) => a.account).filter((a) => a.startsWith("holding:")), ...held.keys()])) {
      const balance = accounts.find((a) => a.account === account)?.balance ?? 0;
      const stakes = held.get(account) ?? 0;
      if (balance !== stakes) holdingMismatches.push({ account, balance, openStakes: stakes });
    }
    holdingMismatches.sort((x, y) => x.account.localeCompare(y.account));
    const economy: Economy = {
      players: Number(playersTotal),
      accounts,
      total: accounts.reduce((sum, a) => sum + a.balance, Number(playersTotal)),
    };
    return {
      players: Number(count),
      economy,
      holdingMismatches,
      missingReferences: missing.map((m) => ({ reference: m.reference, id: m.id, rows: Number(m.rows) })),
      mismatches: rows.map((r: Record<string, unknown>) => ({
        playerId: r.id as string,
        balance: Number(r.balance),
        ledgerSum: Number(r.total),
        lastBalanceAfter: r.balance_after === null ? null : Number(r.balance_after),
      })),
    };
  });
}
