import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A player's totals read from the player's index alone (docs/scaling.md, section 6): the admin lookup's
 * `sum(delta)` and `count(*)` of the player's ledger entries, and the history's totals over the player's
 * rounds (count, stake, net, most played game, largest win) under the history's filters (game, result,
 * span). Each player index is replaced by one with the same name and key that also carries (INCLUDE)
 * the columns those reads sum and filter on, so PostgreSQL answers them by an index-only scan of the
 * player's leaf pages instead of a heap page per entry spread over the player's whole history. An insert
 * still maintains as many indexes as before; each entry of these two is a little wider.
 *
 * On a plain table the new index is built CONCURRENTLY (outside a transaction: bets go on) beside the
 * old one, which is then dropped CONCURRENTLY, and the new one takes its name. A partitioned table (the
 * ledger and the rounds partitioned by time) takes no CONCURRENTLY on its parent: there the index is
 * built on the parent, which builds it on every partition (and likewise inside a transaction). Safe to run again: an index that already has
 * the included columns is left as it is, a half-built one of an interrupted run is dropped first.
 */
const COVERING = [
  {
    table: "ledger_entries",
    index: "idx_ledger_player",
    keys: "(player_id, id)",
    include: "(delta)",
  },
  {
    table: "game_sessions",
    index: "idx_game_sessions_player",
    keys: "(player_id, created_at DESC, id DESC)",
    include: "(game_type, result, bet_amount, payout)",
  },
] as const;

export class CoveringPlayerIndexes1764100000016 implements MigrationInterface {
  name = "CoveringPlayerIndexes1764100000016";
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const { table, index, keys, include } of COVERING) await rebuild(q, table, index, `${keys} INCLUDE ${include}`, true);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, index, keys } of COVERING) await rebuild(q, table, index, keys, false);
  }
}

/** Replaces `index` of `table` with one of the same name on `definition`, unless it already has (or lacks) included columns. */
async function rebuild(q: QueryRunner, table: string, index: string, definition: string, covering: boolean): Promise<void> {
  const [current] = (await q.query(`SELECT i.indnatts > i.indnkeyatts AS covering FROM pg_index i WHERE i.indexrelid = to_regclass($1)`, [
    index,
  ])) as { covering: boolean }[];
  if (current && current.covering === covering) return;
  const [{ partitioned }] = (await q.query(`SELECT relkind = 'p' AS partitioned FROM pg_class WHERE oid = $1::regclass`, [table])) as {
    partitioned: boolean;
  }[];
  // Nor inside a transaction (TypeORM runs an undone migration in one, whatever the migration says).
  const concurrently = partitioned || q.isTransactionActive ? "" : "CONCURRENTLY";
  const next = `${index}_next`;
  await q.query(`DROP INDEX ${concurrently} IF EXISTS ${next}`);
  await q.query(`CREATE INDEX ${concurrently} ${next} ON ${table} ${definition}`);
  await q.query(`DROP INDEX ${concurrently} IF EXISTS ${index}`);
  await q.query(`ALTER INDEX ${next} RENAME TO ${index}`);
}
