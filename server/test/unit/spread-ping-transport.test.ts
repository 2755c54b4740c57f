import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { SpreadPingTransport } from "../../src/core/rooms/spread-ping-transport";

/** A stand-in for a connected socket: counts pings and terminations; `answers` decides whether it pongs. */
function fakeClient(answers: boolean) {
  const client = {
    readyState: WebSocket.OPEN as number,
    pingCount: 0,
    pings: 0,
    terminated: false,
    ping() {
      client.pings++;
      if (answers) client.pingCount = 0; // what the transport's pong handler does
    },
    terminate() {
      client.terminated = true;
      client.readyState = WebSocket.CLOSED;
    },
  };
  return client;
}

/** The transport with its pinging started by hand over `clients` (no server, no sockets). */
class Harness extends SpreadPingTransport {
  start(clients: ReturnType<typeof fakeClient>[], intervalMs: number, retries: number) {
    (this as unknown as { wss: { clients: Set<unknown> } }).wss = { clients: new Set(clients) };
    this.autoTerminateUnresponsiveClients(intervalMs, retries);
  }
  stopPinging() {
    clearInterval(this.pingInterval);
  }
}

afterEach(() => vi.useRealTimers());

describe("SpreadPingTransport", () => {
  it("pings every client once per interval, a slice at a time, and terminates only those that stopped answering", async () => {
    vi.useFakeTimers();
    const answering = Array.from({ length: 290 }, () => fakeClient(true));
    const silent = Array.from({ length: 10 }, () => fakeClient(false));
    const everyone = [...answering, ...silent];
    const transport = new Harness({ noServer: true });
    transport.start(everyone, 3000, 2);

    // After one slice (100 ms of 3 s) a thirtieth of the clients were pinged, not all of them.
    await vi.advanceTimersByTimeAsync(100);
    expect(everyone.filter((c) => c.pings > 0).length).toBe(10);
    // After a whole interval, each exactly once.
    await vi.advanceTimersByTimeAsync(2900);
    expect(everyone.map((c) => c.pings)).toEqual(everyone.map(() => 1));

    // Two unanswered pings: the silent ones are terminated on their third visit; the others never.
    await vi.advanceTimersByTimeAsync(6000);
    expect(silent.every((c) => c.terminated)).toBe(true);
    expect(answering.some((c) => c.terminated)).toBe(false);
    expect(answering.every((c) => c.pings === 3)).toBe(true);
    transport.stopPinging();
  });
});
