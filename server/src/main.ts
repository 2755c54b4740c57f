import "reflect-metadata";
import { ConfigError, bootLogSettings, loadConfig } from "./platform/config";
import { createApp } from "./app";
import { Log } from "./platform/log";

let log = new Log(bootLogSettings());

/**
 * Boot: configuration → database (migrated) → redis → REST + rooms on one port → listen.
 * SIGTERM or SIGINT: stop taking work, let what is in flight finish (up to SHUTDOWN_TIMEOUT_MS), exit 0;
 * exit 1 if work was still running when the time ran out.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      log.error("config", error.message);
      log.flush();
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  log = app.services.log;
  const port = await app.listen();
  const db = config.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${config.dataDir}`;
  const redis = config.redisUrl ? "Redis" : "in-memory Redis stand-in";
  log.info(`casino listening on http://localhost:${port} (${db}, ${redis})`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const pending = app.services.lifecycle.pending;
    log.info(`${signal}: draining, ${pending} request(s) in flight; waiting up to ${config.shutdownTimeoutMs} ms`);
    // Closing rooms and connections after the drain is bounded too.
    setTimeout(() => {
      log.info("stopped: closing connections took too long");
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000).unref();
    const drained = await app.shutdown(config.shutdownTimeoutMs);
    if (drained) log.info("stopped: every request in flight finished");
    else log.info(`stopped: requests still running after ${config.shutdownTimeoutMs} ms were abandoned`);
    process.exit(drained ? 0 : 1);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

process.on("unhandledRejection", (reason) =>
  log.error(`unhandled:${String((reason as Error)?.message ?? reason)}`, "unhandled rejection", reason),
);
await main();
