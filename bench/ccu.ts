import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { startLoadProcesses, LoadProcess, collect } from "../loadtest/processes";
import { createGuestTokens } from "../loadtest/guests";
import { startServer, freePorts, type ServerProcess } from "./lib/cluster";
import { backendPids, freshDatabase, leaseRedis } from "./lib/database";
import { CpuMeter, machine, rssBytes } from "./lib/proc";

/**
 * `npm run bench:ccu`: how many connected players one server process holds, and what they cost.
 *
 * One server process on a fresh PostgreSQL database. Guests and their session tokens are created
 * beforehand through the server's own player code (the REST limit of 600 guests a minute per IP
 * would make 10,000 take 17 minutes). Load processes connect the players (each a casino room via
 * @colyseus/sdk), which then stay idle. Reported: server RSS per connection (RSS growth / connections),
 * the server's CPU with everyone idle, then bet latency from `--bettors` of the connected players
 * betting on a fixed schedule totalling `--bet-rate` bets a second.
 */
const { values } = parseArgs({
  options: {
    connections: { type: "string", default: "10000" },
    "load-processes": { type: "string", default: "2" },
    ramp: { type: "string", default: "250" },
    bettors: { type: "string", default: "50" },
    "bet-rate": { type: "string", default: "250" },
    seconds: { type: "string", default: "20" },
    redis: { type: "string" },
  },
});
const CONNECTIONS = Number(values.connections);
const LOAD_PROCESSES = Number(values["load-processes"]);
const RAMP = Number(values.ramp);
const BETTORS = Math.min(Number(values.bettors), CONNECTIONS);
const BET_RATE = Number(values["bet-rate"]);
const SECONDS = Number(values.seconds);
const SECRET = "bench-secret-bench-secret-bench-secret-0123";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number, d = 2) => n.toFixed(d);
const mib = (bytes: number) => `${f(bytes / 1024 / 1024, 1)} MiB`;

