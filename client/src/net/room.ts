import { Client, type Room } from "@colyseus/sdk";
import { browserClientSeed } from "./client-seed";
import { newRequestId } from "./request-id";
import { RoomFailure, type ConnectionStatus } from "./room-failure";

export { RoomFailure, type ConnectionStatus };

/** The room every player joins (`ROOMS.casino` in common/protocol.ts, which also holds zod: kept out of the entry). */
const CASINO_ROOM = "casino";
/** Server → client messages answering a request (result, spin) or refusing it (error). */
const ANSWERS = new Set(["result", "spin"]);

/** The player's seeds as the room state mirrors them (`ActiveSeedView` in common/protocol.ts). */
export interface SeedState {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  nextServerSeedHash: string;
}

export interface RoomListener {
  status(status: ConnectionStatus): void;
  state(state: { balance: number; openRound: string; seeds: SeedState | null }): void;
  /** Every pushed message that is not an answer to a request (balance, notice, seeds, leaderboard, ...). */
  push(type: string, body: unknown): void;
}

interface Pending {
  type: string;
  payload: Record<string, unknown>;
  resolve(answer: unknown): void;
  reject(error: RoomFailure): void;
}

/**
 * An absolute ws(s):// URL from the page's own origin: one origin serves client, REST and WebSocket,
 * so Discord's single root URL mapping covers all of them (relative WS URLs fail on old webviews).
 */
export const socketEndpoint = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;

const REJOIN_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];

/**
 * The player's casino room. Requests carry a request id made once per call; a request still
 * unanswered when the connection comes back (or a new room is joined) is sent again with the same id,
 * which the server answers from its stored answer, so nothing is ever placed twice.
 */
export class CasinoConnection {
  private readonly client: Client;
  private room: Room | null = null;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(
    token: string,
    private readonly listener: RoomListener,
    endpoint: string = socketEndpoint(),
  ) {
    // An explicit urlBuilder turns off the SDK's own rewrite on discordsays.com, which would prefix
    // "/.proxy/colyseus" (and double it for a relative endpoint); our one origin needs no prefix.
    this.client = new Client(endpoint, { urlBuilder: (url) => url.href });
    this.client.auth.token = token;
  }

  /** Joins, retrying with a growing delay; rejects unanswered requests when every attempt failed. */
  async start(): Promise<void> {
    this.listener.status("connecting");
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        // The browser's own client seed (`casinoJoinOptions`): the default seed of a pair never used.
        const room = await this.client.create(CASINO_ROOM, { clientSeed: browserClientSeed() });
        if (this.closed) {
          void room.leave();
          return;
        }
        this.attach(room);
        return;
      } catch (error) {
        if (attempt >= REJOIN_DELAYS_MS.length) {
          console.warn("casino room unreachable", error);
          this.listener.status("lost");
          this.failPending(new RoomFailure("disconnected", "Connection to the casino was lost"));
          return;
        }
        await new Promise((r) => setTimeout(r, REJOIN_DELAYS_MS[attempt]));
      }
    }
  }

  /** Sends a request and resolves with the server's answer to its request id. */
  request<T>(type: string, body: Record<string, unknown>): Promise<T> {
    if (this.closed) return Promise.reject(new RoomFailure("disconnected", "Connection to the casino was lost"));
    const requestId = newRequestId(type);
    return new Promise<T>((resolve, reject) => {
      const payload = { ...body, requestId };
      this.pending.set(requestId, { type, payload, resolve: resolve as (a: unknown) => void, reject });
      this.room?.send(type, payload);
    });
  }

  close(): void {
    this.closed = true;
    this.failPending(new RoomFailure("disconnected", "Connection closed"));
    void this.room?.leave(true);
    this.room = null;
  }

  private attach(room: Room): void {
    this.room = room;
    room.onStateChange((state: { balance?: number; openRound?: string } & Partial<SeedState>) => {
      const seeds = state.serverSeedHash
        ? {
            serverSeedHash: state.serverSeedHash,
            clientSeed: state.clientSeed ?? "",
            nonce: Number(state.nonce ?? 0),
            nextServerSeedHash: state.nextServerSeedHash ?? "",
          }
        : null;
      this.listener.state({ balance: Number(state.balance ?? 0), openRound: state.openRound ?? "", seeds });
    });
    room.onMessage("*", (type, body) => this.onMessage(String(type), body));
    room.onDrop(() => this.listener.status("reconnecting"));
    room.onReconnect(() => {
      this.listener.status("open");
      this.resendPending();
    });
    room.onLeave(() => {
      if (this.room !== room) return;
      this.room = null;
      if (this.closed) return;
      // The seat is gone (server restart, reconnection window passed): join a new room and resend.
      this.listener.status("reconnecting");
      void this.start();
    });
    this.listener.status("open");
    this.resendPending();
  }

  private onMessage(type: string, body: unknown): void {
    const requestId = (body as { requestId?: unknown } | null)?.requestId;
    const waiting = typeof requestId === "string" ? this.pending.get(requestId) : undefined;
    if (waiting && (ANSWERS.has(type) || type === "error")) {
      this.pending.delete(requestId as string);
      if (type === "error") {
        const e = body as { code?: string; message?: string; details?: Record<string, unknown> };
        waiting.reject(new RoomFailure(e.code ?? "error", e.message ?? "The request was refused", e.details));
      } else {
        waiting.resolve(body);
      }
      return;
    }
    if (ANSWERS.has(type) || type === "error") return; // a repeated answer to a request already settled
    this.listener.push(type, body);
  }

  private resendPending(): void {
    for (const p of this.pending.values()) this.room?.send(p.type, p.payload);
  }

  private failPending(error: RoomFailure): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
