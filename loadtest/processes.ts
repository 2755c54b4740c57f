import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { FromWorker, ToWorker, WorkerOptions } from "./worker";
import { Stats } from "./stats";

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));

/** One load process as the parent sees it. */
export class LoadProcess {
  readonly child: ChildProcess;
  last: Extract<FromWorker, { type: "progress" }> | undefined;
  private intervals: Record<string, string>[] = [];
  private readonly ready: Promise<Extract<FromWorker, { type: "ready" }>>;
  private readonly done: Promise<Extract<FromWorker, { type: "done" }>>;

  constructor(
    readonly options: WorkerOptions,
    /** The load process's environment (default: this one's). */
    env?: NodeJS.ProcessEnv,
  ) {
    this.child = fork(WORKER, [], { execArgv: ["--import", "tsx"], env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let onReady!: (m: Extract<FromWorker, { type: "ready" }>) => void;
    let onDone!: (m: Extract<FromWorker, { type: "done" }>) => void;
    let readyFailed!: (e: Error) => void;
    let doneFailed!: (e: Error) => void;
    const onFail = (e: Error) => (readyFailed(e), doneFailed(e));
    this.ready = new Promise((resolve, reject) => ((onReady = resolve), (readyFailed = reject)));
    this.done = new Promise((resolve, reject) => ((onDone = resolve), (doneFailed = reject)));
    this.ready.catch(() => undefined);
    this.done.catch(() => undefined);
    this.child.on("message", (m: FromWorker) => {
      if (m.type === "progress") {
        this.last = m;
        this.intervals.push(m.interval);
      } else if (m.type === "ready") onReady(m);
      else if (m.type === "done") onDone(m);
      else if (m.type === "failed") onFail(new Error(`load process failed: ${m.message}`));
    });
    this.child.on("exit", (code) => onFail(new Error(`load process exited with code ${code}`)));
    this.post({ type: "start", options });
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  post(message: ToWorker): void {
    if (this.child.connected) this.child.send(message);
  }

  whenReady() {
    return this.ready;
  }

  /** Interval histograms received since the last call. */
  drainIntervals(): Record<string, string>[] {
    const out = this.intervals;
    this.intervals = [];
    return out;
  }

  async stop(): Promise<Extract<FromWorker, { type: "done" }>> {
    this.post({ type: "stop" });
    return this.done;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}

/** Splits `players` (and the REST budget) over `processes` load processes; player i uses token i. */
export function startLoadProcesses(options: Omit<WorkerOptions, "firstIndex">, processes: number, env?: NodeJS.ProcessEnv): LoadProcess[] {
  const out: LoadProcess[] = [];
  let first = 0;
  for (let i = 0; i < processes; i++) {
    const players = Math.floor(options.players / processes) + (i < options.players % processes ? 1 : 0);
    if (players === 0) continue;
    out.push(
      new LoadProcess(
        {
          ...options,
          players,
          firstIndex: first,
          restPerMinute: options.restPerMinute / processes,
        },
        env,
      ),
    );
    first += players;
  }
  return out;
}

/** Stops every process and merges what they measured. */
export async function collect(processes: LoadProcess[]): Promise<{ stats: Stats; seconds: number }> {
  const results = await Promise.all(processes.map((p) => p.stop()));
  const stats = new Stats();
  for (const r of results) stats.merge(r.stats);
  return { stats, seconds: Math.max(...results.map((r) => r.seconds)) };
}
