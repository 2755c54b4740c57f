import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSource } from "typeorm";
import { dataSourceOptions } from "../src/platform/db/data-source";
import { freshDatabaseUrl } from "./harness";

/**
 * Migration 1764100000006 makes `game_plays` a view of `game_sessions`: a database that already holds
 * plays reads the same plays after it (those with a round through the round, the others from
 * `game_plays_legacy`), the view takes no writes, and going back restores the table.
 */
let ds: DataSource;
let drop: () => Promise<void>;
beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  drop = fresh.drop;
  ds = new DataSource(dataSourceOptions(fresh.url, "memory://"));
  await ds.initialize();
  await ds.runMigrations();
});
afterAll(async () => {
  await ds?.destroy();
  await drop?.();
});

/** Undoes the migrations that came after 1764100000006, then that one. */
async function undoThroughPlaysView(): Promise<void> {
  for (;;) {
    const [last] = (await ds.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`)) as { name: string }[];
    await ds.undoLastMigration();
    if (last!.name.endsWith("1764100000006")) return;
  }
}

const plays = async () =>
  (await ds.query(`SELECT game_type, count(*)::int AS n FROM game_plays GROUP BY 1 ORDER BY 1`)) as { game_type: string; n: number }[];

describe("game_plays, a view of the rounds", () => {
  it("reads every play stored before it, takes no writes, and is a table again after the migration is undone", async () => {
    await undoThroughPlaysView();
    const [player] = await ds.query(`INSERT INTO players (discord_id, username) VALUES ('guest-plays', 'plays') RETURNING id`);
    await ds.transaction(async (em) => {
      // two rounds with their plays, written together as the ledger wrote them; one more dice play and a
      // mines play with no round (older code): four plays in all
      await em.query(
        `INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout) VALUES ($1, 'dice', 1, 'win', 2), ($1, 'dice', 1, 'lose', 0)`,
        [player.id],
      );
      await em.query(`INSERT INTO game_plays (player_id, game_type) VALUES ($1, 'dice'), ($1, 'dice'), ($1, 'dice'), ($1, 'mines')`, [
        player.id,
      ]);
    });
    const before = await plays();
    expect(before).toEqual([
      { game_type: "dice", n: 3 },
      { game_type: "mines", n: 1 },
    ]);

    await ds.runMigrations();
    expect(await plays()).toEqual(before);
    expect((await ds.query(`SELECT game_type FROM game_plays_legacy ORDER BY 1`)).map((r: { game_type: string }) => r.game_type)).toEqual([
      "dice",
      "mines",
    ]);
    // a new round is a new play, with the round's id
    const [round] = await ds.query(
      `INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout) VALUES ($1, 'limbo', 1, 'lose', 0) RETURNING id`,
      [player.id],
    );
    expect(await ds.query(`SELECT player_id, game_type FROM game_plays WHERE id = $1`, [round.id])).toEqual([
      { player_id: player.id, game_type: "limbo" },
    ]);
    await expect(ds.query(`DELETE FROM game_plays`)).rejects.toThrow();
    await expect(ds.query(`INSERT INTO game_plays (player_id, game_type) VALUES ($1, 'dice')`, [player.id])).rejects.toThrow();

    await undoThroughPlaysView();
    expect(await ds.query(`SELECT table_type FROM information_schema.tables WHERE table_name = 'game_plays'`)).toEqual([
      { table_type: "BASE TABLE" },
    ]);
    expect(await plays()).toEqual([...before.slice(0, 1), { game_type: "limbo", n: 1 }, ...before.slice(1)]);
    await ds.runMigrations();
  });
});
