import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BUILT_IN, loadScenario } from "./scenario";
import { collect, startLoadProcesses } from "./processes";
import { buildReport, formatReport, progressLine } from "./report";
import { summariseIntervals } from "./stats";

const USAGE = `npm run loadtest -- [options]

  --url URL[,URL…]      server to load (default http://127.0.0.1:2567); several URLs spread the players
  --players N           simulated players (default 10)
  --ramp S              seconds over which players start (default 10)
  --duration S          seconds of play once every player has joined, after the ramp (default 60)
  --scenario NAME|PATH  ${BUILT_IN.join(", ")}, or a path to your own module (default mixed)
  --tokens FILE         session tokens, one a line, instead of creating guests
  --processes N         load processes (default 1; use 2+ when one process saturates a core)
  --bet-rate N          room requests a second per player the server allows (default 20, BET_RATE_PER_SECOND)
  --rest-per-minute N   REST requests a minute the server allows this machine (default 600)
  --ignore-limits       do not pace to the server's rate limits
  --join-attempts N     tries of each player's first join before counting it failed (default 1)
  --timeout-ms N        wait this long for an answer before counting a timeout (default 10000)
  --progress S          seconds between progress lines (default 5; 0 = none)
  --json FILE           also write the report as JSON
`;

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:2567" },
    players: { type: "string", default: "10" },
    ramp: { type: "string", default: "10" },
    duration: { type: "string", default: "60" },
    scenario: { type: "string", default: "mixed" },
    tokens: { type: "string" },
    processes: { type: "string", default: "1" },
    "bet-rate": { type: "string", default: "20" },
    "rest-per-minute": { type: "string", default: "600" },
    "ignore-limits": { type: "boolean", default: false },
    "timeout-ms": { type: "string", default: "10000" },
    "join-attempts": { type: "string", default: "1" },
    progress: { type: "string", default: "5" },
    json: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const number = (name: string, text: string, min: number) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number ≥ ${min} (got ${JSON.stringify(text)})\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
};

const players = number("players", values.players, 1);
const rampSeconds = number("ramp", values.ramp, 0);
const durationSeconds = number("duration", values.duration, 1);
const processes = Math.min(players, number("processes", values.processes, 1));
const progressSeconds = number("progress", values.progress, 0);
const urls = values.url.split(",").map((u) => u.trim().replace(/\/$/, ""));
for (const u of urls) {
  if (!/^https?:\/\/[^/]+$/.test(u)) {
    console.error(`--url must be http(s)://host:port, comma-separated for several (got ${u})`);
    process.exit(2);
  }
}
const url = urls.join(",");
// Fail fast on a scenario that does not load, before starting processes.
await loadScenario(values.scenario);
const tokens = values.tokens
  ? readFileSync(values.tokens, "utf8")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"))
  : undefined;

for (const u of urls) {
  const health = await fetch(`${u}/api/health`).catch((error: Error) => error);
  if (health instanceof Error) {
    console.error(`cannot reach ${u}: ${health.message}`);
    process.exit(1);
  }
}

const limits = values["ignore-limits"] ? "ignored" : "honoured";
console.log(
  `loadtest: ${players} players, scenario ${values.scenario}, ${url}, ramp ${rampSeconds} s, duration ${durationSeconds} s, limits ${limits}${tokens ? `, ${tokens.length} tokens` : ", new guests"}`,
);
const started = performance.now();
const loads = startLoadProcesses(
  {
    url,
    players,
    rampSeconds,
    scenario: values.scenario,
    tokens,
    betRate: number("bet-rate", values["bet-rate"], 1),
    restPerMinute: number("rest-per-minute", values["rest-per-minute"], 1),
    ignoreLimits: values["ignore-limits"],
    timeoutMs: number("timeout-ms", values["timeout-ms"], 100),
    joinAttempts: number("join-attempts", values["join-attempts"], 1),
    // Every player joins first (over the ramp); the run's seconds count from when all have joined or
    // failed to, so a slow start does not eat into the play the run measures.
    gated: true,
  },
  processes,
);
const ready = await Promise.all(loads.map((l) => l.whenReady()));
const joinFailures = ready.reduce((n, r) => n + r.failed, 0);
console.log(
  `joined: ${players - joinFailures} of ${players} in ${((performance.now() - started) / 1000).toFixed(1)} s${joinFailures ? ` (${joinFailures} failed)` : ""}`,
);
for (const l of loads) l.post({ type: "go" });
const playStarted = performance.now();

let interrupted = false;
process.once("SIGINT", () => {
  interrupted = true;
  console.log("\ninterrupted: stopping players and writing the report…");
});

let lastProgress = performance.now();
while (!interrupted && performance.now() - playStarted < durationSeconds * 1000) {
  await new Promise((r) => setTimeout(r, 250));
  if (progressSeconds > 0 && performance.now() - lastProgress >= progressSeconds * 1000) {
    const now = performance.now();
    const interval = summariseIntervals(loads.flatMap((l) => l.drainIntervals()));
    const sum = (key: "started" | "inRoom" | "errors" | "reconnects") => loads.reduce((n, l) => n + (l.last?.[key] ?? 0), 0);
    console.log(
      progressLine(
        (now - started) / 1000,
        { started: sum("started"), inRoom: sum("inRoom"), players, errors: sum("errors"), reconnects: sum("reconnects") },
        interval,
        (now - lastProgress) / 1000,
      ),
    );
    lastProgress = now;
  }
}

const { stats, seconds } = await collect(loads);
const report = buildReport(stats, seconds, {
  url,
  scenario: values.scenario,
  players,
  processes: loads.length,
  rampSeconds,
  durationSeconds,
  limits,
});
console.log("");
console.log(formatReport(report));
if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2));
process.exit(0);
