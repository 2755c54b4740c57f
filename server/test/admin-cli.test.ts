import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../src/admin/cli";
import { KEYS } from "../src/leaderboard/keys";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { diceBet, discordPlayer, restBoard } from "./leaderboard-helpers";
import { joinCasino, waitFor } from "./room-helpers";

/**
 * `npm run admin` as an operator runs it, against this file's PostgreSQL database and Redis database,
 * beside a running server whose players, rooms and boards see the changes. The CLI opens the database
 * by DATABASE_URL, so these run on the PostgreSQL project only.
 */
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  if (TEST_DB !== "postgres") return;
  t = await startTestApp();
  const [{ name }] = await t.app.services.db.run((em) => em.query(`SELECT current_database() AS name`));
  const url = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${name}`;
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    DATABASE_URL: url.toString(),
    REDIS_URL: t.app.services.config.redisUrl ?? "",
    DATA_DIR: "memory://",
  };
});
afterAll(async () => t?.close());

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/**
 * Runs `admin --by test-operator --json <args>` in this process, with the environment an operator's
 * shell would give it (the CLI's own process, `npm run admin`, is run by the first test here and by the
 * suspension test against server processes).
 */
async function admin(...args: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runAdmin(["--by", "test-operator", "--json", ...args], {
    env,
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
  });
  let json: unknown = null;
  try {
    json = JSON.parse(stdout);
  } catch {
    /* not JSON: a refusal, or --out */
  }
  return { code, stdout, stderr, json };
}

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params));
const actionsOf = (playerId: string) =>
  sql(`SELECT operator, action, reason, request_id, amount, details FROM admin_actions WHERE player_id = $1 ORDER BY id`, [playerId]);

describe.runIf(TEST_DB === "postgres")("npm run admin", { timeout: 300_000 }, () => {
  it("is the npm script, and refuses to open the embedded database unless told the server is stopped", async () => {
    const help = await promisify(execFile)("npm", ["run", "--silent", "admin", "--", "--help"], { cwd: REPO_ROOT, env });
    expect(help.stdout).toMatch(/Usage: admin/);
    for (const command of [
      "suggestions",
      "find",
      "show",
      "grant",
      "claw-back",
      "house",
      "minted",
      "suspend",
      "restore",
      "export",
      "erase",
    ]) {
      expect(help.stdout).toContain(command);
    }
    const saved = env;
    env = { ...env, DATABASE_URL: "" };
    try {
      const refused = await admin("find", "anyone");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/DATABASE_URL is not set.*--embedded/);
    } finally {
      env = saved;
    }
  });

  it("lists suggestions with who sent them, marks them read or done with who and when, and audits each mark", async () => {
    const p = await discordPlayer(t, "Suggester");
    const texts = [`More tables, please ${randomUUID()}`, `A darker theme ${randomUUID()}`];
    for (const suggestion of texts) {
      expect((await t.request("POST", "/api/suggestions", { token: p.token, body: { playerId: p.player.id, suggestion } })).status).toBe(
        201,
      );
    }
    const listed = await admin("suggestions", "list");
    expect(listed.code, listed.stderr).toBe(0);
    const mine = listed.json.filter((s: any) => s.playerId === p.player.id);
    expect(mine.map((s: any) => [s.text, s.status, s.username, s.discordId])).toEqual(
      texts.map((text) => [text, "new", "Suggester", p.discordId]),
    );

    const [first, second] = mine.map((s: any) => String(s.id));
    expect((await admin("suggestions", "mark", first, "--as", "done", "--note", "added to the plan")).json).toEqual([
      { id: Number(first), from: "new", to: "done" },
    ]);
    expect((await admin("suggestions", "mark", second, "--as", "read")).code).toBe(0);
    expect((await admin("suggestions", "list")).json.filter((s: any) => s.playerId === p.player.id)).toEqual([]);
    const all = (await admin("suggestions", "list", "--status", "all")).json.filter((s: any) => s.playerId === p.player.id);
    expect(all.map((s: any) => [s.status, s.markedBy])).toEqual([
      ["done", "test-operator"],
      ["read", "test-operator"],
    ]);
    expect(await actionsOf(p.player.id)).toEqual([
      expect.objectContaining({ operator: "test-operator", action: "mark_suggestion", reason: "added to the plan" }),
      expect.objectContaining({ operator: "test-operator", action: "mark_suggestion", reason: "marked read" }),
    ]);

    const unknown = await admin("suggestions", "mark", "987654321", "--as", "done");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No suggestion has the id 987654321/);
    const badStatus = await admin("suggestions", "mark", first, "--as", "finished");
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toMatch(/Allowed choices are new, read, done/);
  });

  it("finds a player by id, Discord id or part of the name, and shows their balance, ledger and rounds", async () => {
    const tag = randomUUID().slice(0, 8);
    const p = await discordPlayer(t, `Findme_${tag}`);
    await discordPlayer(t, `Other_${tag}`);
    const bets = [await diceBet(t, p.player.id, 100), await diceBet(t, p.player.id, 100)];

    for (const query of [p.player.id, p.discordId, `findme_${tag}`.toUpperCase()]) {
      const found = await admin("find", query);
      expect(found.json.map((f: any) => f.id)).toEqual([p.player.id]);
    }
    // The name search takes '_' literally, not as a wildcard: "Findme_" matches, "Findmex" would not.
    expect((await admin("find", `Findme${tag}`)).json).toEqual([]);
    expect((await admin("find", tag)).json).toHaveLength(2);

    const shown = await admin("show", p.discordId, "--ledger", "2");
    const balance = bets[1]!.balance;
    expect(shown.json.player).toMatchObject({ id: p.player.id, discordId: p.discordId, balance, status: "active", guest: false });
    expect(shown.json).toMatchObject({ ledgerSum: balance, rounds: 2, openRound: null });
    expect(shown.json.ledger).toHaveLength(2);
    expect(shown.json.ledger[0].balanceAfter).toBe(balance);
    // the latest entries are the dice bets' stakes and payouts: each a transfer with the house's dice account
    expect(shown.json.ledger.map((e: { account: string }) => e.account)).toEqual(["house:dice", "house:dice"]);
    expect(shown.json.recentRounds.map((r: any) => [r.game, r.stake])).toEqual([
      ["dice", 100],
      ["dice", 100],
    ]);
    const human = await promisify(execFile)(process.execPath, ["--import", "tsx", "server/src/admin/cli.ts", "show", p.player.id], {
      cwd: REPO_ROOT,
      env,
    });
    expect(human.stdout).toContain(`summing to ${balance} (= balance)`);

    const missing = await admin("show", "no-such-player");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No player has the id or Discord id "no-such-player"/);
  });

  it("grants and claws back through the ledger, once per request id, audited, and never below zero", async () => {
    const p = await discordPlayer(t, "Adjusted");
    const { room } = await joinCasino(t, p.token);
    const grantId = `grant-${randomUUID()}`;

    const granted = await admin("grant", p.player.id, "500", "--reason", "refund of a lost round", "--request-id", grantId);
    expect(granted.json).toMatchObject({ playerId: p.player.id, kind: "grant", amount: 500, delta: 500, balance: 1500 });
    // The player's open connection hears it from the CLI's process, through Redis.
    await waitFor(() => room.state.balance === 1500, 10_000);

    const again = await admin("grant", p.player.id, "500", "--reason", "refund of a lost round", "--request-id", grantId);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ delta: 500, balance: 1500, replayed: true });
    const reused = await admin("grant", p.player.id, "900", "--reason", "refund of a lost round", "--request-id", grantId);
    expect(reused.code).toBe(1);
    expect(reused.stderr).toMatch(/request_id_reused/);

    const clawId = `claw-${randomUUID()}`;
    const tooMuch = await admin("claw-back", p.player.id, "2000", "--reason", "bot winnings", "--request-id", clawId);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toMatch(/The balance is 1500: a claw-back of 2000 would make it negative/);
    const upTo = await admin(
      "claw-back",
      p.player.id,
      "2000",
      "--reason",
      "bot winnings",
      "--request-id",
      `${clawId}-all`,
      "--up-to-balance",
    );
    expect(upTo.json).toMatchObject({ kind: "claw_back", amount: 2000, delta: -1500, balance: 0 });
    const nothing = await admin("claw-back", p.player.id, "1", "--reason", "bot winnings", "--request-id", `${clawId}-more`);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/nothing_to_claw_back/);
    const zero = await admin("grant", p.player.id, "0", "--reason", "x", "--request-id", `${clawId}-zero`);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toMatch(/<amount> must be a whole number from 1/);

    expect(
      await sql(
        `SELECT delta::int, balance_after::int, reason, reference, request_id FROM ledger_entries WHERE player_id = $1 ORDER BY id`,
        [p.player.id],
      ),
    ).toEqual([
      { delta: 1000, balance_after: 1000, reason: "grant", reference: "starting balance", request_id: "#starting#grant" },
      { delta: 500, balance_after: 1500, reason: "admin_adjustment", reference: "grant", request_id: `#admin:${grantId}#admin_adjustment` },
      {
        delta: -1500,
        balance_after: 0,
        reason: "admin_adjustment",
        reference: "claw_back",
        request_id: `#admin:${clawId}-all#admin_adjustment`,
      },
    ]);
    expect(await actionsOf(p.player.id)).toEqual([
      expect.objectContaining({
        operator: "test-operator",
        action: "grant",
        reason: "refund of a lost round",
        request_id: grantId,
        amount: "500",
      }),
      expect.objectContaining({
        operator: "test-operator",
        action: "claw_back",
        reason: "bot winnings",
        request_id: `${clawId}-all`,
        amount: "1500",
      }),
    ]);
    await t.expectLedgerInvariant();
    await room.leave();
  });

  it("takes back only what the balance holds when a claw-back races the player's bets", async () => {
    const p = await discordPlayer(t, "Racer");
    let betting = true;
    let bets = 0;
    const refusals = new Set<string>();
    // Small bets: however slowly the admin process starts, they do not empty the balance before it
    // (a random walk of 10-coin even-money bets from 1,000 does not reach 0 in a few hundred bets).
    const bettor = (async () => {
      while (betting) {
        await diceBet(t, p.player.id, 10).then(
          () => bets++,
          (error: { code?: string }) => refusals.add(error.code ?? String(error)),
        );
      }
    })();
    const clawed = await admin(
      "claw-back",
      p.player.id,
      "1000000",
      "--reason",
      "race",
      "--request-id",
      `race-${randomUUID()}`,
      "--up-to-balance",
    );
    betting = false;
    await bettor;
    expect(clawed.code, clawed.stderr).toBe(0);
    expect(clawed.json.balance).toBe(0);
    expect(bets).toBeGreaterThan(0);
    expect([...refusals].filter((code) => code !== "insufficient_funds")).toEqual([]);
    const [row] = await sql(`SELECT balance::int FROM players WHERE id = $1`, [p.player.id]);
    expect(row.balance).toBeGreaterThanOrEqual(0);
    await t.expectLedgerInvariant();
  });

  it("exports everything stored about a player as JSON, with unrevealed seeds as hashes only", async () => {
    const p = await discordPlayer(t, "Exported", { guilds: ["880011223344556677"] });
    await diceBet(t, p.player.id, 100);
    await t.app.services.ledger.rotateSeeds(p.player.id, `rotate-${randomUUID()}`, undefined, "rotate");
    await diceBet(t, p.player.id, 100);
    await t.request("POST", "/api/suggestions", { token: p.token, body: { playerId: p.player.id, suggestion: "Export me" } });
    const dir = mkdtempSync(join(tmpdir(), "casino-export-"));
    const out = join(dir, "player.json");

    const exported = await admin("export", p.discordId, "--reason", "player's request via suggestions", "--out", out);
    expect(exported.code).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const data = JSON.parse(readFileSync(out, "utf8"));
    const [player] = await sql(`SELECT balance::int FROM players WHERE id = $1`, [p.player.id]);
    expect(data.player).toMatchObject({ id: p.player.id, discordId: p.discordId, username: "Exported", balance: player.balance });
    expect(data.ledger.reduce((sum: number, e: any) => sum + e.delta, 0)).toBe(player.balance);
    expect(data.rounds).toHaveLength(2);
    // The first round's pair was rotated: its server seed is revealed; the active pair's is not.
    expect(data.rounds[0].fairness.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(data.rounds[1].fairness.serverSeed).toBeNull();
    const active = data.seeds.pairs.find((s: any) => s.active);
    expect(active.serverSeed).toBeNull();
    const [secret] = await sql(`SELECT server_seed FROM fairness_seeds WHERE player_id = $1 AND active`, [p.player.id]);
    const [next] = await sql(`SELECT server_seed FROM next_server_seeds WHERE player_id = $1`, [p.player.id]);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain(secret.server_seed);
    expect(text).not.toContain(next.server_seed);
    expect(data.guilds.map((g: any) => g.guildId)).toEqual(["880011223344556677"]);
    expect(data.suggestions.map((s: any) => s.text)).toEqual(["Export me"]);
    expect(await actionsOf(p.player.id)).toEqual([
      expect.objectContaining({ action: "export", operator: "test-operator", reason: "player's request via suggestions" }),
    ]);
  });

  it("erases a player: nothing personal is left anywhere, the ledger still adds up, the boards and Redis forget them", async () => {
    const instanceId = `inst-${randomUUID().slice(0, 8)}`;
    const p = await discordPlayer(t, `Child${randomUUID().slice(0, 6)}`, { guilds: ["990011223344556677"], instanceId });
    const viewer = await discordPlayer(t, "EraseViewer");
    await diceBet(t, p.player.id, 100);
    await t.request("POST", "/api/suggestions", { token: p.token, body: { playerId: p.player.id, suggestion: "my secret suggestion" } });
    await t.request("PATCH", "/api/player/anonymous", { token: p.token, body: { playerId: p.player.id, enabled: false } });
    await t.app.services.leaderboards.catchUp();
    expect((await restBoard(t, viewer.token)).entries.map((e) => e.playerId)).toContain(p.player.id);
    const redis = new Redis(env.REDIS_URL);
    expect(await redis.hget(KEYS.profiles, p.player.id)).toContain(p.player.username);
    const [before] = await sql(`SELECT avatar_url FROM players WHERE id = $1`, [p.player.id]);
    const ledgerBefore = await sql(`SELECT id, delta, balance_after FROM ledger_entries WHERE player_id = $1 ORDER BY id`, [p.player.id]);

    const erased = await admin("erase", p.player.id, "--reason", "reported as under 13", "--under-age");
    expect(erased.code).toBe(0);
    expect(erased.json).toMatchObject({ erased: true, deleted: { player_guilds: 1, activity_instance_members: 1, suggestions: 1 } });

    // Every row of every table, as text: the Discord id, name, avatar, guild and suggestion are gone.
    const tables = await sql(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
    const dump: string[] = [];
    for (const { tablename } of tables)
      dump.push(...(await sql(`SELECT row_to_json(t)::text AS row FROM ${tablename} t`)).map((r: any) => r.row));
    for (const personal of [p.discordId, p.player.username, before.avatar_url, "990011223344556677", instanceId, "my secret suggestion"]) {
      expect(dump.filter((row) => row.includes(personal))).toEqual([]);
    }
    expect(await sql(`SELECT id, delta, balance_after FROM ledger_entries WHERE player_id = $1 ORDER BY id`, [p.player.id])).toEqual(
      ledgerBefore,
    );
    await t.expectLedgerInvariant();
    const [row] = await sql(`SELECT status, discord_id, username, avatar_url FROM players WHERE id = $1`, [p.player.id]);
    expect(row).toEqual({ status: "erased", discord_id: `erased-${p.player.id}`, username: "Deleted player", avatar_url: null });
    expect(await actionsOf(p.player.id)).toEqual([
      expect.objectContaining({
        action: "erase",
        reason: "reported as under 13",
        details: expect.objectContaining({ underMinimumAge: true }),
      }),
    ]);

    expect(await redis.hget(KEYS.profiles, p.player.id)).toBeNull();
    redis.disconnect();
    expect((await restBoard(t, viewer.token)).entries.map((e) => e.playerId)).not.toContain(p.player.id);
    expect((await t.request("GET", `/api/player/${p.player.id}`, { token: p.token })).body.code).toBe("account_erased");
    expect((await t.request("GET", `/api/player/${p.player.id}`, { token: viewer.token })).status).toBe(404);

    // The same Discord user signing in again is someone new, with nothing of the erased account.
    const again = await t.request("POST", "/api/token", { body: { code: `ok:${p.discordId}:${p.player.username}` } });
    expect(again.status).toBe(200);
    expect(again.body.player.id).not.toBe(p.player.id);
    expect(again.body.player.balance).toBe(1000);

    const twice = await admin("erase", p.player.id, "--reason", "again");
    expect(twice.code).toBe(0);
    expect(twice.json.erased).toBe(false);
  });

  it("reports the house's result per game and the coins minted per source, each from the ledger's accounts", async () => {
    const p = await t.guest();
    for (let i = 0; i < 4; i++) await diceBet(t, p.player.id);
    const grant = await admin("grant", p.player.id, "75", "--reason", "report test", "--request-id", `report-${randomUUID()}`);
    expect(grant.code).toBe(0);

    const house = await admin("house");
    expect(house.code).toBe(0);
    // the stakes less the payouts of each game's rounds, as the rounds recorded them
    const rounds: { game: string; result: string }[] = await sql(
      `SELECT game_type AS game, sum(bet_amount - payout)::text AS result FROM game_sessions GROUP BY game_type ORDER BY game_type`,
    );
    expect(house.json.games).toEqual(rounds.map((r) => ({ game: r.game, result: Number(r.result) })));
    expect(house.json.total).toBe(rounds.reduce((sum, r) => sum + Number(r.result), 0));

    const minted = await admin("minted");
    expect(minted.code).toBe(0);
    const bySource = new Map<string, number>(minted.json.sources.map((m: { source: string; minted: number }) => [m.source, m.minted]));
    const [{ players }] = await sql(`SELECT count(*)::int AS players FROM players`);
    expect(bySource.get("starting-grant")).toBe(1000 * players);
    // operators' grants and claw-backs, as their audit rows recorded them
    const [{ granted, clawed }] = await sql(
      `SELECT coalesce(sum(amount) FILTER (WHERE action = 'grant'), 0)::int AS granted, coalesce(sum(amount) FILTER (WHERE action = 'claw_back'), 0)::int AS clawed FROM admin_actions`,
    );
    expect(bySource.get("admin-grant")).toBe(granted);
    expect((bySource.get("admin-claw-back") ?? 0) + clawed).toBe(0);
    expect(minted.json.total).toBe([...bySource.values()].reduce((sum, n) => sum + n, 0));
    await t.expectLedgerInvariant();
  });
});
