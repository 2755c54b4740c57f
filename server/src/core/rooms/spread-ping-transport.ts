import type { IncomingMessage, Server as HttpServer } from "node:http";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { WebSocket } from "ws";
import type { RoomRelay } from "../events/room-relay";

/** How often a slice of the clients is pinged. */
const SLICE_MS = 100;

const noop = () => undefined;

/**
 * Colyseus's WebSocket transport with its keep-alive pings spread out. The stock transport pings every
 * client in one loop every `pingInterval` (3 s): one socket write each, so with 10,000 players that
 * loop holds the event loop for about 200 ms, and every bet arriving meanwhile waits (it was the whole
 * of the bet p99 in the connected-players bench). This one pings the same clients at the same rate and
 * terminates those that missed `pingMaxRetries` pongs, as the stock one does, but a slice every 100 ms:
 * each client is visited once per interval, in the order they were connected at the interval's start.
 */
export class SpreadPingTransport extends WebSocketTransport {
  /** Relays the WebSockets of rooms on other processes (room-relay.ts); set once the presence is known. */
  relay: RoomRelay | undefined;

  // Called from the base constructor: the relay is read when an upgrade arrives, not here.
  protected override listenForUpgrade(server: HttpServer, filter?: (req: IncomingMessage) => boolean): void {
    super.listenForUpgrade(server, (req) => !this.relay?.claims(req) && (!filter || filter(req)));
    server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
      if (!this.relay?.claims(req)) return;
      // Colyseus's own handling (this transport runs no beforeUpgrade hook).
      const here = () => this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req));
      void this.relay.forward(req, socket, head, here);
    });
  }

  override shutdown(): void {
    this.relay?.close();
    super.shutdown();
  }

  protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
    const slices = Math.max(1, Math.round(pingInterval / SLICE_MS));
    let slice = 0;
    let round: (WebSocket & { pingCount: number })[] = [];
    this.pingInterval = setInterval(() => {
      if (slice === 0) round = [...this.wss.clients] as typeof round;
      const from = Math.floor((round.length * slice) / slices);
      const to = Math.floor((round.length * (slice + 1)) / slices);
      for (let i = from; i < to; i++) {
        const client = round[i]!;
        if (client.readyState !== WebSocket.OPEN) continue;
        if (client.pingCount >= pingMaxRetries) {
          client.terminate();
          continue;
        }
        client.pingCount++;
        client.ping(noop);
      }
      slice = (slice + 1) % slices;
    }, pingInterval / slices);
  }
}
