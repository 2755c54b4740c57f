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
 *
 * 3. A longer wait for a shared room being created. Two players who ask for the same shared room at
 *    once (`joinOrCreate` with the same filter: one crash room, table or activity room per instance)
 *    meet in core's lock: the second waits for the first to announce the room it created, then joins
 *    it. Core gives up after 0.7 s and creates a room of its own, and a loaded machine takes longer
 *    than that to create one (its Redis listing, its presence keys): the instance then has two crash
 *    rooms, the second refused by the store (its scope is busy) and its players left waiting for a
 *    round that never comes. The wait is read once, when core is loaded; it ends as soon as the room is
 *    announced, so it costs nothing when creation is fast, and only a creation that fails makes the
 *    second player wait the whole of it before creating the room itself.
 */
const scope = globalThis as { WebSocket?: unknown } & Record<symbol, unknown>;
scope.WebSocket ??= WebSocket;

/** How long (seconds) a join waits for a shared room another join is creating, before creating its own. */
export const SHARED_ROOM_CREATE_WAIT_S = 5;
process.env.COLYSEUS_MAX_CONCURRENT_CREATE_ROOM_WAIT_TIME ??= String(SHARED_ROOM_CREATE_WAIT_S);

const PM2_IO = Symbol.for("@pm2/io");
scope[PM2_IO] ??= { metric: () => ({ set: () => undefined }) };
