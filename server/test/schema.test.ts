import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSource } from "typeorm";
import { dataSourceOptions } from "../src/platform/db/data-source";
import { freshDatabaseUrl } from "./harness";

/**
 * The entities are the schema. Two checks:
 * - TypeORM's schema diff (what `npm run migration:generate` would write) against a freshly migrated
 *   database is empty;
 * - a database built from the entities alone (`synchronize`) has the very columns, constraints and
 *   indexes of the migrated one, compared in PostgreSQL's own words: TypeORM's diff compares CHECKs and
 *   partial indexes by name only, this comparison reads their definitions.
 */
let ds: DataSource;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  ds = new DataSource(dataSourceOptions(fresh.url, "memory://"));
  await ds.initialize();
});
afterAll(async () => {
  await ds?.destroy();
  await drop?.();
});

/**
 * This file's database, emptied and built again: by the migrations, or from the entities alone. One
 * database serves both (embedded PGlite is one database per process), one build after the other.
 */
async function rebuild(build: "migrations" | "entities"): Promise<void> {
  await ds.query(`DROP SCHEMA public CASCADE`);
  await ds.query(`CREATE SCHEMA public`);
  if (build === "migrations") await ds.runMigrations();
  else await ds.synchronize();
}

/** The statements `migration:generate` would put in a new migration's `up`. */
async function pendingChanges(): Promise<string[]> {
  const log = await ds.driver.createSchemaBuilder().log();
  return log.upQueries.map((q) => q.query);
}

/**
 * Indexes whose key columns are sorted descending in the migrations, which an entity cannot declare
 * (TypeORM's `@Index` has no sort direction); each says so in server/src/platform/db/entities/index.ts.
 */
const DESCENDING_IN_MIGRATIONS = [
  "idx_crash_bets_player",
  "idx_crash_rounds_history",
  "idx_dot_battle_kills",
  "idx_fairness_revealed",
  "idx_game_sessions_player",
  "idx_holdem_hand_players_player",
  "idx_holdem_seats_player",
  "idx_instance_members_player",
  "idx_ledger_daily_spins",
  "idx_skill_rounds_player",
  "idx_suggestions_player",
  "idx_table_bets_player",
];

/**
 * Indexes that carry columns beyond their key in the migrations (INCLUDE), which an entity cannot declare
 * (TypeORM's `@Index` has none): the entity lists them as key columns after the key, and the comparison
 * reads ") INCLUDE (" as ", ".
 */
const INCLUDING_IN_MIGRATIONS = ["idx_game_sessions_player", "idx_ledger_player"];

/** TypeORM writes a bigint default as a string ('0'::bigint), the migrations as a number (0): one value. */
const bigintLiteral = (value: string | null) => value?.replace(/^'(-?\d+)'::bigint$/, "$1") ?? null;

/**
 * The partitions of the partitioned tables (migration 1764100000017), which no entity declares: their
 * parent is compared, with what the partitions alone hold (the ledger's unique request ids) left out.
 */
const PARTITIONS = `SELECT relname::text FROM pg_class WHERE relispartition AND relkind = 'r'`;

interface Catalog {
  columns: string[];
  constraints: string[];
  indexes: string[];
  descending: string[];
  including: string[];
}

