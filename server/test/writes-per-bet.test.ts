import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";

/**
 * What one dice bet writes, counted row by row through the real path (the ledger's group commit):
 * rows inserted and updated per table, the index entries the inserted rows add, and the foreign keys
 * checked for them. A change that adds a row, an index or a foreign key to a bet fails here; remove the
 * redundant one or, when the new one is needed, say why in docs/performance.md and update the counts.
 *
 * Rows are counted by a row trigger this test installs on every table (the counting table itself is
 * not counted), in the bets' own transactions (those that wrote a ledger entry: what the consumers of
 * finished rounds write later, in their own transactions, is not a bet's); index entries by counting, for each index of a table a bet inserted into, the rows its
 * predicate takes before and after the bets.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { redis: false });
});
afterAll(async () => t?.close());

const sql = <T = any>(text: string, params: unknown[] = []): Promise<T[]> => t.app.services.db.run((em) => em.query(text, params));
const DICE = { target: 49.5, direction: "under" };
const BETS = 24;

interface IndexOf {
  table: string;
  index: string;
  predicate: string | null;
  method: string;
}

/**
 * The indexes of `tables`, and those of their partitions that are a partition's own (not a part of the
 * table's index): the ledger's unique (player, request id) of each month (migration 1764100000017).
 */
const indexesOf = (tables: string[]) =>
  sql<IndexOf>(
    `SELECT t.relname AS "table", i.relname AS "index", pg_get_expr(x.indpred, x.indrelid) AS predicate, a.amname AS method
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_am a ON a.oid = i.relam
      WHERE t.relname = ANY($1)
         OR (t.relispartition AND NOT i.relispartition
             AND EXISTS (SELECT 1 FROM pg_inherits h JOIN pg_class p ON p.oid = h.inhparent WHERE h.inhrelid = t.oid AND p.relname = ANY($1)))
      ORDER BY 1, 2`,
    [tables],
  );

/** A partition's own index, by what it is rather than by its month: `<partition>_player_request`. */
const PER_PARTITION = /^ledger_entries_\w+_player_request$/;

async function entriesPerIndex(indexes: IndexOf[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const i of indexes) {
    const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${i.table} ${i.predicate ? `WHERE ${i.predicate}` : ""}`);
    counts.set(i.index, row!.n);
  }
  return counts;
}

describe("the writes of one dice bet", () => {
  it("are the rows, index entries and foreign-key checks listed here, and no more", async () => {
    const ledger = t.app.services.ledger;
    const player = await ledger.createPlayer({ discordId: `guest-${randomUUID()}`, username: "writes", avatarUrl: null });
    // one bet first: whatever a player's first bet does once is not counted
    await ledger.placeBet(player.id, `warm-${randomUUID()}`, "dice", 1, DICE);

    await sql(`CREATE TABLE test_write_counts (tx bigint NOT NULL, tbl text NOT NULL, op text NOT NULL)`);
    await sql(`CREATE FUNCTION test_count_write() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN INSERT INTO test_write_counts VALUES (txid_current(), TG_ARGV[0], TG_OP); RETURN NULL; END $$`);
    const tables = (
      await sql<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname NOT IN ('test_write_counts', 'migrations')`,
      )
    ).map((r) => r.name);
    for (const table of tables) {
      await sql(
        // On a partitioned table, the trigger is cloned to each partition, with its argument: the table's name.
        `CREATE TRIGGER test_count_write AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION test_count_write('${table}')`,
      );
    }
    const indexes = await indexesOf(tables);
    const before = await entriesPerIndex(indexes);

    let paid = 0;
    for (let i = 0; i < BETS; i++) {
      const answer = await ledger.placeBet(player.id, `bet-${randomUUID()}`, "dice", 1, DICE);
      if (answer.payout > 0) paid++;
    }

    const counted = await sql<{ tbl: string; op: string; n: number }>(
      `SELECT tbl, op, count(*)::int AS n FROM test_write_counts
        WHERE tx IN (SELECT tx FROM test_write_counts WHERE tbl = 'ledger_entries') GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const rows = Object.fromEntries(counted.map((c) => [`${c.op.toLowerCase()} ${c.tbl}`, c.n]));
    const after = await entriesPerIndex(indexes);
    // Entries of the tables the bets inserted into (what a consumer inserts elsewhere is not a bet's);
    // a BRIN index keeps a summary per range of pages, not an entry per row.
    const insertedInto = new Set(counted.filter((c) => c.op === "INSERT").map((c) => c.tbl));
    const added: Record<string, number> = {};
    for (const i of indexes) {
      const table = PER_PARTITION.test(i.index) ? "ledger_entries" : i.table;
      if (!insertedInto.has(table) || i.method === "brin") continue;
      const name = PER_PARTITION.test(i.index) ? "<partition>_player_request" : i.index;
      added[name] = (added[name] ?? 0) + after.get(i.index)! - before.get(i.index)!;
    }
    const foreignKeys = await sql<{ name: string }>(
      `SELECT conname AS name FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1) ORDER BY 1`,
      [[...insertedInto]],
    );

    // A bet that pays has two ledger entries (bet, payout), one that loses has one.
    const entries = BETS + paid;
    expect(rows).toEqual({
      "insert ledger_entries": entries,
      "insert game_sessions": BETS,
      "insert processed_requests": BETS,
      "update players": BETS,
      "update fairness_seeds": BETS,
    });
    expect(added).toEqual({
      // ledger_entries: the ledger's order (consumers read by id), idempotency of each entry, a player's entries in order
      ledger_entries_pkey: entries,
      "<partition>_player_request": entries,
      idx_ledger_player: entries,
      idx_ledger_daily_spins: 0,
      // game_sessions: the round's id, a player's history, consumers' order, a round named by seed and nonce
      game_sessions_pkey: BETS,
      idx_game_sessions_player: BETS,
      uq_game_sessions_seq: BETS,
      idx_game_sessions_seed_nonce: BETS,
      // processed_requests: the stored answer by (player, request id), and its pruning by age
      processed_requests_pkey: BETS,
      idx_processed_requests_created: BETS,
    });
    // The player's and the seed's rows are locked by the bet's transaction: only a daily spin's seed is checked (null on a bet's entries).
    expect(foreignKeys.map((f) => f.name)).toEqual(["ledger_entries_seed_id_fkey"]);

    const inserted = Object.values(rows).reduce((a, b) => a + b, 0);
    const indexEntries = Object.values(added).reduce((a, b) => a + b, 0);
    console.log(
      `${BETS} dice bets (${paid} paid): ${JSON.stringify(rows)}; index entries ${JSON.stringify(added)}; ` +
        `per bet: ${(inserted / BETS).toFixed(2)} rows inserted or updated, ${(indexEntries / BETS).toFixed(2)} index entries of inserted rows; ` +
        `foreign keys of the tables inserted into: ${foreignKeys.map((f) => f.name).join(", ")}`,
    );
  });
});
