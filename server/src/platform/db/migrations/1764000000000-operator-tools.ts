import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What the operator's tools (`npm run admin`) need:
 *
 * - `players.status`: active, suspended (refused everywhere until restored) or erased (personal fields
 *   removed at the owner's request). Suspended and erased players are not ranked.
 * - `admin_adjustment`, a ledger reason: coins an operator granted or clawed back, through the ledger.
 * - `admin_actions`: who did what to which player, when and why (every command that changes or reads
 *   a player's data is written here, in the transaction of the change).
 * - `suggestions.status`: new, read or done, and who marked it when.
 *
 * Both CHECKs on existing tables are added NOT VALID here: adding one would otherwise scan the table
 * under a lock that stops every bet. The next migration validates them without that lock.
 */
export class OperatorTools1764000000000 implements MigrationInterface {
  name = "OperatorTools1764000000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players ADD COLUMN status text NOT NULL DEFAULT 'active'`);
    await q.query(`ALTER TABLE players ADD CONSTRAINT players_status_check CHECK (status IN ('active','suspended','erased')) NOT VALID`);

    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_reason_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_reason_check
         CHECK (reason IN ('grant','bet','payout','refund','daily_spin','reward','admin_adjustment')) NOT VALID`,
    );

    await q.query(`
      CREATE TABLE admin_actions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        operator text NOT NULL CHECK (length(operator) BETWEEN 1 AND 100),
        action text NOT NULL CHECK (action IN ('grant','claw_back','suspend','restore','export','erase','mark_suggestion')),
        player_id uuid REFERENCES players(id),
        reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
        request_id text,
        amount bigint,
        details jsonb
      )`);
    await q.query(`CREATE INDEX idx_admin_actions_player ON admin_actions (player_id, id)`);

    await q.query(`ALTER TABLE suggestions ADD COLUMN status text NOT NULL DEFAULT 'new' CHECK (status IN ('new','read','done'))`);
    await q.query(`ALTER TABLE suggestions ADD COLUMN marked_at timestamptz`);
    await q.query(`ALTER TABLE suggestions ADD COLUMN marked_by text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE suggestions DROP COLUMN marked_by, DROP COLUMN marked_at, DROP COLUMN status`);
    await q.query(`DROP TABLE admin_actions`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_reason_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_reason_check CHECK (reason IN ('grant','bet','payout','refund','daily_spin','reward'))`,
    );
    await q.query(`ALTER TABLE players DROP COLUMN status`);
  }
}