/** The schema's tables as PostgreSQL describes them, without TypeORM's own bookkeeping table (views: see VIEWS). */
async function catalog(): Promise<Catalog> {
  const columns: any[] = await ds.query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity, identity_generation
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> 'migrations'
        AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
        AND table_name NOT IN (${PARTITIONS})
      ORDER BY table_name, column_name`,
  );
  const constraints: any[] = await ds.query(
    `SELECT conrelid::regclass::text AS table_name, contype, conname, pg_get_constraintdef(oid) AS def
       FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'migrations'
        AND conrelid::regclass::text NOT IN (${PARTITIONS})`,
  );
  const indexes: any[] = await ds.query(
    `SELECT indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> 'migrations' AND tablename NOT IN (${PARTITIONS})
        AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = 'public'::regnamespace)`,
  );
  const descending = indexes.filter((i) => / DESC\b/.test(i.indexdef)).map((i) => i.indexname as string);
  const including = indexes.filter((i) => / INCLUDE \(/.test(i.indexdef)).map((i) => i.indexname as string);
  return {
    columns: columns.map(
      (c) =>
        `${c.table_name}.${c.column_name} ${c.data_type} ${c.is_nullable === "YES" ? "null" : "not null"}` +
        ` default ${bigintLiteral(c.column_default)} identity ${c.is_identity === "YES" ? c.identity_generation : "no"}`,
    ),
    // Primary keys and single-column UNIQUEs are named by PostgreSQL in the migrations (players_pkey,
    // players_discord_id_key) and by a hash in TypeORM: compared by definition. Foreign keys, CHECKs and
    // composite UNIQUEs carry the same names in both, so they are compared by name too.
    constraints: constraints
      .map((c) => `${c.table_name} ${c.contype} ${c.contype === "p" || (c.contype === "u" && !/,/.test(c.def)) ? "" : c.conname} ${c.def}`)
      .sort(),
    // A partitioned table's index is defined `ON ONLY` the table (its partitions' indexes are attached).
    indexes: indexes
      .map((i) =>
        (i.indexdef as string)
          .replace(/ DESC\b/g, "")
          .replace(" ON ONLY ", " ON ")
          .replace(/\) INCLUDE \(/, ", "),
      )
      .sort(),
    descending: descending.sort(),
    including: including.sort(),
  };
}

/** Views, which are not entities: declared in their migration only, and read as the spec's entities. */
const VIEWS = {
  game_plays: ["game_type text", "id uuid", "played_at timestamp with time zone", "player_id uuid"],
  ledger_checkpoints_in_force: [
    "account text",
    "amount bigint",
    "entries bigint",
    "id bigint",
    "last_balance_after bigint",
    "last_id bigint",
    "partition text",
    "player_id uuid",
  ],
};

describe("the entities are the schema", () => {
  it("TypeORM finds no difference between the entities and a freshly migrated database", async () => {
    await rebuild("migrations");
    expect(await pendingChanges()).toEqual([]);

    // The diff is not blind: a migrated database missing an index and a CHECK is told to add them back.
    await ds.query(`DROP INDEX idx_ledger_player`);
    await ds.query(`ALTER TABLE crash_bets DROP CONSTRAINT ck_crash_bets_settled`);
    const repairs = await pendingChanges();
    expect(repairs).toHaveLength(2);
    expect(repairs.join("\n")).toMatch(/CREATE INDEX "idx_ledger_player" ON "ledger_entries"\s*\("player_id", "id", "delta"\)/);
    expect(repairs.join("\n")).toMatch(/ADD CONSTRAINT "ck_crash_bets_settled" CHECK/);
  });

  it("a database built from the entities alone has the migrated database's columns, constraints and indexes", async () => {
    await rebuild("migrations");
    const fromMigrations = await catalog();
    const views: any[] = await ds.query(
      `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
         JOIN information_schema.views v ON v.table_schema = c.table_schema AND v.table_name = c.table_name
        WHERE c.table_schema = 'public' ORDER BY 1, 2`,
    );
    expect(views.map((v) => `${v.table_name}.${v.column_name} ${v.data_type}`)).toEqual(
      Object.entries(VIEWS).flatMap(([view, columns]) => columns.map((c) => `${view}.${c}`)),
    );
    await rebuild("entities");
    const fromEntities = await catalog();
    expect(fromMigrations.columns.length).toBeGreaterThan(150);
    expect(fromEntities.columns).toEqual(fromMigrations.columns);
    expect(fromEntities.constraints).toEqual(fromMigrations.constraints);
    expect(fromEntities.indexes).toEqual(fromMigrations.indexes);
    // Sort direction is the one thing only the migrations say, on exactly these indexes.
    expect(fromEntities.descending).toEqual([]);
    expect(fromMigrations.descending).toEqual(DESCENDING_IN_MIGRATIONS);
    // Likewise the included columns.
    expect(fromEntities.including).toEqual([]);
    expect(fromMigrations.including).toEqual(INCLUDING_IN_MIGRATIONS);
  });
});
