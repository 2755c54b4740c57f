import "reflect-metadata";
import { WebSocket } from "ws";
import { ConfigError, loadConfig } from "./config";
import { createApp } from "./app";

/** Boot: configuration → database (migrated) → redis → REST + rooms on one port → listen. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  const port = await app.listen();
  const db = config.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${config.dataDir}`;
  const redis = config.redisUrl ? "Redis" : "in-memory Redis stand-in";
  console.log(`casino listening on http://localhost:${port} (${db}, ${redis})`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

// Colyseus 0.18 checks a reconnecting client against the global WebSocket, which Node 20 lacks: without
// it every reconnection to a dropped seat is refused.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
process.on("unhandledRejection", (reason) => console.error("unhandled rejection", reason));
await main();
