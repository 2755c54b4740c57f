import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { casesOf } from "../../common/test/games/cases";
import { openDatabase, type Database } from "../src/platform/db/database";
import { MIGRATIONS } from "../src/platform/db/migrations/index";
import { DoubleEntryAccounts1764100000007 } from "../src/platform/db/migrations/1764100000007-double-entry-accounts";
import { ThemeModeChosen1764100000009 } from "../src/platform/db/migrations/1764100000009-theme-mode-chosen";
import { Adjustments } from "../src/admin/adjustments";
import { auditLedger } from "../src/ops/audit-ledger";
import { accountBalances, type AccountBalance } from "../src/core/economy";
import { TEST_DB, freshDatabaseUrl, startTestApp } from "./harness";
import { expectBalancedEconomy, finishRound, playRound } from "./ledger-audit";
import { Announcements } from "../src/core/ledger/engine/index";
import { Log } from "../src/platform/log";

/**
 * Several server processes starting together on a database that is behind (a rolling upgrade, a
 * scaled-out start): each runs the migrations at start, and exactly one applies them.
 */
describe.runIf(TEST_DB === "postgres")("migrations at start", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const opened: Database[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await database?.drop();
  });

  it("are applied once when three processes open an empty database at the same moment", async () => {
    database = await freshDatabaseUrl({ empty: true });
    const timeouts = { connectMs: 10_000, statementMs: 10_000, queryMs: 15_000, healthMs: 1000 };
    const results = await Promise.allSettled([1, 2, 3].map(() => openDatabase(database.url, "memory://", timeouts)));
    for (const r of results) if (r.status === "fulfilled") opened.push(r.value);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "opened"))).toEqual(["opened", "opened", "opened"]);
    const applied = await opened[0]!.run((em) => em.query(`SELECT name FROM migrations ORDER BY id`));
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => new m().name));
  });
});

/**
 * The double-entry migration (1764100000007) on a database holding what the previous schema held. The
 * data is written by the running casino (grants, daily spins, bets of single-step games, multi-step
 * rounds ended and left open, operators' grants and claw-backs), the migration is undone (the previous
 * schema: no counter-party, no transfers), rows only the previous schema's writers made are added (the
 * shared crash room's entries, a skill reward), and the migration is applied again. Every entry and
 * every player's balance is unchanged, every account ends where the ledger had booked it (plus what the
 * added rows moved), and the audit finds the economy summing to zero with each holding holding its
 * open rounds' stakes.
 */
