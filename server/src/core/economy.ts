import type { EntityManager } from "typeorm";
import type { Database } from "../platform/db/database";
import { sqlRows } from "../platform/db/sql";

/**
 * The accounts that are not players, read from the ledger (docs/architecture/money-path.md, "Accounts"):
 * every ledger entry is a transfer between its player and its `account` (minus the entry's delta on
 * that side), and `account_transfers` move coins between two such accounts (a round's stakes posted
 * from its holding to the house). Balances are sums, not stored: a bet writes no account row.
 */

/**
 * Every account's side of the ledger, one row per movement side, for the sums below, with the archived
 * months' side as their checkpoints (`ledger_checkpoints_in_force`, migration 1764100000018).
 */
const ACCOUNT_SIDES = (filter: string) => `
  SELECT account, -delta AS amount FROM ledger_entries WHERE ${filter.replaceAll("$col", "account")}
  UNION ALL SELECT account, amount FROM ledger_checkpoints_in_force WHERE account IS NOT NULL AND ${filter.replaceAll("$col", "account")}
  UNION ALL SELECT to_account, amount FROM account_transfers WHERE ${filter.replaceAll("$col", "to_account")}
  UNION ALL SELECT from_account, -amount FROM account_transfers WHERE ${filter.replaceAll("$col", "from_account")}`;

export interface AccountBalance {
  account: string;
  balance: number;
}

/** The balance of every account that is not a player's, in one statement. */
export async function accountBalances(em: EntityManager): Promise<AccountBalance[]> {
  const rows = await sqlRows<{ account: string; balance: string | number }>(
    em,
    `SELECT account, sum(amount) AS balance FROM (${ACCOUNT_SIDES("true")}) s GROUP BY account ORDER BY account`,
  );
  return rows.map((r) => ({ account: r.account, balance: Number(r.balance) }));
}

export interface HouseResult {
  game: string;
  /** What the house won in this game (negative: lost): the stakes of its ended rounds less their payouts. */
  result: number;
}

/** The house's result per game: the balances of the `house:<game>` accounts, one statement. */
export async function houseResults(db: Database): Promise<HouseResult[]> {
  const rows = await db.run((em) =>
    sqlRows<{ game: string; result: string | number }>(
      em,
      `SELECT substr(account, length('house:') + 1) AS game, sum(amount) AS result
         FROM (${ACCOUNT_SIDES("$col LIKE 'house:%'")}) s GROUP BY account ORDER BY account`,
    ),
  );
  return rows.map((r) => ({ game: r.game, result: Number(r.result) }));
}

export interface MintedCoins {
  source: string;
  /** Coins the source put into players' balances (negative: took out, as claw-backs do). */
  minted: number;
  entries: number;
}

/** Coins minted per source (starting grants, daily spins, skill rewards, operators' grants and claw-backs), archived months included, one statement. */
export async function mintedBySource(db: Database): Promise<MintedCoins[]> {
  const rows = await db.run((em) =>
    sqlRows<{ source: string; minted: string | number; entries: string | number }>(
      em,
      `SELECT substr(account, length('mint:') + 1) AS source, sum(minted) AS minted, sum(entries) AS entries
         FROM (SELECT account, delta AS minted, 1 AS entries FROM ledger_entries WHERE account LIKE 'mint:%'
               UNION ALL
               SELECT account, -amount, entries FROM ledger_checkpoints_in_force WHERE account LIKE 'mint:%') s
        GROUP BY account ORDER BY account`,
    ),
  );
  return rows.map((r) => ({ source: r.source, minted: Number(r.minted), entries: Number(r.entries) }));
}

/**
 * What each holding should hold: the stakes of the rounds still open, `holding:<game>` for the multi-step
 * rounds (`open_rounds.total_stake`), `holding:blackjack-table` for the table's seats not yet settled,
 * and `holding:holdem-<table>` for each Hold'em table: the stacks of its seats not yet cashed out (its
 * buy-ins less its cash-outs; the pots of a hand being played are in those stacks until it is over).
 */
export async function openStakes(em: EntityManager): Promise<AccountBalance[]> {
  const rows = await sqlRows<{ account: string; balance: string | number }>(
    em,
    `SELECT 'holding:' || game AS account, sum(total_stake) AS balance FROM open_rounds GROUP BY game
     UNION ALL
     SELECT 'holding:blackjack-table', sum(staked) FROM table_bets WHERE status = 'active' HAVING count(*) > 0
     UNION ALL
     SELECT 'holding:holdem-' || table_id, sum(stack) FROM holdem_seats WHERE left_at IS NULL GROUP BY table_id
     ORDER BY 1`,
  );
  return rows.map((r) => ({ account: r.account, balance: Number(r.balance) }));
}
