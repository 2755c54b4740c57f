import { connect, type Socket } from "node:net";
import { hostname } from "node:os";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { matchMaker, type Presence } from "@colyseus/core";

/**
 * Several processes behind one address: a shared room (an activity instance's crash room or table, a
 * public table) lives on the process that made it, but the WebSocket that follows a seat reservation
 * goes to whichever process the client reached. That process relays the connection, bytes as they are,
 * to the room's process, found by the process id Colyseus puts first in the WebSocket path
 * (`/<processId>/<roomId>`). Each process writes the address its peers reach it at into a presence hash
 * when it starts listening, and removes it when it stops.
 */
export const PROCESS_ADDRESSES = "casino:process-address";

/** Marks a relayed upgrade, so a process never relays it again (a room gone meanwhile just fails). */
const RELAYED_HEADER = "x-casino-relayed";

/** The address peers reach this process at: its listening host, or the machine's name when it listens on every interface. */
export function peerAddress(host: string, port: number): string {
  const wildcard = host === "0.0.0.0" || host === "::" || host === "";
  return `${wildcard ? hostname() : host}:${port}`;
}

/** Publishes this process's address to its peers; the returned function withdraws it. */
export async function announceProcess(presence: Presence, address: string): Promise<() => Promise<void>> {
  const processId = matchMaker.processId;
  await presence.hset(PROCESS_ADDRESSES, processId, address);
  return async () => {
    await presence.hdel(PROCESS_ADDRESSES, processId);
  };
}

/** The process and room an upgrade names (Colyseus's own rule: the last two path segments). */
function target(req: IncomingMessage): { processId: string; roomId: string } | null {
  const path = (req.url ?? "/").split("?")[0]!;
  const match = /\/([a-zA-Z0-9_-]+)\/([a-zA-Z0-9_-]+)$/.exec(path);
  return match ? { processId: match[1]!, roomId: match[2]! } : null;
}

export class RoomRelay {
  private readonly open = new Set<Duplex>();

  constructor(private readonly presence: Presence) {}

  /** Whether this upgrade is for a room of another process (and was not relayed here already). */
  claims(req: IncomingMessage): boolean {
    if (req.headers[RELAYED_HEADER]) return false;
    const to = target(req);
    return !!to && to.processId !== matchMaker.processId && !matchMaker.getLocalRoomById(to.roomId);
  }

  /**
   * Pipes the upgrade to the room's process. When no live process has that id (one that stopped: a
   * reconnection after a restart), the upgrade is handed to `here`, this process's own handling, which
   * answers as it always did (the room is not found).
   */
  async forward(req: IncomingMessage, socket: Duplex, head: Buffer, here: () => void): Promise<void> {
    const address = await this.presence.hget(PROCESS_ADDRESSES, target(req)!.processId).catch(() => null);
    if (socket.destroyed) return;
    socket.on("error", () => socket.destroy());
    if (!address) return here();
    this.open.add(socket);
    socket.once("close", () => this.open.delete(socket));
    const at = address.lastIndexOf(":");
    const upstream: Socket = connect({ host: address.slice(0, at), port: Number(address.slice(at + 1)) });
    let connected = false;
    upstream.on("error", () => {
      upstream.destroy();
      // A process killed without withdrawing its address refuses the connection: answered here instead.
      if (!connected && !socket.destroyed) {
        this.open.delete(socket);
        return here();
      }
      socket.destroy();
    });
    socket.once("close", () => upstream.destroy());
    upstream.once("close", () => connected && socket.destroy());
    upstream.once("connect", () => {
      connected = true;
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      lines.push(`${RELAYED_HEADER}: 1`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
  }

  /** Ends every relayed connection (the process is stopping). */
  close(): void {
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }
}
