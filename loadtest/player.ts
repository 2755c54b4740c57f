import { randomUUID } from "node:crypto";
import { WebSocket as NodeWebSocket } from "ws";
import { Client, type Room } from "@colyseus/sdk";
import { CLIENT_MESSAGES, ROOMS, type CasinoRoomState, type RoomErrorMessage } from "@casino/common";
import { TokenBucket, sleep } from "./limiter";
import type { Stats } from "./stats";

// Node 20 has no global WebSocket; the SDK's reconnection path reads it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

/** The answer to a room request: `result`/`spin` with its body, or `error` with a code. */
export type Answer = { ok: true; type: string; body: any } | { ok: false; code: string; message: string; body?: any };

/** What every player of one run shares: target, limits, stats and the stop signal. */
export interface PlayerContext {
  /** Server base URLs; player i uses URL i modulo their count (several processes without a proxy). */
  urls: string[];
  stats: Stats;
  /** Requests per second a player may send to the room (the server's BET_RATE_PER_SECOND). */
  betRate: number;
  ignoreLimits: boolean;
  /** REST budget of the whole run (the server allows 600 a minute per IP). */
  restPerIp: TokenBucket;
  /** How long to wait for an answer before counting a timeout. */
  timeoutMs: number;
  /** True once the run is ending: scenario loops stop at their next step. */
  readonly stopping: boolean;
  /** Waits `ms`, or less if the run ends meanwhile. */
  pause(ms: number): Promise<void>;
}