async function main() {
  const db = await freshDatabase("casino_ccu");
  const redis = values.redis ? await leaseRedis(values.redis) : undefined;
  let server: ServerProcess | undefined;
  const loads: LoadProcess[] = [];
  try {
    const port = await freePorts(1);
    server = await startServer(
      port,
      {
        HOST: "127.0.0.1",
        DATA_DIR: "memory://",
        DATABASE_URL: db.url,
        REDIS_URL: redis?.url ?? "",
        SESSION_SECRET: SECRET,
        CLIENT_DIST: "none",
      },
      (line) => {
        if (!line.includes("casino listening")) console.error(`[server] ${line}`);
      },
    );

    let t0 = performance.now();
    const tokens = await createGuestTokens(db.url, SECRET, CONNECTIONS, { concurrency: 16 });
    console.log(
      `${CONNECTIONS} guests and tokens created in ${f((performance.now() - t0) / 1000, 1)} s (server's player code, direct to the database)`,
    );

    await sleep(2000);
    const rssBefore = rssBytes(server.pid);
    const idle = CONNECTIONS - BETTORS;
    t0 = performance.now();
    loads.push(
      ...startLoadProcesses(
        {
          url: server.url,
          players: idle,
          rampSeconds: RAMP,
          scenario: "idle",
          tokens,
          betRate: 20,
          restPerMinute: 600,
          ignoreLimits: false,
          timeoutMs: 60_000,
          gated: true,
        },
        LOAD_PROCESSES,
      ),
    );
    const bettorsProcess = new LoadProcess(
      {
        url: server.url,
        players: BETTORS,
        rampSeconds: Math.min(5, RAMP),
        scenario: fileURLToPath(new URL("./scenarios/steady-bets.ts", import.meta.url)),
        tokens,
        betRate: 20,
        restPerMinute: 600,
        ignoreLimits: false,
        timeoutMs: 30_000,
        gated: true,
        firstIndex: idle,
      },
      { ...process.env, BENCH_BET_INTERVAL_MS: String((1000 * BETTORS) / BET_RATE) },
    );
    const ready = await Promise.all([...loads, bettorsProcess].map((l) => l.whenReady()));
    const joined = ready.reduce((n, r) => n + r.joined, 0);
    const failed = ready.reduce((n, r) => n + r.failed, 0);
    const joinSeconds = (performance.now() - t0) / 1000;
    console.log(`${joined} connected (${failed} failed) in ${f(joinSeconds, 1)} s = ${f(joined / joinSeconds, 0)} joins/s`);

    // Let the joins' garbage be collected before reading memory; measure idle CPU meanwhile.
    for (const l of loads) l.post({ type: "go" });
    const idleCpu = new CpuMeter({ server: [server.pid], postgres: await backendPids(db.url) });
    idleCpu.start();
    await sleep(10_000);
    const idleUse = idleCpu.stop();
    const rssAfter = rssBytes(server.pid);
    const perConnection = (rssAfter - rssBefore) / Math.max(1, joined);
    const loadRss = [...loads, bettorsProcess].reduce((n, l) => n + rssBytes(l.pid), 0);

    bettorsProcess.post({ type: "go" });
    await sleep(3000);
    bettorsProcess.post({ type: "reset" });
    const betCpu = new CpuMeter({
      server: [server.pid],
      load: [...loads, bettorsProcess].map((l) => l.pid),
      postgres: await backendPids(db.url),
    });
    betCpu.start();
    await sleep(SECONDS * 1000);
    const betUse = betCpu.stop();
    const { stats, seconds } = await collect([bettorsProcess]);
    const bets = stats.summary("bet");
    const connectedAtEnd = loads.reduce((n, l) => n + (l.last?.inRoom ?? 0), 0) + BETTORS;

    console.log(
      `machine: ${machine()}, PostgreSQL ${db.version}; server: 1 process, ${redis ? "Redis presence and driver" : "no REDIS_URL (in-memory stand-in)"}`,
    );
    console.log(`connections: ${joined} (${failed} failed); ${connectedAtEnd} still connected at the end`);
    console.log(
      `server RSS: ${mib(rssBefore)} before, ${mib(rssAfter)} with everyone connected = ${f(perConnection / 1024, 1)} KiB per connection`,
    );
    console.log(
      `server CPU with all idle: ${f(idleUse.server, 3)} cores (its PostgreSQL backends ${f(idleUse.postgres, 3)}, whole machine ${f(idleUse.machine)})`,
    );
    console.log(`load processes: ${ready.length}, ${mib(loadRss)} RSS together`);
    console.log(
      `bets at ${BET_RATE}/s offered by ${BETTORS} of the connected players: ${bets?.count ?? 0} in ${f(seconds, 1)} s = ${f((bets?.count ?? 0) / seconds, 0)} bets/s, ${stats.errorCount} errors${stats.errorCount ? ` ${JSON.stringify(Object.fromEntries(stats.errors))}` : ""}`,
    );
    if (bets) console.log(`bet latency p50 ${f(bets.p50)} ms, p90 ${f(bets.p90)} ms, p99 ${f(bets.p99)} ms, max ${f(bets.max)} ms`);
    console.log(
      `CPU while betting (cores busy of 2): server ${f(betUse.server)}, load processes ${f(betUse.load)}, PostgreSQL backends ${f(betUse.postgres)}, whole machine ${f(betUse.machine)}`,
    );
    const idleStats = await collect(loads);
    loads.length = 0;
    const joinErrors = Object.fromEntries([...idleStats.stats.errors].filter(([code]) => code.startsWith("join")));
    if (Object.keys(joinErrors).length > 0) console.log(`join failures by code: ${JSON.stringify(joinErrors)}`);
  } finally {
    for (const l of loads) l.kill();
    await server?.stop();
    await db.drop();
    await redis?.release();
  }
}

await main();
process.exit(0);
