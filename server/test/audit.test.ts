import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { casesOf } from "../../common/test/games/cases";
import { Adjustments } from "../src/admin/adjustments";
import { auditLedger } from "../src/ops/audit-ledger";
import { houseResults, mintedBySource, type HouseResult, type MintedCoins } from "../src/core/economy";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { playRound } from "./ledger-audit";
import { Announcements } from "../src/core/ledger/engine/index";
import { Log } from "../src/platform/log";

/**
 * The ledger audit (`npm run audit`): silent on a healthy database, and it names the player whose
 * balance no longer equals the sum of their ledger entries, an economy that does not sum to zero and a
 * holding that does not hold its open rounds' stakes. The ledger is broken here on purpose, by direct
 * writes in this file's own database, and put back before the file ends. The house's result per game
 * and the coins minted per source are checked against what was played and granted.
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

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params));

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

  it("finds an economy that does not sum to zero: an entry written without its balance, or a balance moved without its entry", async () => {
    const { a, aBalance } = await playersWithHistory();
    expect((await auditLedger(t.app.services.db)).economy.total).toBe(0);
    const requestId = `audit-planted-${randomUUID()}`;
    await sql(
      `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) VALUES ($1, 9, $2, 'payout', 'dice', $3, 'house:dice')`,
      [a.player.id, aBalance + 9, requestId],
    );
    try {
      const broken = await auditLedger(t.app.services.db);
      // the house paid 9 coins that no balance holds
      expect(broken.economy.total).toBe(-9);
      expect(broken.mismatches).toEqual([
        { playerId: a.player.id, balance: aBalance, ledgerSum: aBalance + 9, lastBalanceAfter: aBalance + 9 },
      ]);
    } finally {
      await sql(`DELETE FROM ledger_entries WHERE request_id = $1`, [requestId]);
    }
    await shiftBalance(a.player.id, 4);
    try {
      expect((await auditLedger(t.app.services.db)).economy.total).toBe(4);
    } finally {
      await shiftBalance(a.player.id, -4);
    }
    const healthy = await auditLedger(t.app.services.db);
    expect(healthy.economy.total).toBe(0);
    expect(healthy.economy.players).toBe(healthy.economy.accounts.reduce((sum, x) => sum - x.balance, 0));
  });

  it("finds a holding that does not hold the stakes of its open rounds", async () => {
    const { a } = await playersWithHistory();
    const hiLo = casesOf("hi-lo").plays[0]!;
    const open = await playRound(t.app.services.ledger, a.player.id, "hi-lo", hiLo, false);
    expect(open.done).toBe(false);
    const healthy = await auditLedger(t.app.services.db);
    expect(healthy.holdingMismatches).toEqual([]);
    expect(healthy.economy.accounts).toContainEqual({ account: "holding:hi-lo", balance: open.totalStake });
    // 12 coins moved from the house to a holding where no round is open: the sum is still zero, the holding is wrong
    const requestId = `audit-planted-${randomUUID()}`;
    await sql(
      `INSERT INTO account_transfers (from_account, to_account, amount, reason, request_id) VALUES ('house:dice', 'holding:dice', 12, 'hold', $1)`,
      [requestId],
    );
    try {
      const broken = await auditLedger(t.app.services.db);
      expect(broken.economy.total).toBe(0);
      expect(broken.holdingMismatches).toEqual([{ account: "holding:dice", balance: 12, openStakes: 0 }]);
    } finally {
      await sql(`DELETE FROM account_transfers WHERE request_id = $1`, [requestId]);
    }
    // the round is settled as one left by its player: its stake leaves the holding
    const settled = await t.app.services.ledger.settleAbandonedRound(a.player.id, open.roundId!, new Date(Date.now() + 60_000));
    expect(settled?.roundId).toBe(open.roundId);
    const after = await auditLedger(t.app.services.db);
    expect(after.holdingMismatches).toEqual([]);
    expect(after.economy.accounts.find((x) => x.account === "holding:hi-lo")?.balance ?? 0).toBe(0);
  });

  it("tells the house's result per game, equal to the stakes less the payouts of that game's rounds, and the coins minted per source", async () => {
    const db = t.app.services.db;
    const before = { house: await houseResults(db), minted: await mintedBySource(db) };
    const [a, b] = await Promise.all([t.guest(), t.guest()]);
    const spin = await t.request("POST", "/api/daily-spin", { token: a.token, body: { playerId: a.player.id } });
    expect(spin.status).toBe(200);
    const played = new Map<string, number>();
    for (const [player, game, times] of [
      [a, "dice", 6],
      [b, "hi-lo", 3],
      [b, "blackjack", 2],
    ] as const) {
      for (let i = 0; i < times; i++) {
        const round = await playRound(t.app.services.ledger, player.player.id, game, casesOf(game).plays[0]!);
        played.set(game, (played.get(game) ?? 0) + round.totalStake - round.totalPayout);
      }
    }
    const adjustments = new Adjustments(db, new Announcements(new Log()));
    const operator = { reason: "test", operator: "tester" };
    await adjustments.adjust({ playerId: b.player.id, requestId: `grant-${randomUUID()}`, kind: "grant", amount: 300, ...operator });
    await adjustments.adjust({ playerId: b.player.id, requestId: `claw-${randomUUID()}`, kind: "claw_back", amount: 70, ...operator });

    const house = await houseResults(db);
    const change = (now: HouseResult[], then: HouseResult[], game: string) =>
      (now.find((h) => h.game === game)?.result ?? 0) - (then.find((h) => h.game === game)?.result ?? 0);
    for (const [game, result] of played) expect(change(house, before.house, game), game).toBe(result);
    // every game's result is its rounds' stakes less their payouts (no round is open now)
    const rounds: { game: string; result: string | number }[] = await sql(
      `SELECT game_type AS game, sum(bet_amount - payout) AS result FROM game_sessions GROUP BY game_type ORDER BY game_type`,
    );
    expect(house.map((h) => [h.game, h.result])).toEqual(rounds.map((r) => [r.game, Number(r.result)]));

    const minted = await mintedBySource(db);
    const grew = (source: string) =>
      (minted.find((m) => m.source === source)?.minted ?? 0) - (before.minted.find((m: MintedCoins) => m.source === source)?.minted ?? 0);
    expect(grew("starting-grant")).toBe(2 * 1000);
    expect(grew("daily-spin")).toBe(Number(spin.body.prize));
    expect(grew("admin-grant")).toBe(300);
    expect(grew("admin-claw-back")).toBe(-70);
    expect(grew("skill-reward")).toBe(0);
    // all coins the players hold were minted: the house's results are what they lost
    const audit = await auditLedger(db);
    const totalMinted = minted.reduce((sum, m) => sum + m.minted, 0);
    const totalHouse = house.reduce((sum, h) => sum + h.result, 0);
    const held = audit.economy.accounts.filter((x) => x.account.startsWith("holding:")).reduce((sum, x) => sum + x.balance, 0);
    expect(audit.economy.players).toBe(totalMinted - totalHouse - held);
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
    expect(healthy.stdout).toMatch(/the economy \(players and \d+ accounts\) sums to zero, every holding holds its open stakes/);
    expect(healthy.stdout).not.toMatch(/MISMATCH|IMBALANCE|HOLDING/);
    expect(healthy.code).toBe(0);

    await shiftBalance(b.player.id, -3);
    try {
      const broken = await audit();
      expect(broken.stdout).toContain(`MISMATCH player ${b.player.id}: balance 997, ledger sum 1000, last running balance 1000`);
      expect(broken.stdout).toMatch(/1 mismatches/);
      expect(broken.stdout).toMatch(/IMBALANCE the economy sums to -3: players /);
      expect(broken.code).toBe(1);
    } finally {
      await shiftBalance(b.player.id, 3);
    }
  });
});