const SDK_CHATTER = /^\[Colyseus|^Room connection was closed unexpectedly/;

/** The SDK narrates reconnections on the console; the load tool reports them in figures instead. */
export function quietSdkLogs(): void {
  for (const level of ["info", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      if (typeof args[0] === "string" && SDK_CHATTER.test(args[0])) return;
      original(...args);
    };
  }
}

/**
 * One simulated player: a session (a new guest, or a token given to the tool), one casino room
 * connection, and helpers that send requests, wait for their answers and record latency and errors.
 * Scenarios drive it.
 */
export class VirtualPlayer {
  token = "";
  playerId = "";
  /** The activity instance the player is a member of (given with its token), null for a guest. */
  instanceId: string | null = null;
  client!: Client;
  room: Room | undefined;
  /** Balance as last told by the server. */
  balance = 0;
  private readonly pending = new Map<string, (answer: Answer) => void>();
  private readonly bets: TokenBucket;
  private readonly rest: TokenBucket;
  readonly url: string;

  constructor(
    readonly index: number,
    readonly ctx: PlayerContext,
  ) {
    this.url = ctx.urls[index % ctx.urls.length]!;
    this.bets = new TokenBucket(ctx.betRate * 0.95, Math.max(1, ctx.betRate), !ctx.ignoreLimits);
    // The server allows 300 REST requests a minute per player.
    this.rest = new TokenBucket(4.75, 5, !ctx.ignoreLimits);
  }

  get stopping(): boolean {
    return this.ctx.stopping;
  }

  /** Uses the given session token, or creates a guest through `POST /api/guest`. */
  async login(token?: string): Promise<boolean> {
    if (token) {
      // A line of `npm run loadtest:tokens -- --instance-size N` also names the player's activity instance.
      const [session, instanceId] = token.split(/\s+/);
      this.token = session!;
      this.instanceId = instanceId ?? null;
      this.playerId = subjectOf(this.token);
      return true;
    }
    const res = await this.http("POST", "/api/guest", {}, { auth: false, label: "POST /api/guest" });
    if (res.status !== 201) return false;
    this.token = res.body.session_token;
    this.playerId = res.body.player.id;
    this.balance = res.body.player.balance;
    return true;
  }

  /**
   * Joins a casino room and waits for its first state. A failure counts as a join failure (and an
   * error by code) unless `final` is false (a try that will be repeated), which counts it as tolerated.
   */
  async join(final = true): Promise<boolean> {
    const stats = this.ctx.stats;
    this.client = new Client(this.url.replace(/^http/, "ws"));
    this.client.auth.token = this.token;
    const t0 = performance.now();
    try {
      const joining = this.client.create(ROOMS.casino);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // A seat that arrives after the deadline is given back.
          joining.then((late) => late.leave(true)).catch(() => undefined);
          reject(Object.assign(new Error("timeout"), { name: "TimeoutError" }));
        }, this.ctx.timeoutMs);
      });
      const room = await Promise.race([joining, timeout]).finally(() => clearTimeout(timer));
      // Before the first state: the room tells the open round right after it.
      this.routeAnswers(room);
      await firstState(room, this.ctx.timeoutMs);
      stats.record("join", performance.now() - t0);
      stats.joins++;
      this.attach(room);
      return true;
    } catch (error) {
      if (final) {
        stats.joinFailures++;
        stats.error(`join: ${errorCode(error)}`);
      } else {
        stats.tolerate(`join (retried): ${errorCode(error)}`);
      }
      return false;
    }
  }

  private attach(room: Room): void {
    this.room = room;
    this.balance = (room.state as Partial<CasinoRoomState>).balance ?? this.balance;
    // The balance reaches every connection of the player in the room state.
    room.onStateChange((state: Partial<CasinoRoomState>) => {
      if (typeof state.balance === "number") this.balance = state.balance;
    });
    room.onDrop(() => this.ctx.stats.drops++);
    room.onLeave(() => {
      if (this.room === room) this.room = undefined;
    });
  }

  /**
   * Joins (or creates) another room type with the player's session, such as the shared crash room,
   * and waits until `arrived` says its first state is there; answers to `requestIn` on it are matched
   * as in the casino room.
   * Recorded as `join <name>`; a failure is an error by code, and null.
   */
  async joinRoom(name: string, options: Record<string, unknown>, arrived: (state: any) => boolean): Promise<Room | null> {
    const t0 = performance.now();
    try {
      const room = await this.client.joinOrCreate(name, options);
      // Before the first state: a room may send messages right after it (the casino room's open round).
      this.routeAnswers(room);
      await firstState(room, this.ctx.timeoutMs, arrived);
      this.ctx.stats.record(`join ${name}`, performance.now() - t0);
      return room;
    } catch (error) {
      this.ctx.stats.error(`join ${name}: ${errorCode(error)}`);
      return null;
    }
  }

  /** Resolves the pending request an answer of `room` names by its request id. */
  private routeAnswers(room: Room): void {
    room.onMessage("*", (type, body: any) => {
      const requestId = body?.requestId;
      if (typeof requestId !== "string") return;
      const resolve = this.pending.get(requestId);
      if (!resolve) return;
      if (type === "error") {
        const e = body as RoomErrorMessage;
        resolve({ ok: false, code: e.code, message: e.message, body });
      } else if (type === "result" || type === "spin") {
        if (typeof body.balance === "number") this.balance = body.balance;
        resolve({ ok: true, type: String(type), body });
      }
    });
  }

  /** Sends a casino-room request and waits for its answer; latency is recorded under `label` (the type by default). */
  request(type: string, body: Record<string, unknown>, label = type): Promise<Answer> {
    return this.requestIn(this.room, type, body, { label });
  }

  /**
   * Sends a request to `room` and waits for its answer. A refusal whose code is in `tolerate` is counted
   * apart (as tolerated), not as an error: a cash-out that came too late, say.
   */
  async requestIn(
    room: Room | undefined,
    type: string,
    body: Record<string, unknown>,
    options: { label?: string; tolerate?: string[] } = {},
  ): Promise<Answer> {
    const label = options.label ?? type;
    if (!room) return { ok: false, code: "not_joined", message: "not in a room" };
    if (type === CLIENT_MESSAGES.bet || type === CLIENT_MESSAGES.act) await this.bets.take();
    const requestId = `lt-${randomUUID()}`;
    const t0 = performance.now();
    const answer = await new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        resolve({ ok: false, code: "timeout", message: `no answer within ${this.ctx.timeoutMs} ms` });
      }, this.ctx.timeoutMs);
      this.pending.set(requestId, (a) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        resolve(a);
      });
      room.send(type, { ...body, requestId });
    });
    if (answer.ok) this.ctx.stats.record(label, performance.now() - t0);
    else if (options.tolerate?.includes(answer.code)) this.ctx.stats.tolerate(`${label}: ${answer.code}`);
    else this.ctx.stats.error(`${label}: ${answer.code}`);
    return answer;
  }

  /**
   * Bets `amount`, unless the player's last known balance cannot cover it: a person out of coins does
   * not press the button, so nothing is sent (counted apart as tolerated) and the player waits a second.
   */
  async bet(game: string, amount: number, params: unknown): Promise<Answer> {
    if (amount > this.balance) {
      this.ctx.stats.tolerate("bet: not sent, balance too low");
      await this.think(1000);
      return { ok: false, code: "balance_too_low", message: `balance ${this.balance} is below the bet of ${amount}` };
    }
    return this.request(CLIENT_MESSAGES.bet, { game, amount, params }, "bet");
  }

  act(action: unknown): Promise<Answer> {
    return this.request(CLIENT_MESSAGES.act, { action }, "act");
  }

  /**
   * A REST call with the player's session. Non-2xx answers are counted as `http_<status>` errors,
   * unless listed in `tolerate`. A 429 is waited out (per Retry-After) and retried unless limits are ignored.
   */
  async http(
    method: string,
    path: string,
    body?: unknown,
    options: { auth?: boolean; label?: string; tolerate?: number[] } = {},
  ): Promise<{ status: number; body: any }> {
    const label = options.label ?? `${method} ${path.split("?")[0]!.replace(/\/[0-9a-f-]{36}(?=\/|$)/gi, "/:id")}`;
    for (let attempt = 0; ; attempt++) {
      await this.ctx.restPerIp.take();
      if (options.auth !== false) await this.rest.take();
      const headers: Record<string, string> = {};
      if (options.auth !== false) headers.authorization = `Bearer ${this.token}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const t0 = performance.now();
      let status: number;
      let parsed: any;
      try {
        const res = await fetch(`${this.url}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.ctx.timeoutMs),
        });
        status = res.status;
        const text = await res.text();
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
        if (status === 429 && !this.ctx.ignoreLimits && attempt < 5 && !this.stopping) {
          this.ctx.stats.tolerate(`${label}: http_429 (waited and retried)`);
          await sleep(retryAfterMs(res.headers));
          continue;
        }
      } catch (error) {
        this.ctx.stats.error(`${label}: ${errorCode(error)}`);
        return { status: 0, body: undefined };
      }
      if (status >= 200 && status < 300) this.ctx.stats.record(label, performance.now() - t0);
      else if (options.tolerate?.includes(status)) this.ctx.stats.tolerate(`${label}: http_${status}`);
      else this.ctx.stats.error(`${label}: http_${status}`);
      return { status, body: parsed };
    }
  }

  /**
   * Cuts the connection as a network failure would (no close handshake) and waits for the SDK to
   * reconnect to the same seat; records the time to reconnect.
   */
  async dropAndReconnect(): Promise<boolean> {
    const room = this.room;
    if (!room) return false;
    room.reconnection.minUptime = 0;
    const t0 = performance.now();
    const outcome = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.ctx.timeoutMs * 3);
      room.onReconnect.once(() => (clearTimeout(timer), resolve(true)));
      room.onLeave.once(() => (clearTimeout(timer), resolve(false)));
    });
    const ws = (room.connection as unknown as { transport: { ws?: { terminate?: () => void; close: () => void } } }).transport.ws;
    if (ws?.terminate) ws.terminate();
    else ws?.close();
    const ok = await outcome;
    if (ok) {
      this.ctx.stats.reconnects++;
      this.ctx.stats.record("reconnect", performance.now() - t0);
    } else {
      this.ctx.stats.reconnectFailures++;
      this.ctx.stats.error("reconnect: failed");
      this.room = undefined;
    }
    return ok;
  }

  /** Waits `minMs`–`maxMs` (a player thinking), or less when the run ends. */
  think(minMs: number, maxMs = minMs): Promise<void> {
    return this.ctx.pause(minMs + Math.random() * (maxMs - minMs));
  }

  async leave(): Promise<void> {
    const room = this.room;
    this.room = undefined;
    if (!room) return;
    await Promise.race([room.leave(true).catch(() => undefined), sleep(2000)]);
  }
}

/** The player id inside a session token (its `sub`); reading it needs no secret. */
export function subjectOf(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload.sub === "string" ? payload.sub : "";
  } catch {
    return "";
  }
}

function retryAfterMs(headers: Headers): number {
  const seconds = Number(headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(60_000, seconds * 1000) : 1000;
}

export function errorCode(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError" || error.name === "AbortError") return "timeout";
    const code = (error as { code?: unknown }).code;
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof cause === "string") return cause;
    if (code !== undefined) return `${String(code)} ${error.message}`.trim().slice(0, 80);
    return error.message.slice(0, 80) || error.name;
  }
  return String(error).slice(0, 80);
}

/** Resolves once the room's first full state (it always carries the seed hash) has arrived. */
/** Waits until the room's state has arrived: by default a casino room's (its seed hash is set). */
function firstState(
  room: Room,
  timeoutMs: number,
  arrived: (state: any) => boolean = (state) => Boolean(state?.serverSeedHash),
): Promise<void> {
  const ready = () => arrived(room.state);
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no state arrived")), timeoutMs);
    const listener = () => {
      if (!ready()) return;
      clearTimeout(timer);
      room.onStateChange.remove(listener);
      resolve();
    };
    room.onStateChange(listener);
  });
}
