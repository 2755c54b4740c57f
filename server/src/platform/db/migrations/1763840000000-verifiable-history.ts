import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What the history needs to send a player to the verifier:
 * - `game_sessions.amount`, the opening bet of the round (a double, split, raise or chip added later is
 *   in `bet_amount` only). Known for every older round without actions (it staked only its opening bet);
 *   left empty for older multi-step rounds with actions.
 * - `ledger_entries.seed_id` and `nonce` on daily spins: the seed pair and nonce the wheel drew from, so
 *   a spin is a history row that can be re-derived like a bet. Older spins never recorded them.
 * - an index for the spins of one player, newest first (the history reads them with the rounds).
 */
export class VerifiableHistory1763840000000 implements MigrationInterface {
  name = "VerifiableHistory1763840000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_sessions ADD COLUMN amount bigint`);
    await q.query(`UPDATE game_sessions SET amount = bet_amount WHERE actions IS NULL OR actions = '[]'::jsonb`);
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN seed_id uuid REFERENCES fairness_seeds(id)`);
    await q.query(`ALTER TABLE ledger_entries ADD COLUMN nonce integer`);
    await q.query(
      `CREATE INDEX idx_ledger_daily_spins ON ledger_entries (player_id, created_at DESC, id DESC) WHERE reason = 'daily_spin'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX idx_ledger_daily_spins`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN nonce`);
    await q.query(`ALTER TABLE ledger_entries DROP COLUMN seed_id`);
    await q.query(`ALTER TABLE game_sessions DROP COLUMN amount`);
  }
}
