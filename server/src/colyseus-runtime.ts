import { WebSocket } from "ws";

/**
 * Two things @colyseus/core 0.18 expects of the process, set before it is loaded (app.ts imports this
 * module first).
 *
 * 1. A global WebSocket. Core declares Node 22 and reads the global `WebSocket.OPEN` when a client
 *    reconnects (Room#_onJoin). Node 20 has none, so without this every reconnection is refused with
 *    "WebSocket is not defined" and the messages the client queued during the gap are lost. The `ws`
 *    class has the same readyState constants as the standard one; a runtime with its own keeps it.
 *
 * 2. No PM2 agent. Core loads @pm2/io (to publish room counts to PM2's dashboard), and loading it
 *    installs process-wide handlers that print every unhandled rejection with its full stack, which
 *    during a Redis outage means a stack every second from Colyseus's own bookkeeping. @pm2/io uses an
 *    instance already registered under this global key instead of starting its agent; ours only takes
 *    the metrics Colyseus declares and drops them (this server does not run under PM2).
 */
const scope = globalThis as { WebSocket?: unknown } & Record<symbol, unknown>;
scope.WebSocket ??= WebSocket;

const PM2_IO = Symbol.for("@pm2/io");
scope[PM2_IO] ??= { metric: () => ({ set: () => undefined }) };
