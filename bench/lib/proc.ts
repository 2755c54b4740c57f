import { readFileSync } from "node:fs";
import { cpus } from "node:os";

/** Clock ticks a second of /proc/<pid>/stat on Linux. */
const TICKS = 100;

/** CPU seconds (user + system) a process has used so far; 0 when it is gone or this is not Linux. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds the whole machine has been busy (all cores, everything but idle and iowait). */
export function machineBusySeconds(): number {
  try {
    const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / TICKS;
  } catch {
    return 0;
  }
}

/** Resident memory of a process in bytes. */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Resident bytes of a process's WebAssembly memories (embedded PGlite's is the only one in the server):
 * V8 reserves each as one region of several GiB, its accessible part (read-write) followed at once by an
 * inaccessible guard; that accessible part's resident pages are counted. 0 when none or not Linux.
 */
export function wasmMemoryRssBytes(pid: number): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return 0;
  }
  const maps: { start: bigint; end: bigint; perms: string; anonymous: boolean; rssKb: number }[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(\S*)/.exec(line);
    if (head)
      maps.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3]!,
        anonymous: head[4] === "0" && !head[5],
        rssKb: 0,
      });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1]!.rssKb = Number(rss[1]);
  }
  const FOUR_GIB = 4n * 1024n * 1024n * 1024n;
  let kb = 0;
  maps.forEach((m, i) => {
    const guard = maps[i + 1];
    if (
      m.perms.startsWith("rw") &&
      m.anonymous &&
      guard &&
      guard.start === m.end &&
      guard.perms.startsWith("---") &&
      guard.end - m.start >= FOUR_GIB
    )
      kb += m.rssKb;
  });
  return kb * 1024;
}

/**
 * CPU used by groups of processes between `start()` and `stop()`, as cores busy on average
 * (1.0 = one core fully used). Groups given as functions are re-listed at each end.
 */
export class CpuMeter {
  private readonly before = new Map<string, Map<number, number>>();
  private startedAt = 0;
  private machineBefore = 0;

  constructor(private readonly groups: Record<string, number[] | (() => number[])>) {}

  private sample(): Map<string, Map<number, number>> {
    const out = new Map<string, Map<number, number>>();
    for (const [group, pids] of Object.entries(this.groups)) {
      const list = typeof pids === "function" ? pids() : pids;
      out.set(group, new Map(list.map((pid) => [pid, cpuSeconds(pid)])));
    }
    return out;
  }

  start(): void {
    this.startedAt = performance.now();
    this.machineBefore = machineBusySeconds();
    for (const [g, m] of this.sample()) this.before.set(g, m);
  }

  /** Cores used by each group over the window, and by the whole machine (`machine`). */
  stop(): Record<string, number> {
    const seconds = (performance.now() - this.startedAt) / 1000;
    const out: Record<string, number> = { machine: (machineBusySeconds() - this.machineBefore) / seconds };
    for (const [group, after] of this.sample()) {
      const before = this.before.get(group) ?? new Map();
      let used = 0;
      // A process gone by the end (cpu 0) is left out rather than counted negative.
      for (const [pid, cpu] of after) if (cpu > 0) used += cpu - (before.get(pid) ?? 0);
      out[group] = used / seconds;
    }
    return out;
  }
}

export const machine = () => `${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}`;
