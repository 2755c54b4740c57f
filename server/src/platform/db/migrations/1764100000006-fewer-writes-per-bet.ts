import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Fewer writes per bet (docs/performance.md, "Where a bet's time goes"); each thing removed held
 * nothing that another row, index or lock did not already hold.
 *
 * 1. `game_plays` (the spec's play: id, player, game, when) becomes a view of `game_sessions`. Every play
 * was written with its round, in the same statement, from the round's own player and game: a second
 * row, three index entries and a foreign-key check per bet held nothing the round did not. The view
 * reads the round's id, player, game and time.
 *
 * A play already stored with no round to match it (same player, game and time, paired one to one) is
 * kept, in `game_plays_legacy` (without the indexes: nothing new is written there, and the rounds' own
 * indexes serve the view), and the view shows it too: nothing readable before is lost. The view is
 * a UNION, so it takes no INSERT, UPDATE or DELETE: a round is recorded, and erased, only as a round.
 *
 * 2. The foreign keys whose check repeats a lock the writing transaction already holds: a ledger entry,
 * a round and a stored answer are written only under their player's row lock (FOR NO KEY UPDATE, taken
 * before anything is read), and a round's seed row is updated (its nonce) in the very statement that
 * inserts the round. The check (a KEY SHARE lookup of that same row, per inserted row) could never fail,
 * and players and seeds are never deleted. A round lost in the crash room is written without the lock,
 * for a player who has its `crash_bets` row (whose foreign key stays). The references stay checkable by
 * SQL: `npm run audit` names any entry, round or answer whose player, or round whose seed, is missing.
 */
/** Table, column, referenced table. */
const LOCKED_REFERENCES = [
  ["ledger_entries", "player_id", "players"],
  ["game_sessions", "player_id", "players"],
  ["game_sessions", "seed_id", "fairness_seeds"],
  ["processed_requests", "player_id", "players"],
] as const;

export class FewerWritesPerBet1764100000006 implements MigrationInterface {
  name = "FewerWritesPerBet1764100000006";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_plays RENAME TO game_plays_legacy`);
    await renameConstraints(q, "game_plays_legacy", "game_plays", "game_plays_legacy");
    await q.query(`DROP INDEX idx_game_plays_type`);
    await q.query(`DROP INDEX idx_game_plays_player`);
    await q.query(`
      DELETE FROM game_plays_legacy WHERE id IN (
        SELECT p.id
          FROM (SELECT id, player_id, game_type, played_at,
                       row_number() OVER (PARTITION BY player_id, game_type, played_at ORDER BY id) AS k
                  FROM game_plays_legacy) p
          JOIN (SELECT player_id, game_type, created_at,
                       row_number() OVER (PARTITION BY player_id, game_type, created_at ORDER BY seq) AS k
                  FROM game_sessions) g
            ON g.player_id = p.player_id AND g.game_type = p.game_type AND g.created_at = p.played_at AND g.k = p.k)`);
    await q.query(`
      CREATE VIEW game_plays AS
        SELECT id, player_id, game_type, created_at AS played_at FROM game_sessions
        UNION ALL
        SELECT id, player_id, game_type, played_at FROM game_plays_legacy`);
    for (const [table, column] of LOCKED_REFERENCES) await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_${column}_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, column, parent] of LOCKED_REFERENCES) {
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_${column}_fkey FOREIGN KEY (${column}) REFERENCES ${parent}(id)`);
    }
    await q.query(`DROP VIEW game_plays`);
    await q.query(`
      INSERT INTO game_plays_legacy (id, player_id, game_type, played_at)
      SELECT id, player_id, game_type, created_at FROM game_sessions`);
    await q.query(`ALTER TABLE game_plays_legacy RENAME TO game_plays`);
    await renameConstraints(q, "game_plays", "game_plays_legacy", "game_plays");
    await q.query(`CREATE INDEX idx_game_plays_type ON game_plays (game_type)`);
    await q.query(`CREATE INDEX idx_game_plays_player ON game_plays (player_id, game_type)`);
  }
}

/**
 * Renames the constraints of `table` named `<from>_…` to `<to>_…`: the primary key and the foreign key,
 * and on PostgreSQL 17 and later the NOT NULL constraints too, which are named then.
 */
async function renameConstraints(q: QueryRunner, table: string, from: string, to: string): Promise<void> {
  const names: { conname: string }[] = await q.query(
    `SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND starts_with(conname, $2) ORDER BY conname`,
    [table, `${from}_`],
  );
  for (const { conname } of names) {
    await q.query(`ALTER TABLE ${table} RENAME CONSTRAINT "${conname}" TO "${to}${conname.slice(from.length)}"`);
  }
}
