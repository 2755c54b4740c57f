/**
 * A stand-in for `@colyseus/sdk` at the network edge: `Client` joins a `FakeRoom` the test then drives
 * as the server would (state patches, messages, a dropped socket, a lost seat). Everything above it,
 * the connection classes, the stores and the hooks, is the real code. Used with
 * `vi.mock("@colyseus/sdk", () => import("./fake-colyseus"))`.
 */
type Handler = (...args: any[]) => void;

export interface Sent {
  type: string;
  body: any;
}

export class FakeRoom {
  readonly sent: Sent[] = [];
  /** Set when the client left the room (true: on purpose). */
  leftConsented: boolean | null = null;
  private readonly handlers = new Map<string, Handler[]>();

  constructor(
    readonly name: string,
    readonly options: Record<string, unknown>,
    readonly token: string | undefined,
  ) {}

  private on(event: string, handler: Handler): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
  }
  private emit(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }

  // The SDK's room, as the client code uses it.
  send(type: string, body: unknown): void {
    this.sent.push({ type, body });
  }
  onStateChange(handler: Handler): void {
    this.on("state", handler);
  }
  onMessage(type: string, handler: Handler): void {
    this.on(`message:${type}`, handler);
  }
  onDrop(handler: Handler): void {
    this.on("drop", handler);
  }
  onReconnect(handler: Handler): void {
    this.on("reconnect", handler);
  }
  onLeave(handler: Handler): void {
    this.on("leave", handler);
  }
  async leave(consented = true): Promise<number> {
    this.leftConsented = consented;
    // the socket closes after the call returns, as with a real one
    await Promise.resolve();
    this.emit("leave", consented ? 4000 : 1000, "");
    return 4000;
  }

  // The server's side.
  patch(state: unknown): void {
    this.emit("state", state);
  }
  message(type: string, body: unknown): void {
    this.emit(`message:${type}`, body);
    this.emit("message:*", type, body);
  }
  drop(): void {
    this.emit("drop", 1006, "");
  }
  reconnect(): void {
    this.emit("reconnect");
  }
  /** The seat is gone: the server closed the connection with `code`. */
  kick(code: number, reason = ""): void {
    this.emit("leave", code, reason);
  }
  /** The messages of one type the client sent. */
  sentOf(type: string): any[] {
    return this.sent.filter((s) => s.type === type).map((s) => s.body);
  }
}

export interface Join {
  method: "create" | "joinOrCreate";
  name: string;
  options: Record<string, unknown>;
  token: string | undefined;
  endpoint: string;
}

/** What the fake server saw and how it answers the next joins. */
export const fakeServer = {
  joins: [] as Join[],
  rooms: [] as FakeRoom[],
  /** How many of the next join attempts fail as an unreachable server would. */
  refuse: 0,
  /** While true, joins wait unanswered (a server that does not reply) until `answerHeld`. */
  hold: false,
  held: [] as (() => void)[],
  reset(): void {
    this.joins = [];
    this.rooms = [];
    this.refuse = 0;
    this.hold = false;
    this.held = [];
  },
  /** Lets the joins held so far go on. */
  answerHeld(): void {
    this.hold = false;
    for (const go of this.held.splice(0)) go();
  },
  /** The last room joined. */
  get room(): FakeRoom {
    const room = this.rooms.at(-1);
    if (!room) throw new Error("no room joined");
    return room;
  },
};

export class Client {
  readonly auth: { token: string | undefined } = { token: undefined };

  constructor(
    readonly endpoint: string,
    readonly options?: unknown,
  ) {}

  create(name: string, options: Record<string, unknown> = {}): Promise<FakeRoom> {
    return this.join("create", name, options);
  }

  joinOrCreate(name: string, options: Record<string, unknown> = {}): Promise<FakeRoom> {
    return this.join("joinOrCreate", name, options);
  }

  private async join(method: Join["method"], name: string, options: Record<string, unknown>): Promise<FakeRoom> {
    await Promise.resolve();
    fakeServer.joins.push({ method, name, options, token: this.auth.token, endpoint: this.endpoint });
    if (fakeServer.hold) await new Promise<void>((go) => fakeServer.held.push(go));
    if (fakeServer.refuse > 0) {
      fakeServer.refuse--;
      throw new Error("server unreachable");
    }
    const room = new FakeRoom(name, options, this.auth.token);
    fakeServer.rooms.push(room);
    return room;
  }
}
