import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startLoadProcesses, collect, type LoadProcess } from "../loadtest/processes";
import { startCluster, freePorts, type ServerProcess } from "./lib/cluster";
import { backendPids, committedTransactions, freshDatabase, leaseRedis } from "./lib/database";
import { CpuMeter, machine } from "./lib/proc";
import { bareBetTransactions } from "./lib/pgbench";

/**
 * `npm run bench`: durable bets through the product against the bare bet-shaped transaction.
 *
 * The server runs as its own process(es) (`node --import tsx server/src/main.ts`) on a fresh
 * PostgreSQL database; the clients are @colyseus/sdk connections in separate load processes, each
 * placing 1-coin dice bets back to back (answered only after commit). After a warm-up, bets answered
 * in the measured window give bets/s and latency. Then, on the same database and at the same
 * concurrency, pgbench runs the bet-shaped transaction (conditional UPDATE of a balance + ledger
 * INSERT, one transaction); the ratio compares the two. CPU is reported per process group.
 * `--embedded` runs the server on the embedded default instead (PGlite in a new data folder, no
 * PostgreSQL), without the bare transaction.
 */
const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "32" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    "load-processes": { type: "string", default: "2" },
    "server-processes": { type: "string", default: "1" },
    redis: { type: "string" },
    "no-pgbench": { type: "boolean", default: false },
    embedded: { type: "boolean", default: false },
  },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const LOAD_PROCESSES = Number(values["load-processes"]);
const SERVER_PROCESSES = Number(values["server-processes"]);
const EMBEDDED = values.embedded;
if (EMBEDDED && SERVER_PROCESSES > 1) throw new Error("--embedded runs one server process: the embedded database is the process's own");
const REDIS = values.redis ?? (SERVER_PROCESSES > 1 ? (process.env.REDIS_URL ?? "redis://127.0.0.1:6379") : undefined);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number, d = 2) => n.toFixed(d);

