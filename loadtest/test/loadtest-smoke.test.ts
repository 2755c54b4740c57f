import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { freshDatabase } from "../../bench/lib/database";
import { freePorts, startServer, type ServerProcess } from "../../bench/lib/cluster";
import type { Report } from "../report";

const run = promisify(execFile);

const SESSION_SECRET = "loadtest-secret-loadtest-secret-0123456789";

let server: ServerProcess;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let dir: string;

beforeAll(async () => {
  db = await freshDatabase("casino_loadtest");
  server = await startServer(await freePorts(1), {
    HOST: "127.0.0.1",
    DATA_DIR: "memory://",
    DATABASE_URL: db.url,
    REDIS_URL: "",
    SESSION_SECRET,
    CLIENT_DIST: "none",
    // Short crash rounds (a betting window a second, a steep curve): the crash scenario's players see
    // several betting windows in its run even when the machine is slow to start them.
    CRASH_BETTING_MS: "1000",
    CRASH_BUSTED_MS: "300",
    CRASH_CURVE_RATE: "0.002",
  });
  dir = mkdtempSync(join(tmpdir(), "casino-loadtest-"));
});

afterAll(async () => {
  await server?.stop();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the load tool's CLI against the server and answers its JSON report. */
async function loadtest(
  scenario: string,
  players: number,
  seconds: number,
  extra: string[] = [],
): Promise<{ stdout: string; report: Report }> {
  const json = join(dir, `${scenario}.json`);
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "loadtest/cli.ts",
      ...["--url", server.url, "--players", String(players), "--ramp", "1", "--duration", String(seconds)],
      ...["--scenario", scenario, "--progress", "0", "--json", json],
      ...extra,
    ],
    { timeout: 90_000 },
  );
  return { stdout, report: JSON.parse(readFileSync(json, "utf8")) as Report };
}

describe("npm run loadtest", () => {
  it("plays the mixed scenario against a server process and reports joins, bets, reconnects and no errors", async () => {
    const json = join(dir, "report.json");
    const { stdout } = await run(
      process.execPath,
      [
        "--import",
        "tsx",
        "loadtest/cli.ts",
        "--url",
        server.url,
        "--players",
        "9",
        "--ramp",
        "1",
        "--duration",
        "10",
        "--scenario",
        "mixed",
        "--progress",
        "0",
        "--json",
        json,
      ],
      { timeout: 90_000 },
    );
    expect(stdout).toContain("loadtest report: scenario mixed");
    const report = JSON.parse(readFileSync(json, "utf8")) as Report;
    expect(report.errors).toEqual({});
    expect(report.joins).toBeGreaterThanOrEqual(9);
    expect(report.joinFailures).toBe(0);
    expect(report.latency.bet?.count).toBeGreaterThan(0);
    expect(report.latency.act?.count).toBeGreaterThan(0);
    expect(report.latency["daily-spin"]?.count).toBe(1);
    expect(report.reconnects).toBeGreaterThan(0);
    expect(report.reconnectFailures).toBe(0);
    expect(report.latency["POST /api/guest"]?.count).toBe(9);

    // What the report counted is what the server's ledger holds: every answered bet is a ledger row.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE reason = 'bet'`);
    const mismatched = await c.query(
      `SELECT p.id FROM players p LEFT JOIN ledger_entries l ON l.player_id = p.id GROUP BY p.id, p.balance HAVING p.balance <> COALESCE(sum(l.delta), 0)`,
    );
    await c.end();
    expect(rows[0].n).toBe(report.latency.bet!.count);
    expect(mismatched.rows).toEqual([]);
  });

  it("plays the shared crash room and reads the boards, with no errors", async () => {
    const [crash, boards] = await Promise.all([loadtest("crash", 4, 20), loadtest("leaderboard", 3, 6)]);
    expect(crash.report.errors).toEqual({});
    expect(crash.report.latency["join crash"]?.count).toBe(4);
    expect(crash.report.latency["crash:bet"]?.count).toBeGreaterThanOrEqual(4);
    expect(boards.report.errors).toEqual({});
    expect(boards.report.latency["GET /api/leaderboard"]?.count).toBeGreaterThanOrEqual(3);
    expect(boards.report.latency["GET /api/player/:id/rank"]?.count).toBeGreaterThanOrEqual(3);

    // Every answered crash bet is a debit in the ledger, referenced to the shared room.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE reason = 'bet' AND reference = 'crash-room'`);
    await c.end();
    expect(rows[0].n).toBe(crash.report.latency["crash:bet"]!.count);
  });

  it("plays the Hold'em table and prints the action round trip's p99, every buy-in a ledger entry", async () => {
    const { stdout, report } = await loadtest("holdem", 3, 15);
    expect(report.errors).toEqual({});
    expect(report.latency["join holdem-table"]?.count).toBe(3);
    expect(report.latency["holdem:sit"]?.count).toBeGreaterThanOrEqual(3);
    expect(report.latency["holdem:act"]?.count).toBeGreaterThan(0);
    expect(report.latency["holdem:act"]?.p99).toBeGreaterThan(0);
    expect(stdout).toMatch(/^holdem:act\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+/m);

    // Every answered buy-in is a ledger entry, and each table's account holds the stacks of its seats.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE reason = 'buy_in'`);
    const held = await c.query(
      `SELECT t.id, coalesce((SELECT sum(-delta) FROM ledger_entries WHERE account = 'holding:holdem-' || t.id), 0)::int AS held,
              coalesce((SELECT sum(stack) FROM holdem_seats s WHERE s.table_id = t.id AND s.left_at IS NULL), 0)::int AS stacks
         FROM holdem_tables t`,
    );
    await c.end();
    expect(rows[0].n).toBe(report.latency["holdem:sit"]!.count);
    expect(held.rows.length).toBeGreaterThan(0);
    for (const row of held.rows) expect(row.held).toBe(row.stacks);
  });

  it("sends reactions in two instances of 8 within the server's limits and reports their fan-out", async () => {
    // The members, made by the operator's tool as its documentation says (the load tool imports nothing of the server).
    const file = join(dir, "instance-tokens.txt");
    await run(
      process.execPath,
      ["--import", "tsx", "server/src/ops/guest-tokens-cli.ts", "--count", "16", "--instance-size", "8", "--out", file],
      { env: { ...process.env, DATABASE_URL: db.url, SESSION_SECRET } },
    );
    const tokens = readFileSync(file, "utf8").trim().split("\n");
    expect(tokens).toHaveLength(16);
    expect(new Set(tokens.map((line) => line.split(" ")[1])).size).toBe(2);
    const { stdout, report } = await loadtest("reactions", 16, 8, ["--tokens", file]);
    expect(report.errors).toEqual({});
    expect(report.latency["join together"]?.count).toBe(16);
    const echo = report.latency["together:react echo"]!.count;
    expect(echo).toBeGreaterThanOrEqual(16);
    // Each reaction reached the 7 other members of its instance (those still in the room at the run's end aside).
    expect(report.latency["together:reaction fan-out"]!.count).toBeGreaterThanOrEqual(7 * (echo - 16));
    expect(stdout).toMatch(/^together:reaction fan-out\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+/m);
  });
});
