import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildOptions } from "rolldown";

/**
 * The real server in a separate OS process, for what an in-process test cannot show: several
 * processes on one PostgreSQL and Redis, reconnection on the Node version the server runs on (nothing
 * the test process sets up leaks into the server), signals, and outages.
 *
 * It runs `server/src/main.ts` through tsx, like `npx tsx server/src/main.ts`, but as `node --import tsx`
 * so the process started is the server itself: SIGTERM and SIGKILL reach it directly, with no wrapper
 * process in between that could relay them differently or outlive it. With `entry` it runs a production
 * build instead (`buildServer()`), as `npm start` and the container image do.
 *
 *   const server = await startServerProcess({ env: { DATABASE_URL, REDIS_URL } });
 *   await fetch(`${server.baseUrl}/api/health`);
 *   const exit = await server.stop("SIGTERM"); // { code: 0, signal: null }
 */
export interface ServerProcessOptions {
  /**
   * The server's environment, over the defaults below. Nothing is inherited from the test process except
   * PATH, HOME, LANG and TMPDIR, so a test's DATABASE_URL or REDIS_URL never leaks in by accident.
   * Defaults: HOST=127.0.0.1, PORT=0 (a free port, read back from the start-up line), DATA_DIR=memory://,
   * SESSION_SECRET=TEST_SESSION_SECRET, CLIENT_DIST pointing nowhere. A value of `undefined` removes a default.
   */
  env?: Record<string, string | undefined>;
  /** How long to wait for the start-up line and a 200 from `GET /api/health` (default 60 s). */
  startTimeoutMs?: number;
  /** Prefix of the output lines echoed to the test's stderr when CASINO_TEST_ECHO=1 (default "server"). */
  name?: string;
  /** The `main.js` of a production build (`buildServer()`) to run instead of the sources. */
  entry?: string;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** `ws://127.0.0.1:<port>`, for `new Client(wsUrl)` of @colyseus/sdk */
  readonly wsUrl: string;
  /** Every line the process wrote to stdout or stderr so far, in arrival order. */
  readonly lines: readonly string[];
  /** Settles when the process exits, with its exit code or the signal that ended it. */
  readonly exited: Promise<ServerExit>;
  /** The first output line, past or future, matching `pattern`; rejects after `timeoutMs` (default 10 s) or if the process exits first. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends a signal and returns at once. */
  kill(signal?: NodeJS.Signals): void;
  /**
   * Sends SIGTERM (default) or SIGKILL and waits for the exit. A process still running after
   * `timeoutMs` (default 30 s) is killed with SIGKILL. Stopping a process that already exited just
   * returns how it exited.
   */
  stop(signal?: "SIGTERM" | "SIGKILL", timeoutMs?: number): Promise<ServerExit>;
}

/** The session secret the processes use unless a test sets its own. */
export const TEST_SESSION_SECRET = "test-secret-test-secret-test-secret-0123456789";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INHERITED = ["PATH", "HOME", "LANG", "TMPDIR"];
const running = new Set<ChildProcess>();

// A test that fails half-way must not leave servers behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  const wanted: Record<string, string | undefined> = {
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: "memory://",
    SESSION_SECRET: TEST_SESSION_SECRET,
    CLIENT_DIST: "client/dist-none",
    ...options.env,
  };
  for (const [name, value] of Object.entries(wanted)) if (value !== undefined) env[name] = value;

  const args = options.entry ? ["--enable-source-maps", options.entry] : ["--import", "tsx", "server/src/main.ts"];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const name = options.name ?? "server";
  const lines: string[] = [];
  const watchers = new Set<() => void>();
  const exited = new Promise<ServerExit>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
      for (const notify of watchers) notify();
    });
  });
  let exitedYet = false;
  void exited.then(() => (exitedYet = true));

  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (process.env.CASINO_TEST_ECHO === "1") process.stderr.write(`[${name}] ${line}\n`);
      }
      for (const notify of watchers) notify();
    });
  }

  const waitForLine = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((line) => pattern.test(line));
        if (found !== undefined) return done(() => resolve(found));
        if (exitedYet) return done(() => reject(new Error(`${name} exited before printing ${pattern}:\n${lines.join("\n")}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`${name} printed no line matching ${pattern} in ${timeoutMs} ms:\n${lines.join("\n")}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        watchers.delete(check);
        settle();
      };
      watchers.add(check);
      check();
    });

  const stop = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM", timeoutMs = 30_000): Promise<ServerExit> => {
    if (!exitedYet) child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };

  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + startTimeoutMs;
  try {
    const listening = await waitForLine(/listening on http:\/\/[^\s]+:\d+/, startTimeoutMs);
    const port = Number(/listening on http:\/\/[^\s]+:(\d+)/.exec(listening)![1]);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealth(baseUrl, deadline, () => exitedYet);
    return {
      pid: child.pid!,
      port,
      baseUrl,
      wsUrl: `ws://127.0.0.1:${port}`,
      lines,
      exited,
      waitForLine,
      kill: (signal: NodeJS.Signals = "SIGTERM") => void child.kill(signal),
      stop,
    };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  }
}

/**
 * Builds the production server with the configuration of `npm run build:server`, into a folder of its
 * own under test-artifacts/ (inside the repository, so its package imports resolve from node_modules).
 */
export async function buildServer(): Promise<{ entry: string; remove: () => Promise<void> }> {
  const { build } = await import("rolldown");
  const config = (await import("../rolldown.config")).default as BuildOptions;
  const dir = join(REPO_ROOT, "test-artifacts", `server-build-${process.pid}-${randomBytes(4).toString("hex")}`);
  await build({ ...config, logLevel: "silent", output: { ...config.output, dir } });
  return { entry: join(dir, "main.js"), remove: () => rm(dir, { recursive: true, force: true }) };
}

async function waitForHealth(baseUrl: string, deadline: number, exited: () => boolean): Promise<void> {
  let last = "no answer";
  while (Date.now() < deadline && !exited()) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${baseUrl} never became healthy (last: ${last})`);
}
