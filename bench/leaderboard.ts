import "reflect-metadata";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import express from "express";
import pg from "pg";
import { loadConfig } from "../server/src/platform/config";
import { createApp } from "../server/src/app";
import { apiRouter, mountHttpBasics } from "../server/src/core/http/api";
import { leaseRedis } from "./lib/database";

/**
 * `npm run bench:leaderboard`: N players (1,000,000 by default) in a fresh PostgreSQL database, the
 * balance board rebuilt from PostgreSQL into the real Redis (timed), then C concurrent keep-alive
 * HTTP clients (32) for T seconds per phase against four handlers in the same process: a trivial
 * Express JSON handler mounted where the product's routes are (behind the app's own /api router, the
 * session and the per-player rate limit included, on a port of its own), the same handler mounted
 * before the session and that limit,
 * `GET /api/leaderboard?page=N` (random pages
 * of 25 across the whole board), the same for the first four pages (what the page cache serves) and `GET /api/player/:id/rank` (random players). The clients run in a
 * worker thread so the server keeps its own event loop. The phases are interleaved in rounds (3 rounds
 * of 5 s by default), so a change in the machine's background load hits all of them alike. Prints
 * throughput, p50/p99 over all rounds, and the ratios to the trivial handler; then the CPU time the
 * server's event-loop thread spent per request in each phase (Linux only), the figure that stays
 * comparable between runs on a machine shared with other work. Last, each handler at a fixed offered
 * rate (`--rate`, 1,000 a second; open loop): with 32 clients always waiting, latency is mostly queueing
 * (Little's law: 32 / throughput), so the p99 at a known load is the figure that says how fast a
 * request is served.
 */
