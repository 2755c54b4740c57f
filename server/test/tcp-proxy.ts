import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP relay in front of a real service (PostgreSQL, Redis) that a test can cut and restore, or freeze
 * and thaw, to show what a server process does while that service is unreachable or hangs. Cutting
 * closes every relayed connection and stops listening, so new connections are refused, like a stopped
 * service. Freezing keeps every connection open and accepts new ones but forwards nothing, in either
 * direction, like a service process that was stopped (SIGSTOP): what is sent meanwhile waits, in order,
 * and is delivered when it thaws (closes included), as the kernel would deliver it to the process.
 * Refusing is a cut that keeps the port open to count the attempts: each new connection is reset as
 * soon as it is accepted, so a test can wait until clients have retried instead of waiting a while.
 */
export interface TcpProxy {
  readonly port: number;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  /**
   * Drops every connection and resets each new one as soon as it is accepted, counting them in
   * `refused`. Resolves with the number of client connections it dropped.
   */
  refuse(): Promise<number>;
  /** Connections reset since the last `refuse()`. */
  readonly refused: number;
  /** Listens again on the same port (relaying). */
  restore(): Promise<void>;
  /** Forwards nothing from now on (connections stay open, new ones are accepted). */
  freeze(): void;
  /** How many chunks wait since the freeze, in either direction. */
  readonly held: number;
  /** Delivers what waited, in order, and forwards again. */
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const clients = new Set<Socket>();
  let refusing = false;
  let refused = 0;
  let frozen = false;
  /** What arrived while frozen, in arrival order: data to write, or the end of a direction. */
  let held: (() => void)[] = [];
  let heldData: Buffer[] = [];
  const deliver = (step: () => void) => (frozen ? held.push(step) : step());
  /** Relays `from` to `to`, holding everything while frozen. */
  const relay = (from: Socket, to: Socket) => {
    from.on("data", (chunk: Buffer) => {
      if (frozen) heldData.push(chunk);
      deliver(() => void (to.destroyed || to.write(chunk)));
    });
    from.on("end", () => deliver(() => void (to.destroyed || to.end())));
    from.on("error", () => deliver(() => to.destroy()));
    from.on("close", () => deliver(() => to.destroy()));
  };
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        if (refusing) {
          refused++;
          client.resetAndDestroy();
          return;
        }
        clients.add(client);
        client.once("close", () => clients.delete(client));
        const upstream = createConnection(target);
        track(client);
        track(upstream);
        relay(client, upstream);
        relay(upstream, client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server!.address() as AddressInfo).port));
    });
  const stop = async () => {
    const closing = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
    server = undefined;
    refusing = false;
    frozen = false;
    held = [];
    heldData = [];
    for (const socket of sockets) socket.destroy();
    await closing;
  };
  const port = await listen(0);
  return {
    port,
    cut: stop,
    async refuse() {
      const dropped = clients.size;
      await stop();
      refused = 0;
      refusing = true;
      await listen(port);
      return dropped;
    },
    get refused() {
      return refused;
    },
    restore: async () => {
      if (refusing) await stop();
      await listen(port);
    },
    freeze: () => void (frozen = true),
    get held() {
      return heldData.length;
    },
    thaw: () => {
      frozen = false;
      heldData = [];
      const steps = held;
      held = [];
      for (const step of steps) step();
    },
    close: stop,
  };
}
