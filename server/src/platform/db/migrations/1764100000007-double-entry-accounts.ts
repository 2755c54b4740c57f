import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Double-entry accounts (docs/architecture/money-path.md, "Accounts").
 *
 * Every ledger entry becomes a transfer between the player and a counter-party account named in its
 * new column `account`: the coins the player gained (`delta` > 0) came from that account, the coins the
 * player lost went to it. The accounts that are not players:
 *
 * - `house:<game>`: the house, one account per game (the game of its rounds: the shared crash room's
 *   entries are `crash`'s, the blackjack table's are `blackjack`'s);
 * - `mint:<source>`: where coins enter or leave the economy: `starting-grant`, `daily-spin`,
 *   `skill-reward`, `admin-grant`, `admin-claw-back`;
 * - `holding:<game>` and `holding:blackjack-table`: the stakes of rounds still open (a multi-step
 *   round's, a table seat's), posted to the house when the round ends or paid back if it is voided.
 *
 * An account's balance is the sum of its side of the entries (minus each delta), plus the transfers
 * between two accounts that are not players (`account_transfers`: a holding posted to the house).
 * With the players' balances, all accounts sum to zero.
 *
 * The existing entries get their counter-party from their reason and reference, as the ledger writes
 * them from now on. The stakes of the rounds open now were taken by the house when they were placed:
 * one transfer per game moves them to the game's holding, from which the round is posted when it ends.
 * No player's balance or entry changes. An account name is checked for its form only; there is no row
 * per account, and no foreign key (a bet writes no more than a column).
 */
export class DoubleEntryAccounts1764100000007 implements MigrationInterface {
  name = "DoubleEntryAccounts1764100000007";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN account text`);
    await q.query(`
      UPDATE ledger_entries SET account = CASE reason
        WHEN 'grant' THEN 'mint:starting-grant'
        WHEN 'daily_spin' THEN 'mint:daily-spin'
        WHEN 'reward' THEN 'mint:skill-reward'
        WHEN 'admin_adjustment' THEN CASE WHEN reference = 'claw_back' THEN 'mint:admin-claw-back' ELSE 'mint:admin-grant' END
        ELSE 'house:' || CASE
          WHEN reference = 'crash-room' THEN 'crash'
          WHEN reference = 'blackjack-table' THEN 'blackjack'
          WHEN reference ~ '^[a-z0-9-]+$' THEN reference
          ELSE 'unknown' END
        END`);
    await q.query(`ALTER TABLE ledger_entries ALTER COLUMN account SET NOT NULL`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account ~ '^(house|mint|holding):[a-z0-9-]+$')`,
    );
    await q.query(`
      CREATE TABLE account_transfers (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        from_account text NOT NULL,
        to_account text NOT NULL,
        amount bigint NOT NULL,
        reason text NOT NULL,
        reference text,
        request_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_account_transfers_request UNIQUE (request_id),
        CONSTRAINT account_transfers_amount_check CHECK (amount > 0),
        CONSTRAINT account_transfers_reason_check CHECK (reason IN ('hold','post')),
        CONSTRAINT account_transfers_from_check CHECK (from_account ~ '^(house|mint|holding):[a-z0-9-]+$'),
        CONSTRAINT account_transfers_to_check CHECK (to_account ~ '^(house|mint|holding):[a-z0-9-]+$' AND to_account <> from_account)
      )`);
    // The open rounds' stakes, taken by the house when placed, move to their holdings.
    await q.query(`
      INSERT INTO account_transfers (from_account, to_account, amount, reason, reference, request_id)
      SELECT 'house:' || game, 'holding:' || game, sum(total_stake), 'hold', game, '#migration:open-rounds:' || game
        FROM open_rounds GROUP BY game HAVING sum(total_stake) > 0 ORDER BY game`);
    await q.query(`
      INSERT INTO account_transfers (from_account, to_account, amount, reason, reference, request_id)
      SELECT 'house:blackjack', 'holding:blackjack-table', sum(staked), 'hold', 'blackjack-table', '#migration:table-bets'
        FROM table_bets WHERE status = 'active' HAVING sum(staked) > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_transfers`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN account`);
  }
}
