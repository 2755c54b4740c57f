import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { TEST_DB, freshDatabaseUrl } from "./harness";
import { startServerProcess } from "./server-process";
import { auditDatabase, guestOn, joinOn } from "./process-helpers";
import { ask, newRequestId } from "./room-helpers";

/**
 * SIGTERM against the server in its own process. A bet is held in flight by a lock this test takes on
 * the player's row, so "in flight" is a fact, not a matter of timing.
 */
describe.runIf(TEST_DB === "postgres")("SIGTERM", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
  });
  afterAll(async () => {
    if (database?.url) expect((await auditDatabase(database.url)).mismatches).toEqual([]);
    await database?.drop();
  });

  async function lockPlayer(playerId: string): Promise<pg.Client> {
    const lock = new pg.Client({ connectionString: database.url });
    await lock.connect();
    await lock.query("BEGIN");
    await lock.query(`SELECT id FROM players WHERE id = $1 FOR UPDATE`, [playerId]);
    return lock;
  }

  async function waitForBlockedWork(lock: pg.Client) {
    for (;;) {
      const { rows } = await lock.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const query = async (text: string, values: unknown[]) => {
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    try {
      return (await sql.query(text, values)).rows;
    } finally {
      await sql.end();
    }
  };

  it("refuses new work, lets the bet in flight finish and answer, then exits 0", async () => {
    const server = await startServerProcess({ env: { DATABASE_URL: database.url! }, name: "drain" });
    const { token, player } = await guestOn(server);
    const { room, inbox } = await joinOn(server, token);
    const lock = await lockPlayer(player.id);
    const requestId = newRequestId();
    room.send("bet", { requestId, game: "coin-flip", amount: 25, params: { side: "heads" } });
    await waitForBlockedWork(lock);

    server.kill("SIGTERM");
    await server.waitForLine(/SIGTERM: draining, 1 request\(s\) in flight/);
    // New work is refused: a new HTTP connection finds nobody listening, a room message is answered.
    const health = await fetch(`${server.baseUrl}/api/health`).then(
      (res) => res.status,
      () => "refused",
    );
    expect([503, "refused"]).toContain(health);
    const refused = await ask(room, inbox, "seed:rotate", {});
    expect(refused.body).toMatchObject({ code: "shutting_down", message: "The server is restarting; please try again in a moment" });

    await lock.query("COMMIT");
    await lock.end();
    const answer = await inbox.answer(requestId);
    expect(answer.type).toBe("result");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.lines.join("\n")).toContain("stopped: every request in flight finished");

    const [row] = await query(`SELECT balance FROM players WHERE id = $1`, [player.id]);
    expect(Number(row.balance)).toBe(1000 - 25 + answer.body.payout);
    const plays = await query(`SELECT count(*)::int AS n FROM game_sessions WHERE request_id = $1`, [requestId]);
    expect(plays[0].n).toBe(1);
  });

  it("waits at most SHUTDOWN_TIMEOUT_MS, exits 1, and the abandoned bet moves nothing", async () => {
    const server = await startServerProcess({ env: { DATABASE_URL: database.url!, SHUTDOWN_TIMEOUT_MS: "1000" }, name: "bounded" });
    const { token, player } = await guestOn(server);
    const { room } = await joinOn(server, token);
    const lock = await lockPlayer(player.id);
    const requestId = newRequestId();
    room.send("bet", { requestId, game: "coin-flip", amount: 25, params: { side: "heads" } });
    await waitForBlockedWork(lock);

    server.kill("SIGTERM");
    // The lock is still held: the process can only have ended by giving up.
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.lines.join("\n")).toContain("stopped: requests still running after 1000 ms were abandoned");
    await lock.query("ROLLBACK");
    await lock.end();

    // The orphaned transaction is rolled back by PostgreSQL once it notices its client is gone.
    for (;;) {
      const [{ n }] = await query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        [],
      );
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const [row] = await query(`SELECT balance FROM players WHERE id = $1`, [player.id]);
    expect(Number(row.balance)).toBe(1000);
    const plays = await query(`SELECT count(*)::int AS n FROM game_sessions WHERE request_id = $1`, [requestId]);
    expect(plays[0].n).toBe(0);
  });
});