const { values } = parseArgs({
  options: {
    players: { type: "string", default: "1000000" },
    clients: { type: "string", default: "32" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    rate: { type: "string", default: "1000" },
    "bets-per-player": { type: "string", default: "0" },
  },
});
const PLAYERS = Number(values.players);
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
/** Requests a second of the open-loop phases (0: none). */
const RATE = Number(values.rate);
/**
 * Ledger entries of this week's games per player (`bet`, dated now), besides the grant: the day and week
 * boards a rebuild sums up from the ledger (0: the boards of nets are empty, as after a quiet week).
 */
const BETS_PER_PLAYER = Number(values["bets-per-player"]);
const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_BASE = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** The load generator: plain JavaScript in a worker thread, node:http with keep-alive. */
const LOADER = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const { clients, seconds, phases } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
function get(port, path, token) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.request({ host: "127.0.0.1", port, path, agent, headers: { authorization: "Bearer " + token } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ ok: res.statusCode === 200, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on("error", () => resolve({ ok: false, ms: 0 }));
    req.end();
  });
}
// Open loop: requests are sent on a fixed schedule (rate per second), whether or not earlier ones
// were answered, and each latency counts from the moment the request was due, so a stall shows in
// full (no coordinated omission). At most 'clients' connections, as in the closed loop.
async function openPhase(p) {
  const record = { ms: [], errors: 0 };
  parentPort.postMessage({ mark: "start", name: p.name });
  const started = performance.now();
  const total = Math.round(p.rate * seconds);
  let sent = 0;
  const inFlight = [];
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * p.rate));
      for (; sent < due; sent++) {
        const dueAt = started + (sent / p.rate) * 1000;
        const i = sent;
        inFlight.push(get(p.port, p.paths[i % p.paths.length], p.tokens[i % p.tokens.length]).then((r) => {
          if (r.ok) record.ms.push(performance.now() - dueAt); else record.errors++;
        }));
      }
      if (sent < total) setTimeout(tick, 1); else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  parentPort.postMessage({ mark: "end", name: p.name });
  return { name: p.name, ms: record.ms, errors: record.errors, seconds: elapsed };
}
async function phase(p) {
  if (p.rate) return openPhase(p);
  const run = async (until, record) => {
    await Promise.all(Array.from({ length: clients }, async (_, c) => {
      let i = c;
      while (Date.now() < until) {
        const r = await get(p.port, p.paths[(i += clients) % p.paths.length], p.tokens[c % p.tokens.length]);
        if (record) r.ok ? record.ms.push(r.ms) : record.errors++;
      }
    }));
  };
  await run(Date.now() + 1000, null); // warm-up
  const record = { ms: [], errors: 0 };
  parentPort.postMessage({ mark: "start", name: p.name });
  const started = performance.now();
  await run(Date.now() + seconds * 1000, record);
  const elapsed = (performance.now() - started) / 1000;
  parentPort.postMessage({ mark: "end", name: p.name });
  return { name: p.name, ms: record.ms, errors: record.errors, seconds: elapsed };
}
(async () => {
  const results = [];
  for (const p of phases) results.push(await phase(p));
  parentPort.postMessage({ results });
})();
`;

/** CPU time (user + system) of this process's main thread so far, in ms (Linux: /proc, clock ticks of 10 ms). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const dbName = `casino_lbbench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const redis = await leaseRedis(REDIS_BASE);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redis.url,
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    CLIENT_DIST: "none",
    API_RATE_PER_MINUTE: "1000000000",
    PLAYER_RATE_PER_MINUTE: "1000000000",
  });
  const app = await createApp(config);
  // The trivial handlers, on a web server of their own in this same process (the same event loop), behind
  // the app's own middleware built from its services: the same /api router, with these routes in place of
  // the product's. Where the product's routes are (after the session and the per-player limit), and before them.
  const trivial = (path: string) => express.Router().get(path, (_req, res) => void res.json({ ok: true }));
  const benchHttp = express();
  mountHttpBasics(benchHttp, config);
  benchHttp.use("/api", apiRouter(app.services, [trivial("/bench/trivial-public")], [trivial("/bench/trivial")]));
  const benchServer = benchHttp.listen(0, "127.0.0.1");
  await once(benchServer, "listening");
  const benchPort = (benchServer.address() as AddressInfo).port;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  try {
    // 1. A million players and their starting grants, straight into PostgreSQL.
    const t0 = performance.now();
    await db.query(
      `INSERT INTO players (discord_id, username, avatar_url, balance)
       SELECT (100000000000000000 + g)::text, 'player' || g, NULL, floor(random() * 100000)::bigint FROM generate_series(1, $1) g`,
      [PLAYERS],
    );
    await db.query(
      `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) SELECT id, balance, balance, 'grant', 'bench', 'bench-grant', 'mint:admin-grant' FROM players`,
    );
    if (BETS_PER_PLAYER > 0) {
      // The running balance is left as the grant's: only the sums of this week's entries are read by a build.
      await db.query(
        `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account)
         SELECT p.id, -1, p.balance, 'bet', 'dice', 'bench-bet-' || k, 'house:dice' FROM players p, generate_series(1, $1) k`,
        [BETS_PER_PLAYER],
      );
    }
    await db.query(`ANALYZE`);
    // The progress consumer would otherwise replay a million grants for peak balances during the run.
    await db.query(`INSERT INTO consumer_cursors (name, position) SELECT 'progress:ledger', max(id) FROM ledger_entries`);
    const insertSeconds = (performance.now() - t0) / 1000;

    const loadBefore = (await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ");
    const port = await app.listen();
    await app.services.leaderboards.start();
    await app.services.redis.flushdb();
    const rebuild = await app.services.leaderboards.rebuild();

    // 2. Sessions and request paths.
    const sample = (await db.query(`SELECT id, discord_id FROM players TABLESAMPLE SYSTEM (2) LIMIT 20000`)).rows as {
      id: string;
      discord_id: string;
    }[];
    const tokens = await Promise.all(
      sample.slice(0, CLIENTS).map((p) => app.services.tokens.issue({ playerId: p.id, discordId: p.discord_id, guest: false })),
    );
    const pages = Math.ceil(PLAYERS / 25);
    const pagePaths = Array.from({ length: 20_000 }, () => `/api/leaderboard?page=${1 + Math.floor(Math.random() * pages)}&limit=25`);
    // What most readers ask for: the board's first pages (the leaderboard opens on page 1), which the
    // shared page cache answers for a second at most (random pages over the whole board are hardly ever
    // asked twice within that second, so the phase above measures pages read from Redis).
    const frontPaths = [1, 2, 3, 4].map((page) => `/api/leaderboard?page=${page}&limit=25`);
    const rankPaths = sample.map((p) => `/api/player/${p.id}/rank`);
    const check = await fetch(`http://127.0.0.1:${port}${pagePaths[0]}`, { headers: { authorization: `Bearer ${tokens[0]}` } });
    const body = (await check.json()) as { total: number; entries: unknown[] };
    if (body.total !== PLAYERS || body.entries.length !== 25) throw new Error(`unexpected board: ${JSON.stringify(body).slice(0, 200)}`);

    // 3. The three handlers, one after the other, same clients.
    // The ratios are to the trivial handler mounted where the product's routes are (after the session
    // and the per-player rate limit, which every leaderboard call passes); the one mounted before them
    // shows what those two cost.
    const phases = [
      { name: "trivial Express JSON handler", port: benchPort, paths: ["/api/bench/trivial"], tokens },
      { name: "trivial, before session+limit", port: benchPort, paths: ["/api/bench/trivial-public"], tokens },
      { name: "GET /api/leaderboard?page=N", port, paths: pagePaths, tokens },
      { name: "GET /api/leaderboard, pages 1-4", port, paths: frontPaths, tokens },
      { name: "GET /api/player/:id/rank", port, paths: rankPaths, tokens },
    ];
    // Then each handler once more at a fixed offered rate (open loop), for latency at a known load.
    const open = RATE > 0 ? phases.map((p) => ({ ...p, name: `${p.name} @${RATE}/s`, rate: RATE })) : [];
    const rounds = [...Array.from({ length: ROUNDS }, () => phases).flat(), ...open];
    const worker = new Worker(LOADER, { eval: true, workerData: { clients: CLIENTS, seconds: SECONDS, phases: rounds } });
    // CPU time of the server's own thread (the event loop that serves every request) per phase: unlike
    // throughput, it hardly moves when other processes compete for the machine's cores.
    const cpu = new Map<string, number>();
    let phaseStart = 0;
    type Raw = { name: string; ms: number[]; errors: number; seconds: number }[];
    const raw = await new Promise<Raw>((resolve, reject) => {
      worker.on("message", (m: { mark?: "start" | "end"; name?: string; results?: Raw }) => {
        if (m.mark === "start") phaseStart = mainThreadCpuMs();
        else if (m.mark === "end") cpu.set(m.name!, (cpu.get(m.name!) ?? 0) + mainThreadCpuMs() - phaseStart);
        else resolve(m.results!);
      });
      worker.once("error", reject);
    });
    await worker.terminate();
    const results = [...phases, ...open].map(({ name }) => {
      const runs = raw.filter((r) => r.name === name);
      const ms = runs.flatMap((r) => r.ms).sort((a, b) => a - b);
      const pct = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
      const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
      const cpuUs = ((cpu.get(name) ?? 0) * 1000) / Math.max(1, ms.length);
      return {
        name,
        count: ms.length,
        errors: runs.reduce((sum, r) => sum + r.errors, 0),
        perSecond: ms.length / seconds,
        p50: pct(0.5),
        p99: pct(0.99),
        cpuUs,
      };
    });

    const pgVersion = (await admin.query("SHOW server_version")).rows[0].server_version;
    const redisVersion = /redis_version:(\S+)/.exec(await app.services.redis.info("server"))?.[1];
    const trivial = results[0]!;
    const closed = results.slice(0, phases.length);
    const openResults = results.slice(phases.length);
    console.log(
      `players ${PLAYERS.toLocaleString("en")}, clients ${CLIENTS}, ${ROUNDS} rounds of ${SECONDS} s per handler; PostgreSQL ${pgVersion}, Redis ${redisVersion}`,
    );
    console.log(`load average before the run: ${loadBefore}`);
    console.log(
      `insert players and grants${BETS_PER_PLAYER > 0 ? ` and ${BETS_PER_PLAYER} bets each this week` : ""} (generate_series): ${insertSeconds.toFixed(1)} s`,
    );
    console.log(
      `rebuild of the boards from PostgreSQL: ${(rebuild.ms / 1000).toFixed(2)} s (${rebuild.players.toLocaleString("en")} ranked)`,
    );
    for (const r of closed) {
      const ratio = r === trivial ? "" : `  ratio ${(r.perSecond / trivial.perSecond).toFixed(2)}x`;
      console.log(
        `${r.name.padEnd(30)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${r.errors} errors)${ratio}`,
      );
    }
    for (const r of closed) {
      const ratio = r === trivial ? "" : `  CPU ratio ${(trivial.cpuUs / r.cpuUs).toFixed(2)}x`;
      console.log(`${r.name.padEnd(30)} server thread CPU ${r.cpuUs.toFixed(0).padStart(5)} µs/request${ratio}`);
    }
    if (openResults.length > 0)
      console.log(`open loop, ${RATE} requests a second offered for ${SECONDS} s, latency from the moment each was due:`);
    for (const r of openResults) {
      console.log(
        `${r.name.padEnd(38)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${r.errors} errors)`,
      );
    }
  } finally {
    await db.end();
    benchServer.closeAllConnections();
    benchServer.close();
    await app.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await redis.release();
  }
  process.exit(0);
}

await main();