async function main() {
  const db = EMBEDDED ? undefined : await freshDatabase("casino_bench");
  const dataDir = EMBEDDED ? mkdtempSync(join(tmpdir(), "casino-bench-")) : undefined;
  const redis = REDIS ? await leaseRedis(REDIS) : undefined;
  let servers: ServerProcess[] = [];
  let loads: LoadProcess[] = [];
  try {
    const base = await freePorts(SERVER_PROCESSES);
    servers = await startCluster(
      SERVER_PROCESSES,
      base,
      {
        HOST: "127.0.0.1",
        DATA_DIR: dataDir ?? "memory://",
        DATABASE_URL: db?.url ?? "",
        REDIS_URL: redis?.url ?? "",
        SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123",
        // Closed-loop clients bet as fast as answers come: lift the per-player bet limit (documented variable).
        BET_RATE_PER_SECOND: "100000",
        CLIENT_DIST: "none",
      },
      (port, line) => {
        if (!line.includes("casino listening")) console.error(`[server ${port}] ${line}`);
      },
    );

    const joinStarted = performance.now();
    loads = startLoadProcesses(
      {
        url: servers.map((s) => s.url).join(","),
        players: CLIENTS,
        rampSeconds: 0,
        scenario: "dice-spam",
        betRate: 100_000,
        restPerMinute: 600,
        ignoreLimits: true,
        timeoutMs: 30_000,
        gated: true,
        // With several processes a join can land on a process that does not hold the new room
        // ("seat reservation expired"); a client tries again, as a person would.
        joinAttempts: SERVER_PROCESSES > 1 ? 20 : 1,
      },
      Math.min(LOAD_PROCESSES, CLIENTS),
    );
    const ready = await Promise.all(loads.map((l) => l.whenReady()));
    const failedJoins = ready.reduce((n, r) => n + r.failed, 0);
    if (failedJoins > 0) console.error(`${failedJoins} of ${CLIENTS} clients could not join`);
    const joinSeconds = (performance.now() - joinStarted) / 1000;

    for (const l of loads) l.post({ type: "go" });
    await sleep(WARMUP * 1000);
    const cpu = new CpuMeter({
      server: servers.map((s) => s.pid),
      load: loads.map((l) => l.pid),
      postgres: db ? await backendPids(db.url) : [],
    });
    for (const l of loads) l.post({ type: "reset" });
    const commitsBefore = db ? await committedTransactions(db.url) : 0;
    cpu.start();
    await sleep(SECONDS * 1000);
    const roomCpu = cpu.stop();
    const commits = db ? (await committedTransactions(db.url)) - commitsBefore : 0;
    const { stats, seconds } = await collect(loads);
    loads = [];
    const bets = stats.summary("bet");
    const betsPerSecond = (bets?.count ?? 0) / seconds;

    const lines: string[] = [];
    lines.push(`machine: ${machine()}${db ? `, PostgreSQL ${db.version}` : ""}`);
    lines.push(
      `server: ${SERVER_PROCESSES} process(es) on ${db ? "PostgreSQL" : "embedded PGlite"}, ${redis ? `Redis presence and driver (${redis.url.replace(/^redis:\/\/[^/]*/, "redis")})` : "no REDIS_URL (in-memory stand-in)"}; load: ${CLIENTS} SDK clients in ${ready.length} process(es), ${WARMUP} s warm-up, ${SECONDS} s measured`,
    );
    const retriedBy = new Map<string, number>();
    for (const r of ready)
      for (const [k, n] of Object.entries({ ...r.tolerated, ...r.errors }))
        if (k.startsWith("join")) retriedBy.set(k, (retriedBy.get(k) ?? 0) + n);
    const retried = [...retriedBy];
    lines.push(
      `joins: ${CLIENTS - failedJoins} of ${CLIENTS} in ${f(joinSeconds, 1)} s${retried.length ? `; failed tries: ${retried.map(([k, n]) => `${n}× ${k}`).join(", ")}` : ""}`,
    );
    lines.push(
      `durable bets through the rooms: ${bets?.count ?? 0} in ${f(seconds, 1)} s = ${f(betsPerSecond, 0)} bets/s (${stats.errorCount} errors${stats.errorCount ? `: ${JSON.stringify(Object.fromEntries(stats.errors))}` : ""})`,
    );
    // Every transaction of the window counts (the server's reads too, each its own): the group commit
    // shows as fewer than one per bet.
    if (db)
      lines.push(`PostgreSQL transactions committed in the window: ${commits} (${f(commits / Math.max(1, bets?.count ?? 0))} per bet)`);
    if (bets) lines.push(`latency p50 ${f(bets.p50)} ms, p90 ${f(bets.p90)} ms, p99 ${f(bets.p99)} ms, max ${f(bets.max)} ms`);
    lines.push(
      `CPU during the room phase (cores busy of 2): server ${f(roomCpu.server)}, load processes ${f(roomCpu.load)}, ${db ? `PostgreSQL (the bench database's backends) ${f(roomCpu.postgres)}, ` : ""}whole machine ${f(roomCpu.machine)} (anything else: ${f(Math.max(0, roomCpu.machine - roomCpu.server - roomCpu.load - roomCpu.postgres))})`,
    );

    // The servers are idle from here on: stop them, which also gives their pool's connections back.
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];

    if (db && !values["no-pgbench"]) {
      const reader = new pg.Client({ connectionString: db.url });
      await reader.connect();
      const ids = (await reader.query(`SELECT id FROM players ORDER BY created_at LIMIT $1`, [CLIENTS])).rows.map((r) => r.id as string);
      await reader.end();
      const bareCpu = new CpuMeter({});
      bareCpu.start();
      const bare = await bareBetTransactions(db.url, ids, CLIENTS, SECONDS);
      const used = bareCpu.stop();
      lines.push(
        `bare bet-shaped transaction (UPDATE balance + INSERT ledger row, one transaction) via ${bare.tool}: ${bare.transactions} in ${f(bare.seconds, 1)} s = ${f(bare.perSecond, 0)} tx/s, p50 ${f(bare.p50)} ms, p99 ${f(bare.p99)} ms (whole machine ${f(used.machine)} cores busy)`,
      );
      lines.push(`ratio rooms/bare: ${f(betsPerSecond / bare.perSecond)}`);
    }
    console.log(lines.join("\n"));
  } finally {
    for (const l of loads) l.kill();
    await Promise.all(servers.map((s) => s.stop()));
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await redis?.release();
  }
}

await main();
process.exit(0);