describe("the double-entry migration", () => {
  it("backfills every entry's counter-party: balances unchanged, accounts as the ledger booked them, the economy sums to zero", async () => {
    const t = await startTestApp({}, { redis: false });
    try {
      const { db, ledger } = t.app.services;
      const q = <T = any>(text: string, params: unknown[] = []): Promise<T[]> => db.run((em) => em.query(text, params));
      const [a, b, c] = await Promise.all([t.guest(), t.guest(), t.guest()]);
      expect((await t.request("POST", "/api/daily-spin", { token: a.token, body: { playerId: a.player.id } })).status).toBe(200);
      const dice = casesOf("dice").plays[0]!;
      for (let i = 0; i < 5; i++) await playRound(ledger, a.player.id, "dice", dice);
      const hiLo = casesOf("hi-lo").plays[0]!;
      await playRound(ledger, b.player.id, "hi-lo", hiLo);
      const open = await playRound(ledger, b.player.id, "hi-lo", hiLo, false);
      expect(open.done).toBe(false);
      const adjustments = new Adjustments(db, new Announcements(new Log()));
      const operator = { reason: "test", operator: "tester" };
      await adjustments.adjust({ playerId: c.player.id, requestId: `grant-${randomUUID()}`, kind: "grant", amount: 250, ...operator });
      await adjustments.adjust({ playerId: c.player.id, requestId: `claw-${randomUUID()}`, kind: "claw_back", amount: 40, ...operator });
      await t.expectLedgerInvariant();
      const booked = await db.run((em) => accountBalances(em));
      expect(booked.map((x) => x.account)).toEqual(
        expect.arrayContaining([
          "holding:hi-lo",
          "house:dice",
          "house:hi-lo",
          "mint:admin-claw-back",
          "mint:daily-spin",
          "mint:starting-grant",
        ]),
      );

      // The previous schema: the migrations after the double-entry one undone, then it.
      const doubleEntry = new DoubleEntryAccounts1764100000007().name;
      const last = async () => (await q<{ name: string }>(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`))[0]!.name;
      while ((await last()) !== doubleEntry) await db.dataSource.undoLastMigration({ transaction: "each" });
      await db.dataSource.undoLastMigration({ transaction: "each" });
      const columns = await q<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'ledger_entries' AND column_name = 'account'`,
      );
      expect(columns).toEqual([]);
      expect(await q(`SELECT to_regclass('account_transfers') AS t`)).toEqual([{ t: null }]);

      // Entries of the previous schema's writers: a crash room bet of 50 cashed out at 2x, a skill reward of 5.
      const written = async (playerId: string, rows: [delta: number, reason: string, reference: string][]) => {
        for (const [delta, reason, reference] of rows) {
          const [[player]] = await q(`UPDATE players SET balance = balance + $2 WHERE id = $1 RETURNING balance`, [playerId, delta]);
          await q(
            `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id) VALUES ($1, $2, $3, $4, $5, $6)`,
            [playerId, delta, player.balance, reason, reference, `old-${randomUUID()}#${reason}`],
          );
        }
      };
      await written(a.player.id, [
        [-50, "bet", "crash-room"],
        [100, "payout", "crash-room"],
        [5, "reward", "dots"],
      ]);
      const expected = new Map(booked.map((x) => [x.account, x.balance]));
      const add = (account: string, amount: number) => expected.set(account, (expected.get(account) ?? 0) + amount);
      add("house:crash", 50 - 100);
      add("mint:skill-reward", -5);

      const entries = () => q(`SELECT id, player_id, delta, balance_after, reason, reference, request_id FROM ledger_entries ORDER BY id`);
      const balances = () => q(`SELECT id, balance FROM players ORDER BY id`);
      const [entriesBefore, balancesBefore] = [await entries(), await balances()];

      await db.dataSource.runMigrations({ transaction: "each" });
      const applied = await q<{ name: string }>(`SELECT name FROM migrations ORDER BY id`);
      expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => new m().name));

      expect(await entries()).toEqual(entriesBefore);
      expect(await balances()).toEqual(balancesBefore);
      const migrated: AccountBalance[] = await db.run((em) => accountBalances(em));
      const byName = (x: AccountBalance, y: AccountBalance) => (x.account < y.account ? -1 : 1);
      expect([...migrated].sort(byName)).toEqual(
        [...expected]
          .filter(([, balance]) => balance !== 0)
          .map(([account, balance]) => ({ account, balance }))
          .sort(byName),
      );
      const audit = await auditLedger(db);
      expect(audit.mismatches).toEqual([]);
      expectBalancedEconomy(audit);
      // The open round's stake was moved to its holding, from which it is posted when the round ends.
      expect(migrated.find((x) => x.account === "holding:hi-lo")?.balance).toBe(open.totalStake);
      // The round ends after the migration: its stake is posted from the holding, and the audit still holds.
      const ended = await finishRound(ledger, b.player.id, hiLo, open);
      expect(ended.done).toBe(true);
      await t.expectLedgerInvariant();
      const after = await db.run((em) => accountBalances(em));
      expect(after.find((x) => x.account === "holding:hi-lo")?.balance).toBe(0);
    } finally {
      await t.close();
    }
  });
});

/**
 * The theme-mode migration (1764100000009) on players of the previous schema: one who saved a light
 * mode, one who saved another colour, and one whose record still holds the defaults. The first two
 * chose; the last follows their device's light/dark preference.
 */
describe("the theme-mode migration", () => {
  it("marks the theme chosen where the record holds one other than the defaults", async () => {
    const t = await startTestApp({}, { redis: false });
    try {
      const { db } = t.app.services;
      const q = <T = any>(text: string, params: unknown[] = []): Promise<T[]> => db.run((em) => em.query(text, params));
      const [light, coloured, untouched] = await Promise.all([t.guest(), t.guest(), t.guest()]);
      const themeMigration = new ThemeModeChosen1764100000009().name;
      const last = async () => (await q<{ name: string }>(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`))[0]!.name;
      while ((await last()) !== themeMigration) await db.dataSource.undoLastMigration({ transaction: "each" });
      await db.dataSource.undoLastMigration({ transaction: "each" });
      await q(`UPDATE players SET theme_mode = 'light' WHERE id = $1`, [light.player.id]);
      await q(`UPDATE players SET theme_color = '120 52% 41%' WHERE id = $1`, [coloured.player.id]);

      await db.dataSource.runMigrations({ transaction: "each" });
      const rows = await q<{ id: string; theme_mode_chosen: boolean }>(`SELECT id, theme_mode_chosen FROM players WHERE id = ANY($1)`, [
        [light.player.id, coloured.player.id, untouched.player.id],
      ]);
      const chosen = Object.fromEntries(rows.map((r) => [r.id, r.theme_mode_chosen]));
      expect(chosen).toEqual({ [light.player.id]: true, [coloured.player.id]: true, [untouched.player.id]: false });
    } finally {
      await t.close();
    }
  });
});
