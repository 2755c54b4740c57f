import type { LatencySummary, Stats } from "./stats";

export interface Report {
  url: string;
  scenario: string;
  players: number;
  processes: number;
  rampSeconds: number;
  durationSeconds: number;
  seconds: number;
  limits: "honoured" | "ignored";
  joins: number;
  joinFailures: number;
  drops: number;
  reconnects: number;
  reconnectFailures: number;
  /** Answered requests a second, all kinds (joins and reconnects apart). */
  throughput: number;
  latency: Record<string, LatencySummary & { perSecond: number }>;
  errors: Record<string, number>;
  tolerated: Record<string, number>;
}

const NOT_REQUESTS = new Set(["join", "reconnect"]);

export function buildReport(
  stats: Stats,
  seconds: number,
  meta: Omit<
    Report,
    "seconds" | "joins" | "joinFailures" | "drops" | "reconnects" | "reconnectFailures" | "throughput" | "latency" | "errors" | "tolerated"
  >,
): Report {
  const latency: Report["latency"] = {};
  let answered = 0;
  for (const type of [...stats.latency.keys()].sort()) {
    const s = stats.summary(type)!;
    if (s.count === 0) continue;
    latency[type] = { ...s, perSecond: s.count / seconds };
    if (!NOT_REQUESTS.has(type)) answered += s.count;
  }
  return {
    ...meta,
    seconds,
    joins: stats.joins,
    joinFailures: stats.joinFailures,
    drops: stats.drops,
    reconnects: stats.reconnects,
    reconnectFailures: stats.reconnectFailures,
    throughput: answered / seconds,
    latency,
    errors: Object.fromEntries([...stats.errors].sort((a, b) => b[1] - a[1])),
    tolerated: Object.fromEntries([...stats.tolerated].sort((a, b) => b[1] - a[1])),
  };
}

const f = (n: number, digits = 2) => n.toFixed(digits);

export function formatReport(r: Report): string {
  const lines: string[] = [];
  lines.push(`loadtest report: scenario ${r.scenario} against ${r.url}`);
  lines.push(
    `players ${r.players} in ${r.processes} process(es), ramp ${r.rampSeconds} s, run ${f(r.seconds, 1)} s, rate limits ${r.limits}`,
  );
  lines.push(
    `joins ${r.joins} ok, ${r.joinFailures} failed; connection drops ${r.drops}; reconnects ${r.reconnects} ok, ${r.reconnectFailures} failed`,
  );
  lines.push(`throughput ${f(r.throughput, 1)} answered requests/s`);
  lines.push("");
  const name = Math.max(12, ...Object.keys(r.latency).map((k) => k.length));
  lines.push(
    `${"latency (ms)".padEnd(name)} ${"count".padStart(8)} ${"/s".padStart(8)} ${"p50".padStart(8)} ${"p90".padStart(8)} ${"p99".padStart(8)} ${"p99.9".padStart(8)} ${"max".padStart(8)}`,
  );
  for (const [type, s] of Object.entries(r.latency)) {
    lines.push(
      `${type.padEnd(name)} ${String(s.count).padStart(8)} ${f(s.perSecond, 1).padStart(8)} ${f(s.p50).padStart(8)} ${f(s.p90).padStart(8)} ${f(s.p99).padStart(8)} ${f(s.p999).padStart(8)} ${f(s.max).padStart(8)}`,
    );
  }
  lines.push("");
  const errors = Object.entries(r.errors);
  lines.push(errors.length === 0 ? "errors: none" : "errors by code:");
  for (const [code, n] of errors) lines.push(`  ${String(n).padStart(8)}  ${code}`);
  const tolerated = Object.entries(r.tolerated);
  if (tolerated.length > 0) {
    lines.push("tolerated (not errors):");
    for (const [code, n] of tolerated) lines.push(`  ${String(n).padStart(8)}  ${code}`);
  }
  return lines.join("\n");
}

/** One live progress line. */
export function progressLine(
  elapsedSeconds: number,
  p: { started: number; inRoom: number; players: number; errors: number; reconnects: number },
  interval: Map<string, LatencySummary>,
  intervalSeconds: number,
): string {
  let requests = 0;
  for (const [type, s] of interval) if (!NOT_REQUESTS.has(type)) requests += s.count;
  const bet = interval.get("bet");
  const join = interval.get("join");
  const betText =
    (bet ? ` | bet p50 ${f(bet.p50, 1)} p99 ${f(bet.p99, 1)} ms` : "") +
    (join ? ` | joins ${f(join.count / intervalSeconds, 0)}/s p50 ${f(join.p50, 0)} ms` : "");
  return `[${f(elapsedSeconds, 0).padStart(4)} s] players ${p.started}/${p.players} started, ${p.inRoom} in rooms | ${f(requests / intervalSeconds, 0)} req/s${betText} | errors ${p.errors} | reconnects ${p.reconnects}`;
}
