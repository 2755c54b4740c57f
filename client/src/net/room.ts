import { Client, type Room } from "@colyseus/sdk";
import { ACCOUNT_CLOSED_CLOSE_CODE } from "@casino/common/account";
import type { ActiveSeedView } from "@casino/common/protocol";
import { CASINO_PUSH, ROOMS, type CasinoRoomState, type OpenRoundMessage, type OpenRoundView } from "@casino/common/rooms";
import { browserClientSeed } from "./client-seed";
import { newRequestId } from "./request-id";
import { RoomFailure, type ConnectionStatus } from "./room-failure";

/** Server → client messages answering a request (result, spin) or refusing it (error). */
const ANSWERS = new Set(["result", "spin"]);

/** What a room connection tells its owner besides answers: its status, its state, pushed messages. */
export interface ConnectionListener<S> {
  status(status: ConnectionStatus): void;
  state(state: S): void;
  /** Every pushed message that is not an answer to a request (balance, notice, seeds, leaderboard, ...). */
  push(type: string, body: unknown): void;
  /** The server ended the connection because the account was suspended or erased: the reason, in its words. */
  accountClosed?(reason: string): void;
}

/**
 * The casino room as its connection passes it on: the state (`CasinoRoomState` in common/rooms.ts)
 * and the open round the room last told of (`CASINO_PUSH.openRound`).
 */
export interface CasinoState {
  balance: number;
  /** undefined until the room has told of it on this connection (its state comes first) */
  openRound: OpenRoundView | null | undefined;
  /** the player's seeds as the room state mirrors them */
  seeds: ActiveSeedView | null;
}

export type RoomListener = ConnectionListener<CasinoState>;

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
 * A room connection with requests. Requests carry a request id made once per call; a request still
 * unanswered when the connection comes back (or a new room is joined) is sent again with the same id,
 * which the server answers from its stored answer, so nothing is ever placed twice. Subclasses say which
 * room to join and what of its state to pass on.
 */
export abstract class RoomConnection<S> {
  private readonly client: Client;
  private room: Room | null = null;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  /** The room's state as last synchronised (null before the first). */
  private synced: unknown = null;

  constructor(
    token: string,
    protected readonly listener: ConnectionListener<S>,
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
    await this.joinRetrying();
  }

  /**
   * The joins of `start`, also those after a lost seat: the status stays "reconnecting" then, since a
   * connection that was up dropped ("connecting" is only the first connect, which says nothing of a loss).
   */
  private async joinRetrying(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        const room = await this.join(this.client);
        if (this.closed) {
          void room.leave();
          return;
        }
        this.attach(room);
        return;
      } catch (error) {
        if (attempt >= REJOIN_DELAYS_MS.length) {
          console.warn("room unreachable", error);
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

  /** A message that expects no answer; dropped while not connected (the owner sends it again on "open"). */
  send(type: string, body: Record<string, unknown>): void {
    this.room?.send(type, body);
  }

  close(): void {
    this.closed = true;
    this.failPending(new RoomFailure("disconnected", "Connection closed"));
    void this.room?.leave(true);
    this.room = null;
  }

  /** Finds or creates this connection's room. */
  protected abstract join(client: Client): Promise<Room>;
  /** What of the room's synchronised state the listener gets. */
  protected abstract read(state: unknown): S;
  /** A pushed message that is part of what the listener gets as state: true when taken (it is not passed on). */
  protected takes(_type: string, _body: unknown): boolean {
    return false;
  }

  /** Gives the listener the state again, after something `read` depends on changed. */
  protected restate(): void {
    if (this.synced !== null) this.listener.state(this.read(this.synced));
  }

  private attach(room: Room): void {
    this.room = room;
    room.onStateChange((state: unknown) => {
      this.synced = state;
      this.listener.state(this.read(state));
    });
    room.onMessage("*", (type, body) => this.onMessage(String(type), body));
    room.onDrop(() => this.listener.status("reconnecting"));
    room.onReconnect(() => {
      this.listener.status("open");
      this.resendPending();
    });
    room.onLeave((code, reason) => {
      if (this.room !== room) return;
      this.room = null;
      if (this.closed) return;
      if (code === ACCOUNT_CLOSED_CLOSE_CODE) {
        // Joining again would be refused for the same reason: stop here and say why.
        this.closed = true;
        const message = reason || "This account can no longer play";
        this.failPending(new RoomFailure("account_closed", message));
        this.listener.status("closed");
        this.listener.accountClosed?.(message);
        return;
      }
      // The seat is gone (server restart, reconnection window passed): join a new room and resend.
      this.listener.status("reconnecting");
      void this.joinRetrying();
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
    // A repeated answer to a request already settled is dropped; an error that answers no request (the
    // together room's refusals of a watch or a reaction) is a push like any other.
    if (ANSWERS.has(type) || (type === "error" && typeof requestId === "string")) return;
    if (this.takes(type, body)) return;
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

/** The player's own casino room (bets of every single-player game, balance, fairness, daily spin). */
export class CasinoConnection extends RoomConnection<CasinoState> {
  private openRound: OpenRoundView | null | undefined = undefined;

  protected join(client: Client): Promise<Room> {
    // The browser's own client seed (`casinoJoinOptions`): the default seed of a pair never used.
    return client.create(ROOMS.casino, { clientSeed: browserClientSeed() });
  }

  protected read(state: unknown): CasinoState {
    const s = state as Partial<CasinoRoomState>;
    const seeds = s.serverSeedHash
      ? {
          serverSeedHash: s.serverSeedHash,
          clientSeed: s.clientSeed ?? "",
          nonce: Number(s.nonce ?? 0),
          nextServerSeedHash: s.nextServerSeedHash ?? "",
        }
      : null;
    return { balance: Number(s.balance ?? 0), openRound: this.openRound, seeds };
  }

  protected override takes(type: string, body: unknown): boolean {
    if (type !== CASINO_PUSH.openRound) return false;
    this.openRound = (body as OpenRoundMessage).round;
    this.restate();
    return true;
  }
}
