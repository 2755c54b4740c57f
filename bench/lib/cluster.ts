import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  port: number;
  url: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts one server process (`server/src/main.ts` under tsx) with `env` on `port`, and resolves once it
 * listens. Its output goes to `log` (prefixed), or is dropped.
 */
export function startServer(port: number, env: NodeJS.ProcessEnv, log?: (line: string) => void): Promise<ServerProcess> {
  // BENCH_SERVER_NODE_ARGS passes flags to the server's node, e.g. "--cpu-prof --cpu-prof-dir=prof" to profile it.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "server/src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let listening = false;
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line) continue;
        log?.(line);
        if (!listening && line.includes("casino listening")) {
          listening = true;
          resolve({
            port,
            url: `http://127.0.0.1:${port}`,
            pid: child.pid!,
            child,
            stop: async () => {
              if (child.exitCode === null) child.kill("SIGTERM");
              const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
              await exited;
              clearTimeout(killer);
            },
          });
        }
      }
    };
    child.stdout!.on("data", onLine);
    child.stderr!.on("data", onLine);
    child.once("exit", (code) => {
      if (!listening) reject(new Error(`server on port ${port} exited with code ${code} before listening`));
    });
  });
}

/** Starts `count` server processes on consecutive ports from `basePort`. */
export async function startCluster(
  count: number,
  basePort: number,
  env: NodeJS.ProcessEnv,
  log?: (port: number, line: string) => void,
): Promise<ServerProcess[]> {
  const started: ServerProcess[] = [];
  try {
    // One after the other: the first runs the migrations, the others find them done.
    for (let i = 0; i < count; i++) {
      const port = basePort + i;
      started.push(await startServer(port, env, log && ((line) => log(port, line))));
    }
    return started;
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}

/** `count` consecutive free ports on 127.0.0.1, from a random base between 20000 and 60000. */
export async function freePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (40_000 - count));
    let ok = true;
    for (let i = 0; i < count && ok; i++) ok = await portFree(base + i);
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
