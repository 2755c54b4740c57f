import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLedger } from "../src/ops/audit-ledger";
import { TEST_DB, startTestApp, type TestApp } from "./harness";

/**
 * The ledger audit (`npm run audit`): silent on a healthy database, and it names the player whose
 * balance no longer equals the sum of their ledger entries. The balance is broken here on purpose, by
 * a direct UPDATE in this file's own database, and put back before the file ends.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Two players with ledger entries beyond the opening grant: one has taken the daily spin. */
async function playersWithHistory() {
  const [a, b] = await Promise.all([t.guest(), t.guest()]);
  const spin = await t.request("POST", "/api/daily-spin", { token: a.token, body: { playerId: a.player.id } });
  expect(spin.status).toBe(200);
  return { a, b, aBalance: 1000 + Number(spin.body.prize) };
}

const shiftBalance = (playerId: string, delta: number) =>
  t.app.services.db.run((em) => em.query(`UPDATE players SET balance = balance + $2 WHERE id = $1`, [playerId, delta]));

describe("the ledger audit", () => {
  it("finds nothing on a healthy database, then exactly the player whose balance was changed outside the ledger", async () => {
    const { a, aBalance } = await playersWithHistory();
    const healthy = await auditLedger(t.app.services.db);
    expect(healthy.players).toBeGreaterThanOrEqual(2);
    expect(healthy.mismatches).toEqual([]);
    expect(healthy.missingReferences).toEqual([]);

    await shiftBalance(a.player.id, 7);
    try {
      const broken = await auditLedger(t.app.services.db);
      expect(broken.mismatches).toEqual([
        { playerId: a.player.id, balance: aBalance + 7, ledgerSum: aBalance, lastBalanceAfter: aBalance },
      ]);
    } finally {
      await shiftBalance(a.player.id, -7);
    }
    expect((await auditLedger(t.app.services.db)).mismatches).toEqual([]);
  });

  it("names a stored answer, round or ledger entry whose player is missing, and a round whose seed is missing", async () => {
    // These references have no foreign key (their rows are written under the referenced row's lock):
    // the audit is what checks them. Rows are made here outside the ledger, then removed.
    const { a } = await playersWithHistory();
    const ghost = "00000000-0000-4000-8000-000000000001";
    const lostSeed = "00000000-0000-4000-8000-000000000002";
    const sql = (text: string, params: unknown[]) => t.app.services.db.run((em) => em.query(text, params));
    await sql(`INSERT INTO processed_requests (player_id, request_id, response) VALUES ($1, 'audit-ghost', '{}')`, [ghost]);
    await sql(
      `INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout, request_id) VALUES ($1, 'dice', 0, 'push', 0, 'audit-ghost'),
              ($2, 'dice', 0, 'push', 0, 'audit-ghost')`,
      [ghost, a.player.id],
    );
    await sql(`UPDATE game_sessions SET seed_id = $1 WHERE player_id = $2 AND request_id = 'audit-ghost'`, [lostSeed, a.player.id]);
    try {
      const broken = await auditLedger(t.app.services.db);
      expect(broken.mismatches).toEqual([]);
      expect(broken.missingReferences).toEqual([
        { reference: "game_sessions.player_id", id: ghost, rows: 1 },
        { reference: "game_sessions.seed_id", id: lostSeed, rows: 1 },
        { reference: "processed_requests.player_id", id: ghost, rows: 1 },
      ]);
    } finally {
      await sql(`DELETE FROM game_sessions WHERE request_id = $1`, ["audit-ghost"]);
      await sql(`DELETE FROM processed_requests WHERE request_id = $1`, ["audit-ghost"]);
    }
    expect((await auditLedger(t.app.services.db)).missingReferences).toEqual([]);
  });

  // `npm run audit` opens the database named by DATABASE_URL: the embedded PGlite of a test lives in
  // the test's own process, so the command itself is run against PostgreSQL only.
  it.runIf(TEST_DB === "postgres")("npm run audit exits 0 on a healthy database and 1 naming the broken player", async () => {
    const { b } = await playersWithHistory();
    const [{ name }] = await t.app.services.db.run((em) => em.query(`SELECT current_database() AS name`));
    const url = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
    url.pathname = `/${name}`;
    const audit = () =>
      promisify(execFile)("npm", ["run", "--silent", "audit"], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: url.toString(), DATA_DIR: "memory://", REDIS_URL: "" },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );

    const healthy = await audit();
    expect(healthy.stdout).toMatch(/every balance equals its ledger, every entry, round and answer has its player and seed/);
    expect(healthy.stdout).not.toMatch(/MISMATCH/);
    expect(healthy.code).toBe(0);

    await shiftBalance(b.player.id, -3);
    try {
      const broken = await audit();
      expect(broken.stdout).toContain(`MISMATCH player ${b.player.id}: balance 997, ledger sum 1000, last running balance 1000`);
      expect(broken.stdout).toMatch(/1 mismatches/);
      expect(broken.code).toBe(1);
    } finally {
      await shiftBalance(b.player.id, 3);
    }
  });
});
