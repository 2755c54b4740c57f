import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePorts } from "./lib/cluster";
import { freshDatabase, leaseRedis } from "./lib/database";
import { cpuSeconds, machine, machineBusySeconds, rssBytes, wasmMemoryRssBytes } from "./lib/proc";

/**
 * `npm run bench:startup`: how long a server process takes from its start to a 200 from
 * `GET /api/health`, the CPU it spends getting there, and its resident memory once idle.
 *
 * Each of the server's two forms is measured: `source` runs `server/src/main.ts` through tsx (compiled
 * in memory at every start, as `npm run dev` does), `compiled` runs the production build
 * (`server/dist/main.js`, made by `npm run build`, with source maps and glibc's malloc setting as `npm start` runs it). Each on three set-ups: embedded PGlite in a new
 * data folder (its first start: the database is created and migrated), the same folder again (a
 * restart), and PostgreSQL and Redis (a fresh database each run). A run spawns the process, polls the
 * health endpoint every 10 ms, then leaves the process idle for `--idle` seconds and reads its RSS.
 * The median of `--runs` runs is printed; the forms of a set-up take turns run by run, so a busy
 * machine weighs on each alike.
 */
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    idle: { type: "string", default: "5" },
    // A start that is not healthy by then is stopped and counted as failed (its output is printed).
    "start-timeout": { type: "string", default: "300" },
    forms: { type: "string", default: "source,compiled" },
    setups: { type: "string", default: "pglite-new,pglite-again,postgres" },
    redis: { type: "string", default: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
    // Another checkout (with its own node_modules), measured from source as the form `baseline`:
    // `--baseline ../old --forms baseline,compiled` compares it with this one's build, run for run.
    baseline: { type: "string" },
    // Runs the baseline's production build (its server/dist/main.js) instead of its source.
    "baseline-compiled": { type: "boolean", default: false },
  },
});
const RUNS = Number(values.runs);
const IDLE_MS = Number(values.idle) * 1000;
const START_TIMEOUT_MS = Number(values["start-timeout"]) * 1000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BASELINE = values.baseline ? resolve(values.baseline) : undefined;
const COMPILED = join(ROOT, "server/dist/main.js");
const SECRET = "bench-secret-bench-secret-bench-secret-0123";
/** The environment `npm start` and the image run the production build with (package.json, Dockerfile). */
const PRODUCTION_ENV = { MALLOC_MMAP_THRESHOLD_: "32768" };

type Form = "source" | "compiled" | "baseline";
type Setup = "pglite-new" | "pglite-again" | "postgres";

interface Run {
  healthyMs: number;
  cpuToHealthy: number;
  idleRss: number;
  /** Of the idle RSS, embedded PGlite's WebAssembly memory (its buffer pool, catalog caches, work memory). */
  wasmRss: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function once(form: Form, env: NodeJS.ProcessEnv): Promise<Run | null> {
  const port = await freePorts(1);
  const compiled = form === "compiled" || (form === "baseline" && values["baseline-compiled"]);
  const args = compiled ? ["--enable-source-maps", "server/dist/main.js"] : ["--import", "tsx", "server/src/main.ts"];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: form === "baseline" ? BASELINE : ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(form === "compiled" ? PRODUCTION_ENV : {}),
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      CLIENT_DIST: "none",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  try {
    for (;;) {
      if (done) throw new Error(`the ${form} server exited before it was healthy:\n${output}`);
      if (performance.now() - started > START_TIMEOUT_MS) {
        console.error(`the ${form} server was not healthy after ${START_TIMEOUT_MS / 1000} s; its last output:\n${output}`);
        return null;
      }
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(10);
    }
    const healthyMs = performance.now() - started;
    const cpuToHealthy = cpuSeconds(child.pid!);
    await sleep(IDLE_MS);
    return { healthyMs, cpuToHealthy, idleRss: rssBytes(child.pid!), wasmRss: wasmMemoryRssBytes(child.pid!) };
  } finally {
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(killer);
  }
}

async function measureOnce(form: Form, setup: Setup): Promise<Run | null> {
  if (setup === "postgres") {
    const db = await freshDatabase("casino_startup");
    const redis = await leaseRedis(values.redis);
    try {
      return await once(form, { DATABASE_URL: db.url, REDIS_URL: redis.url, SESSION_SECRET: SECRET });
    } finally {
      await db.drop();
      await redis.release();
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), "casino-startup-"));
  try {
    // "again" measures the second start on a folder the first one created and migrated.
    if (setup === "pglite-again") await once(form, { DATA_DIR: dataDir });
    return await once(form, { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const forms = values.forms.split(",").filter(Boolean) as Form[];
  const setups = values.setups.split(",").filter(Boolean) as Setup[];
  if (forms.includes("baseline") && !BASELINE) throw new Error("the form baseline needs --baseline <checkout>");
  if (forms.includes("compiled") && !existsSync(COMPILED)) {
    throw new Error("server/dist/main.js is missing: run `npm run build` first, or pass --forms source");
  }
  console.log(`${machine()}; median of ${RUNS} runs; RSS after ${IDLE_MS / 1000} s idle`);
  const busyAt = { t: performance.now(), busy: machineBusySeconds() };
  console.log("| form | set-up | start → healthy | CPU to healthy | idle RSS | of which PGlite's memory | the rest |");
  console.log("|---|---|---|---|---|---|---|");
  for (const setup of setups) {
    const runs = new Map<Form, (Run | null)[]>(forms.map((form) => [form, []]));
    for (let i = 0; i < RUNS; i++) for (const form of forms) runs.get(form)!.push(await measureOnce(form, setup));
    for (const [form, all] of runs) {
      const measured = all.filter((run): run is Run => run !== null);
      if (measured.length < all.length)
        console.log(`| ${form} | ${setup} | ${all.length - measured.length} of ${all.length} starts not healthy in time | | | | |`);
      if (measured.length === 0) continue;
      const ms = median(measured.map((r) => r.healthyMs));
      const cpu = median(measured.map((r) => r.cpuToHealthy));
      const rss = median(measured.map((r) => r.idleRss));
      const wasm = median(measured.map((r) => r.wasmRss));
      const rest = median(measured.map((r) => r.idleRss - r.wasmRss));
      const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
      console.log(`| ${form} | ${setup} | ${(ms / 1000).toFixed(2)} s | ${cpu.toFixed(2)} s | ${mib(rss)} | ${mib(wasm)} | ${mib(rest)} |`);
    }
  }
  const seconds = (performance.now() - busyAt.t) / 1000;
  console.log(`machine busy meanwhile: ${((machineBusySeconds() - busyAt.busy) / seconds).toFixed(2)} cores on average`);
}

await main();
