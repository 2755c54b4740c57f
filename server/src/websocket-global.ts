import { WebSocket } from "ws";

/**
 * @colyseus/core 0.18 declares Node 22 and reads the global `WebSocket.OPEN` when a client reconnects
 * (Room#_onJoin). Node 20 has no global WebSocket, so without this every reconnection is refused with
 * "WebSocket is not defined" and the messages the client queued during the gap are lost. The `ws` class
 * has the same readyState constants as the standard one; a runtime that has its own keeps it.
 */
const scope = globalThis as { WebSocket?: unknown };
scope.WebSocket ??= WebSocket;
