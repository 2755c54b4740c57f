import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { freePorts, startServer } from "./lib/cluster";
import { freshDatabase } from "./lib/database";
import { machine, machineBusySeconds } from "./lib/proc";

/**
 * `npm run bench:lighthouse`: Lighthouse's performance category (its default mobile profile: a
 * mid-range phone, simulated slow 4G and a 4x slower CPU) on the lobby, as a first visit makes it
 * (empty cache and storage: the guest is created, the lobby drawn). The production build is served by
 * the server process itself (`npm run build` first) on a fresh PostgreSQL database; the browser is the
 * machine's Chromium. Prints each run and the median of the score and its metrics.
 */
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    path: { type: "string", default: "/" },
    chromium: { type: "string", default: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    /** A directory to write each run's full Lighthouse report (JSON) into, for its diagnostics. */
    reports: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "client/dist");

interface Run {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  bytes: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
const row = (name: string, r: Run) =>
  `| ${name} | ${r.score.toFixed(2)} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${ms(r.si)} | ${(r.bytes / 1024).toFixed(0)} KiB |`;

async function once(url: string, report?: string): Promise<Run> {
  const chrome = await chromeLauncher.launch({
    chromePath: values.chromium,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    if (report) writeFileSync(report, JSON.stringify(lhr));
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: lhr.categories.performance?.score ?? Number.NaN,
      fcp: audit("first-contentful-paint"),
      lcp: audit("largest-contentful-paint"),
      tbt: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
      si: audit("speed-index"),
      bytes: audit("total-byte-weight"),
    };
  } finally {
    chrome.kill();
  }
}

async function main() {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("client/dist is missing: run `npm run build` first");
  const db = await freshDatabase("casino_lighthouse");
  const [port] = [await freePorts(1)];
  const server = await startServer(port!, {
    HOST: "127.0.0.1",
    DATABASE_URL: db.url,
    REDIS_URL: "",
    CLIENT_DIST: DIST,
    NODE_ENV: "production",
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123",
  });
  const busyAt = { t: performance.now(), busy: machineBusySeconds() };
  try {
    console.log(
      `${machine()}; Lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, mobile profile`,
    );
    console.log(`page: ${server.url}${values.path} (first visit: empty cache and storage), ${RUNS} runs`);
    console.log(
      "| run | performance | first contentful paint | largest contentful paint | total blocking time | layout shift | speed index | transferred |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    if (values.reports) mkdirSync(values.reports, { recursive: true });
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const report = values.reports ? join(values.reports, `run-${i + 1}.json`) : undefined;
      const run = await once(`${server.url}${values.path}`, report);
      runs.push(run);
      console.log(row(String(i + 1), run));
    }
    const keys = Object.keys(runs[0]!) as (keyof Run)[];
    console.log(row("median", Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as Run));
    const seconds = (performance.now() - busyAt.t) / 1000;
    console.log(`whole machine during the runs: ${((machineBusySeconds() - busyAt.busy) / seconds).toFixed(2)} cores busy`);
  } finally {
    await server.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
