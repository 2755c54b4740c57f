import { parseArgs } from "node:util";
import { startCluster, type ServerProcess } from "./lib/cluster";

/**
 * `npm run start:cluster -- --processes 2 [--port 2567]`: N server processes on consecutive ports,
 * sharing the PostgreSQL of DATABASE_URL and the Redis of REDIS_URL (both required for more than
 * one process: PGlite and the in-memory Redis stand-in belong to one process). Each line of output is
 * prefixed with its port. Ctrl-C stops them all. Put a reverse proxy in front (see docker-compose.yml
 * and deploy/nginx.conf), or give the load tool every URL: `--url http://127.0.0.1:2567,http://127.0.0.1:2568`.
 */
const { values } = parseArgs({
  options: { processes: { type: "string", default: "2" }, port: { type: "string", default: process.env.PORT ?? "2567" } },
});
const count = Number(values.processes);
const basePort = Number(values.port);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(basePort) || basePort < 1 || basePort + count > 65536) {
  console.error("usage: npm run start:cluster -- --processes N [--port FIRST_PORT]");
  process.exit(2);
}
if (count > 1 && (!process.env.DATABASE_URL || !process.env.REDIS_URL)) {
  console.error("Several processes must share one PostgreSQL and one Redis: set DATABASE_URL and REDIS_URL.");
  process.exit(2);
}

let servers: ServerProcess[] = [];
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await Promise.all(servers.map((s) => s.stop()));
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

servers = await startCluster(count, basePort, {}, (port, line) => console.log(`[${port}] ${line}`));
console.log(`${count} process(es) listening: ${servers.map((s) => s.url).join(", ")}`);
for (const s of servers) {
  s.child.once("exit", (code) => {
    if (stopping) return;
    console.error(`[${s.port}] exited with code ${code}; stopping the others`);
    void stop();
  });
}
