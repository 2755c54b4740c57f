import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * A real PgBouncer (the `pgbouncer` package's binary, not its service) in transaction pooling mode in
 * front of one test database, on a free port of its own, with a configuration written for it:
 *
 *   const pooler = await startPgBouncer(database.url, { poolSize: 4 });
 *   // pooler.url: the same database and user, through PgBouncer
 *   await pooler.stop();
 *
 * A machine without PgBouncer fails the test that asks for one, naming the package to install.
 */
export interface PgBouncer {
  /** The target database through PgBouncer. */
  readonly url: string;
  /** PgBouncer's console (`SHOW POOLS`, `SHOW SERVERS`, …: simple queries only). */
  readonly consoleUrl: string;
  /** Every line PgBouncer logged so far. */
  readonly lines: readonly string[];
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** The binary: on PATH, or where Debian's package puts it (/usr/sbin, not on every user's PATH). */
function pgbouncerBinary(): string {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/local/sbin"].filter(Boolean);
  const found = dirs.map((dir) => join(dir, "pgbouncer")).find((file) => existsSync(file));
  if (!found) {
    throw new Error(
      "PgBouncer is not installed (no pgbouncer on PATH or in /usr/sbin): install the pgbouncer package " +
        "(apt-get install pgbouncer; .ci/run does), the tests start their own instance",
    );
  }
  return found;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPgBouncer(targetUrl: string, options: { poolSize: number }): Promise<PgBouncer> {
  const binary = pgbouncerBinary();
  const target = new URL(targetUrl);
  const database = decodeURIComponent(target.pathname.slice(1));
  const user = decodeURIComponent(target.username) || "postgres";
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "pgbouncer-"));
  const server = [
    `host=${target.hostname}`,
    `port=${target.port || 5432}`,
    `dbname=${database}`,
    `user=${user}`,
    ...(target.password ? [`password=${decodeURIComponent(target.password)}`] : []),
  ].join(" ");
  const config = [
    "[databases]",
    `${database} = ${server}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    // The test database trusts its local clients; PgBouncer checks the user name against its list.
    "auth_type = trust",
    `auth_file = ${join(dir, "users.txt")}`,
    `admin_users = ${user}`,
    "pool_mode = transaction",
    `default_pool_size = ${options.poolSize}`,
    `max_db_connections = ${options.poolSize}`,
    "max_client_conn = 500",
    "log_connections = 0",
    "log_disconnections = 0",
  ].join("\n");
  await writeFile(join(dir, "pgbouncer.ini"), `${config}\n`);
  await writeFile(join(dir, "users.txt"), `"${user}" ""\n`);
  // PgBouncer refuses to run as root: there it switches to an unprivileged user, who must read the files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await Promise.all([chmod(dir, 0o755), chmod(join(dir, "pgbouncer.ini"), 0o644), chmod(join(dir, "users.txt"), 0o644)]);

  const child = spawn(binary, [...(asRoot ? ["-u", "nobody"] : []), join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));
  const up = new Promise<void>((resolve, reject) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        lines.push(...chunk.split("\n").filter(Boolean));
        if (lines.some((line) => /process up/.test(line))) resolve();
      });
    }
    child.once("error", reject);
    void exited.then(() => reject(new Error(`pgbouncer exited before it was up:\n${lines.join("\n")}`)));
  });

  const stop = async () => {
    if (running.has(child)) child.kill("SIGTERM"); // immediate shutdown (SIGINT would wait for the clients)
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await up;
  } catch (error) {
    await stop();
    throw error;
  }
  const through = (name: string) => {
    const url = new URL(targetUrl);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return { url: through(database), consoleUrl: through("pgbouncer"), lines, stop };
}
