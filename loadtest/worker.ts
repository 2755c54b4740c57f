import { quietSdkLogs } from "./player";
import { LoadRun } from "./run";
import { loadScenario } from "./scenario";
import type { StatsJson } from "./stats";

/**
 * A load process: runs its share of the players and reports to the parent over IPC.
 * Parent → worker: `start` (options), `go` (when started gated), `reset` (the measured window starts
 * now: forget the warm-up), `stop`.
 * Worker → parent: `ready` (all its players joined), `progress` (every second), `done` (final stats).
 */
export interface WorkerOptions {
  url: string;
  players: number;
  rampSeconds: number;
  scenario: string;
  tokens?: string[];
  betRate: number;
  restPerMinute: number;
  ignoreLimits: boolean;
  timeoutMs: number;
  firstIndex: number;
  /** Wait for `go` after joining; the measured window (and the stats) start then. */
  gated: boolean;
  /** Tries of each player's first join (default 1). */
  joinAttempts?: number;
}

export type ToWorker = { type: "start"; options: WorkerOptions } | { type: "go" } | { type: "reset" } | { type: "stop" };
export type FromWorker =
  | { type: "ready"; joined: number; failed: number; tolerated: Record<string, number>; errors: Record<string, number> }
  | {
      type: "progress";
      started: number;
      inRoom: number;
      finished: number;
      interval: Record<string, string>;
      errors: number;
      reconnects: number;
      drops: number;
    }
  | { type: "done"; stats: StatsJson; seconds: number }
  | { type: "failed"; message: string };

const send = (message: FromWorker) => {
  if (process.connected) process.send?.(message);
};

quietSdkLogs();
// The parent decides when the run ends (it stops its load processes and writes the report).
process.on("SIGINT", () => undefined);
let run: LoadRun | undefined;
let releaseGate: () => void = () => undefined;
let measuredFrom = performance.now();
let progress: NodeJS.Timeout | undefined;

process.on("message", async (message: ToWorker) => {
  try {
    if (message.type === "start") {
      const o = message.options;
      const gate = o.gated ? new Promise<void>((resolve) => (releaseGate = resolve)) : undefined;
      run = new LoadRun({ ...o, scenario: await loadScenario(o.scenario), gate });
      measuredFrom = performance.now();
      progress = setInterval(() => {
        const r = run!;
        send({
          type: "progress",
          started: r.started,
          inRoom: r.inRoom,
          finished: r.finished,
          interval: r.stats.takeInterval(),
          errors: r.stats.errorCount,
          reconnects: r.stats.reconnects,
          drops: r.stats.drops,
        });
      }, 1000);
      progress.unref();
      await run.start();
      if (o.gated) {
        // Everyone has been started; wait until each has signed in and joined, or failed to.
        while (run.settled < o.players) await new Promise((r) => setTimeout(r, 20));
        send({
          type: "ready",
          joined: run.stats.joins,
          failed: run.stats.joinFailures,
          tolerated: Object.fromEntries(run.stats.tolerated),
          errors: Object.fromEntries(run.stats.errors),
        });
      }
    } else if (message.type === "go") {
      measuredFrom = performance.now();
      releaseGate();
    } else if (message.type === "reset") {
      run?.stats.reset();
      measuredFrom = performance.now();
    } else if (message.type === "stop") {
      if (!run) return;
      const seconds = (performance.now() - measuredFrom) / 1000;
      await run.stop();
      clearInterval(progress);
      send({ type: "done", stats: run.stats.toJSON(), seconds });
      process.disconnect?.();
      setTimeout(() => process.exit(0), 100).unref();
    }
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
