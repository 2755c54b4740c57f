import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import hdr from "hdr-histogram-js";

export interface BareResult {
  tool: string;
  transactions: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/**
 * The bet-shaped transaction without the product: one conditional UPDATE of a player's balance and
 * one ledger INSERT carrying the new balance, in one transaction, `clients` at a time, one player per
 * client (as in the room phase). Uses `pgbench` when it is on the PATH, a bare node-pg loop otherwise.
 */
export async function bareBetTransactions(url: string, playerIds: string[], clients: number, seconds: number): Promise<BareResult> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query(`CREATE TABLE IF NOT EXISTS bench_players (n int PRIMARY KEY, id uuid NOT NULL)`);
    await setup.query(`TRUNCATE bench_players`);
    for (let n = 0; n < clients; n++)
      await setup.query(`INSERT INTO bench_players (n, id) VALUES ($1, $2)`, [n, playerIds[n % playerIds.length]]);
    await setup.query(`UPDATE players SET balance = balance + 1000000000 WHERE id IN (SELECT id FROM bench_players)`);
  } finally {
    await setup.end();
  }
  if (!hasPgbench()) return runNodePg(url, clients, seconds);
  // A PostgreSQL shared with other work can be out of connection slots for a moment: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await runPgbench(url, clients, seconds);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes("too many clients")) throw error;
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
}

function hasPgbench(): boolean {
  try {
    execFileSync("pgbench", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

// The account is spelt with chr(58) for its colon: pgbench reads any ":name" in a script, quoted or not, as
// one of its variables, and in extended mode sends it as one more parameter than the statement has.
const SCRIPT = `BEGIN;
UPDATE players SET balance = balance - 1 WHERE id = (SELECT id FROM bench_players WHERE n = :client_id) AND balance >= 1 RETURNING id AS player_id, balance AS balance_after \\gset
INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) VALUES (:player_id, -1, :balance_after, 'bet', 'pgbench', gen_random_uuid()::text, 'house' || chr(58) || 'pgbench');
END;
`;

async function runPgbench(url: string, clients: number, seconds: number): Promise<BareResult> {
  const dir = mkdtempSync(join(tmpdir(), "casino-pgbench-"));
  try {
    const script = join(dir, "bet.sql");
    writeFileSync(script, SCRIPT);
    const args = [
      "-n",
      "-M",
      "extended",
      "-c",
      String(clients),
      "-j",
      "2",
      "-T",
      String(seconds),
      "-f",
      script,
      "--log",
      `--log-prefix=${join(dir, "tx")}`,
      url,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("pgbench", args, { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (d) => (text += d));
      child.stderr.on("data", (d) => (text += d));
      child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited with ${code}:\n${text}`))));
    });
    const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
    for (const file of readdirSync(dir).filter((f) => f.startsWith("tx"))) {
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
        const latencyUs = Number(line.split(" ")[2]);
        if (line && Number.isFinite(latencyUs)) histogram.recordValue(Math.max(1, latencyUs));
      }
    }
    const processed = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? histogram.totalCount);
    const failed = /number of failed transactions: (\d+)/.exec(output)?.[1];
    if (failed && Number(failed) > 0) throw new Error(`pgbench: ${failed} failed transactions\n${output}`);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1] ?? processed / seconds);
    return {
      tool: `pgbench (-M extended, ${clients} clients, 2 threads)`,
      transactions: processed,
      seconds,
      perSecond: tps,
      p50: histogram.getValueAtPercentile(50) / 1000,
      p99: histogram.getValueAtPercentile(99) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runNodePg(url: string, clients: number, seconds: number): Promise<BareResult> {
  const pool = new pg.Pool({ connectionString: url, max: clients });
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, n) => {
      const conn = await pool.connect();
      try {
        const id = (await conn.query(`SELECT id FROM bench_players WHERE n = $1`, [n])).rows[0].id;
        while (performance.now() < deadline) {
          const t0 = performance.now();
          await conn.query("BEGIN");
          const r = await conn.query(`UPDATE players SET balance = balance - 1 WHERE id = $1 AND balance >= 1 RETURNING balance`, [id]);
          await conn.query(
            `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) VALUES ($1, -1, $2, 'bet', 'node-pg', $3, 'house:node-pg')`,
            [id, r.rows[0].balance, randomUUID()],
          );
          await conn.query("COMMIT");
          latencies.push(performance.now() - t0);
        }
      } finally {
        conn.release();
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return {
    tool: `node-pg loop (pgbench not on the PATH), ${clients} connections`,
    transactions: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50: at(50),
    p99: at(99),
  };
}
