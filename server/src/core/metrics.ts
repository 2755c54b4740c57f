import { timingSafeEqual, createHash } from "node:crypto";
import type { RequestHandler } from "express";
import type { Redis } from "ioredis";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { ClientArray, Room, type Client } from "@colyseus/core";
import type { BetAnswer } from "@casino/common";
import type { Database } from "../platform/db/database";
import { sqlRows } from "../platform/db/sql";
import { AppError } from "../platform/errors";
import { isOutage } from "../platform/log";
import { redisReady } from "../platform/redis/redis";
import { houseResults, mintedBySource, type HouseResult, type MintedCoins } from "./economy";
import { partitionMonthsAhead } from "../platform/db/partitions";
import { sinceAfter } from "./events/id-tail";

/**
 * The process's Prometheus metrics (prom-client), and the few named functions the rest of the server
 * calls to feed them. Counters and histograms are fed as things happen; gauges (rooms, players, the
 * database pool, Redis, the leaderboard consumer's lag) are read from the running app when scraped.
 * `GET /metrics` serves them when METRICS_TOKEN is set (docs/operations.md lists every metric).
 */
export const registry = new Registry();

const bets = new Counter({
  name: "casino_bets_total",
  help: "Bets placed (the opening step of a round), by game and outcome (win, lose, push, or open for a round that goes on)",
  labelNames: ["game", "outcome"],
  registers: [registry],
});
const roundActions = new Counter({
  name: "casino_round_actions_total",
  help: "Actions in open rounds (hit, reveal, cash out, ...), by game and outcome (win, lose, push, open, void)",
  labelNames: ["game", "outcome"],
  registers: [registry],
});
const requestDuration = new Histogram({
  name: "casino_room_request_duration_seconds",
  help: "Room request messages (bet, act, crash:bet, ...) from arrival to the answer sent, by message type",
  labelNames: ["message"],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});
const batchSizes = new Histogram({
  name: "casino_group_commit_batch_size",
  help: "Money requests per group-commit batch (one transaction, one COMMIT)",
  buckets: [1, 2, 4, 8, 16, 32, 48],
  registers: [registry],
});
const commits = new Counter({
  name: "casino_group_commit_commits_total",
  help: "Group-commit batches that committed",
  registers: [registry],
});
const failedBatches = new Counter({
  name: "casino_group_commit_failures_total",
  help: "Group-commit batches that did not commit (every member was answered with the error)",
  registers: [registry],
});
const ledgerErrors = new Counter({
  name: "casino_ledger_errors_total",
  help: "Money requests refused or failed, by error code (insufficient_funds, round_open, outcome_unknown, unavailable, internal, ...)",
  labelNames: ["code"],
  registers: [registry],
});
const joins = new Counter({
  name: "casino_matchmaking_joins_total",
  help: "Clients that joined a room, by room type",
  labelNames: ["room"],
  registers: [registry],
});
const refusals = new Counter({
  name: "casino_matchmaking_refusals_total",
  help: "Room joins refused (by onAuth or onJoin), by room type and the status code the client got",
  labelNames: ["room", "code"],
  registers: [registry],
});
const rateLimitRefusals = new Counter({
  name: "casino_rate_limit_refusals_total",
  help: "Requests refused by a rate limit, by limit (room budgets bet, seed, spin; REST limits ip, player, suggestions)",
  labelNames: ["limit"],
  registers: [registry],
});

/** Counts a step of a round that the ledger answered (a replayed answer moved nothing and is not counted). */
export function countRoundStep(step: "bet" | "act", answer: BetAnswer): void {
  if (answer.replayed) return;
  const outcome = answer.voided ? "void" : (answer.result ?? "open");
  (step === "bet" ? bets : roundActions).inc({ game: answer.game, outcome });
}

/** Counts a crash bet (its outcome is open until a cash-out wins it or the bust loses it) or a cash-out (a win). */
export function countCrashStep(step: "bet" | "cashout"): void {
  if (step === "bet") bets.inc({ game: "crash", outcome: "open" });
  else roundActions.inc({ game: "crash", outcome: "win" });
}

/** Times a room request message from now: call the returned function when it was answered (it returns the seconds). */
export function timeRoomRequest(message: string): () => number {
  return requestDuration.startTimer({ message });
}

/** A group-commit batch of `size` members ended, committed or not. */
export function countGroupCommit(size: number, committed: boolean): void {
  batchSizes.observe(size);
  if (committed) commits.inc();
  else failedBatches.inc();
}

/** Counts the error a money request ends with, if it ends with one. */
export function countLedgerErrors<T>(request: Promise<T>): Promise<T> {
  return request.catch((error: unknown) => {
    ledgerErrors.inc({ code: error instanceof AppError ? error.code : isOutage(error) ? "unavailable" : "internal" });
    throw error;
  });
}

export function countRateLimited(limit: string): void {
  rateLimitRefusals.inc({ limit });
}

type RoomClass = abstract new (...args: any[]) => Room;
type Handler = { on(event: string, listener: (...args: any[]) => void): unknown };

/** Rooms alive on this process, by room type. */
const liveRooms = new Map<string, Set<Room>>();

/**
 * The connections in the rooms of this process, by room type and by player, kept as the rooms' client
 * lists change (`CountedClients`), so that a scrape reads a few numbers instead of visiting every
 * connection: that visit held the event loop for about 20 ms at 10,000 connections, at every scrape.
 * A client that joins has its claims (`client.auth`) already; one taken back by a reconnection gets
 * them a moment after it is listed, so it waits among the `unplaced` until the next scrape or its
 * leaving (counted meanwhile as a player of its own, as the scan that was here before counted it).
 */
const connections = {
  byRoom: new Map<string, number>(),
  byPlayer: new Map<string, number>(),
  /** Each listed client: its room type, and its player once known. */
  listedClients: new WeakMap<Client, { room: string; player?: string }>(),
  unplaced: new Set<Client>(),

  listed(room: string, client: Client): void {
    if (this.listedClients.has(client)) return;
    this.listedClients.set(client, { room });
    this.byRoom.set(room, (this.byRoom.get(room) ?? 0) + 1);
    if (!this.place(client)) this.unplaced.add(client);
  },
  /** Once per listed client, whether its room's list lost it or the room was disposed with it. */
  delisted(client: Client): void {
    const entry = this.listedClients.get(client);
    if (!entry) return;
    this.listedClients.delete(client);
    this.byRoom.set(entry.room, (this.byRoom.get(entry.room) ?? 0) - 1);
    this.unplaced.delete(client);
    if (entry.player === undefined) return;
    const left = (this.byPlayer.get(entry.player) ?? 0) - 1;
    if (left > 0) this.byPlayer.set(entry.player, left);
    else this.byPlayer.delete(entry.player);
  },
  place(client: Client): boolean {
    const auth = client.auth as { playerId?: unknown } | undefined;
    const entry = this.listedClients.get(client);
    if (!entry || typeof auth?.playerId !== "string") return false;
    entry.player = auth.playerId;
    this.byPlayer.set(entry.player, (this.byPlayer.get(entry.player) ?? 0) + 1);
    return true;
  },
  /** Players with a connection here (a client still without claims counted as one). */
  players(): number {
    for (const client of this.unplaced) if (this.place(client)) this.unplaced.delete(client);
    return this.byPlayer.size + this.unplaced.size;
  },
};

/**
 * A room's client list that tells `connections` what joins and leaves it. Colyseus changes the list
 * with `push` (a join, a reconnection) and `delete` (a leave) only; the room's list is given this
 * prototype when the room is made (`countedRoom`).
 */
class CountedClients extends ClientArray {
  /** Set on a room's own list only: the arrays that `map` or `filter` make of it count nothing. */
  declare roomType: string | undefined;

  override push(...items: Client[]): number {
    const length = super.push(...items);
    if (this.roomType !== undefined) for (const client of items) connections.listed(this.roomType, client);
    return length;
  }

  override delete(client: Client): boolean {
    const removed = super.delete(client);
    if (removed && this.roomType !== undefined) connections.delisted(client);
    return removed;
  }
}

/**
 * A room type, counted: its rooms and clients, its joins, and the joins its onAuth or onJoin refused.
 * `define` is Colyseus's `defineRoom`, given the counting subclass.
 */
export function countedRoom<C extends RoomClass, H extends Handler>(name: string, klass: C, define: (klass: C) => H): H {
  const Base = klass as unknown as new (...args: any[]) => Room & { onJoin(...args: unknown[]): unknown };
  const refused = (error: unknown) => refusals.inc({ room: name, code: String((error as { code?: unknown })?.code ?? "error") });
  class Counted extends Base {
    constructor(...args: any[]) {
      super(...args);
      Object.setPrototypeOf(this.clients, CountedClients.prototype);
      (this.clients as unknown as CountedClients).roomType = name;
    }

    override async onJoin(...args: unknown[]): Promise<void> {
      try {
        await super.onJoin(...args);
      } catch (error) {
        refused(error);
        throw error;
      }
    }
  }
  // Only a room type with a static onAuth of its own gets one here: Colyseus calls a room's instance
  // onAuth only when the class has none.
  const onAuth = (klass as unknown as { onAuth: (...args: unknown[]) => Promise<unknown> }).onAuth;
  if (onAuth !== Room.onAuth) {
    Object.defineProperty(Counted, "onAuth", {
      value: async function (this: unknown, ...args: unknown[]) {
        try {
          return await onAuth.apply(this, args);
        } catch (error) {
          refused(error);
          throw error;
        }
      },
    });
  }
  const handler = define(Counted as unknown as C);
  const rooms = liveRooms.get(name) ?? new Set<Room>();
  liveRooms.set(name, rooms);
  handler.on("create", (room: Room) => rooms.add(room));
  handler.on("dispose", (room: Room) => {
    rooms.delete(room);
    for (const client of room.clients) connections.delisted(client);
  });
  handler.on("join", () => joins.inc({ room: name }));
  return handler;
}

new Gauge({
  name: "casino_rooms",
  help: "Rooms on this process, by room type",
  labelNames: ["room"],
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, rooms] of liveRooms) this.set({ room: name }, rooms.size);
  },
});
new Gauge({
  name: "casino_room_clients",
  help: "Connections in rooms on this process, by room type",
  labelNames: ["room"],
  registers: [registry],
  collect() {
    this.reset();
    for (const name of liveRooms.keys()) this.set({ room: name }, connections.byRoom.get(name) ?? 0);
  },
});
new Gauge({
  name: "casino_connected_players",
  help: "Players with at least one connection to a room on this process",
  registers: [registry],
  collect() {
    this.set(connections.players());
  },
});

/** What the scrape reads from a running app. */
export interface MetricSources {
  db: Database;
  /** Each Redis connection of the app by name (app, boards, presence, matchmaking; the stand-in has one). */
  redis: Record<string, Redis | undefined>;
  /** The last ledger entry id the leaderboard consumer has read. */
  leaderboardPosition: () => number;
}

const sources = new Set<MetricSources>();

/** Reads the app's gauges at each scrape until the returned function is called. */
export function watchApp(app: MetricSources): () => void {
  sources.add(app);
  return () => sources.delete(app);
}

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const poolOf = (db: Database): PgPool | undefined =>
  db.embedded ? undefined : (db.dataSource.driver as unknown as { master?: PgPool }).master;

new Gauge({
  name: "casino_db_pool_in_use",
  help: "PostgreSQL connections of the pool checked out by work",
  registers: [registry],
  collect() {
    this.reset();
    for (const app of sources) {
      const pool = poolOf(app.db);
      if (pool) this.inc(pool.totalCount - pool.idleCount);
    }
  },
});
new Gauge({
  name: "casino_db_pool_waiting",
  help: "Work waiting for a PostgreSQL connection of the pool",
  registers: [registry],
  collect() {
    this.reset();
    for (const app of sources) {
      const pool = poolOf(app.db);
      if (pool) this.inc(pool.waitingCount);
    }
  },
});
new Gauge({
  name: "casino_redis_up",
  help: "1 when the Redis connection is ready, 0 when it is not (the in-memory stand-in is always up)",
  labelNames: ["connection"],
  registers: [registry],
  collect() {
    this.reset();
    for (const app of sources) {
      for (const [name, redis] of Object.entries(app.redis)) if (redis) this.set({ connection: name }, redisReady(redis) ? 1 : 0);
    }
  },
});

/** How long the scrape waits for the lag query before leaving the lag out. */
const LAG_QUERY_TIMEOUT_MS = 1_000;

const lagSeconds = new Gauge({
  name: "casino_leaderboard_consumer_lag_seconds",
  help: "Age of the oldest ledger entry the leaderboard consumer of this process has not read yet (0 when caught up)",
  registers: [registry],
});
new Gauge({
  name: "casino_leaderboard_consumer_lag_entries",
  help: "Ledger entries written after the last one the leaderboard consumer of this process has read",
  registers: [registry],
  async collect() {
    this.reset();
    lagSeconds.reset();
    for (const app of sources) {
      const lag = await consumerLag(app).catch(() => undefined);
      if (!lag) continue;
      this.set(lag.entries);
      lagSeconds.set(lag.seconds);
    }
  },
});

/**
 * The leaderboard consumer's lag behind the ledger: the entries after its position (`$1`) and the age of
 * the first of them. Both read only entries no older than a day before the entry at the position
 * (`sinceAfter`), which every entry after it is: the last monthly partitions, not one probe a month kept.
 * With no entry after the position, the greatest id of the recent ones is at most the position (0 after clamping), as it was of all.
 */
export const CONSUMER_LAG = `SELECT (SELECT max(id) FROM ledger_entries WHERE created_at >= b.since) - $1::bigint AS entries,
         (SELECT EXTRACT(EPOCH FROM now() - created_at) FROM ledger_entries WHERE id > $1::bigint AND created_at >= b.since
           ORDER BY id LIMIT 1) AS seconds
    FROM (SELECT ${sinceAfter("ledger_entries", "id", "$1::bigint")} AS since) b`;

async function consumerLag(app: MetricSources): Promise<{ entries: number; seconds: number } | undefined> {
  const position = app.leaderboardPosition();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LAG_QUERY_TIMEOUT_MS)));
  const read = app.db.run((em) =>
    sqlRows<{ entries: string | number | null; seconds: string | number | null }>(em, CONSUMER_LAG, [position]),
  );
  try {
    const row = (await Promise.race([read, timeout]))?.[0];
    if (!row) return undefined;
    return { entries: Math.max(0, Number(row.entries ?? 0)), seconds: Math.max(0, Number(row.seconds ?? 0)) };
  } finally {
    clearTimeout(timer);
  }
}

/** How long a scrape waits for the partitions' bounds before leaving the gauge out. */
const PARTITIONS_QUERY_TIMEOUT_MS = 1_000;

new Gauge({
  name: "casino_partition_months_ahead",
  help: "Whole months after the current one (UTC) that the ledger and the rounds both have partitions for",
  registers: [registry],
  async collect() {
    this.reset();
    for (const app of sources) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), PARTITIONS_QUERY_TIMEOUT_MS)));
      const months = await Promise.race([partitionMonthsAhead(app.db), timeout])
        .catch(() => undefined)
        .finally(() => clearTimeout(timer));
      if (months !== undefined) this.set(months);
    }
  },
});

/**
 * The economy's two reports (docs/architecture/money-path.md, "Accounts"), one query each over the whole
 * ledger, read at a scrape: both gauges of one scrape share one read, a scrape while an earlier read is
 * still running leaves them out, and so does a database that does not answer within a second.
 */
const ECONOMY_QUERY_TIMEOUT_MS = 1_000;

interface EconomyRead {
  /** True until the scrape that started the read has called every gauge's collect (they are called in one go). */
  sameScrape: boolean;
  settled: boolean;
  answer: Promise<{ house: HouseResult[]; minted: MintedCoins[] } | undefined>;
}
const economyReads = new WeakMap<Database, EconomyRead>();

function readEconomy(db: Database): EconomyRead["answer"] {
  const last = economyReads.get(db);
  if (last?.sameScrape) return last.answer; // the other gauge of this scrape
  if (last && !last.settled) return Promise.resolve(undefined);
  const read = Promise.all([houseResults(db), mintedBySource(db)]).then(([house, minted]) => ({ house, minted }));
  const entry: EconomyRead = { sameScrape: true, settled: false, answer: Promise.resolve(undefined) };
  queueMicrotask(() => (entry.sameScrape = false));
  void read.then(
    () => (entry.settled = true),
    () => (entry.settled = true),
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ECONOMY_QUERY_TIMEOUT_MS)));
  entry.answer = Promise.race([read.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
  economyReads.set(db, entry);
  return entry.answer;
}

new Gauge({
  name: "casino_house_result_coins",
  help: "The house's result per game (the stakes of its ended rounds less their payouts), from the ledger",
  labelNames: ["game"],
  registers: [registry],
  async collect() {
    this.reset();
    for (const app of sources) for (const h of (await readEconomy(app.db))?.house ?? []) this.set({ game: h.game }, h.result);
  },
});
new Gauge({
  name: "casino_minted_coins",
  help: "Coins minted per source (starting-grant, daily-spin, skill-reward, admin-grant; admin-claw-back is negative), from the ledger",
  labelNames: ["source"],
  registers: [registry],
  async collect() {
    this.reset();
    for (const app of sources) for (const m of (await readEconomy(app.db))?.minted ?? []) this.set({ source: m.source }, m.minted);
  },
});

let processMetrics = false;

/**
 * prom-client's defaults that visit every handle, resource or file descriptor of the process at each
 * scrape: one of each per connection, so with 10,000 players connected they held the event loop for
 * about 40 ms per scrape (and every bet arriving meanwhile waited). The connections are counted by
 * `casino_room_clients` instead.
 */
const PER_CONNECTION_DEFAULTS = [
  "process_open_fds",
  "nodejs_active_handles",
  "nodejs_active_handles_total",
  "nodejs_active_resources",
  "nodejs_active_resources_total",
];

/**
 * `GET /metrics` in Prometheus's text format, for a bearer of `token` only. The process's own metrics
 * (CPU, memory, event-loop delay, garbage collection; not those of `PER_CONNECTION_DEFAULTS`) are
 * collected from the first time this is built.
 */
export function metricsEndpoint(token: string): RequestHandler {
  if (!processMetrics) {
    processMetrics = true;
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
    for (const name of PER_CONNECTION_DEFAULTS) registry.removeSingleMetric(name);
  }
  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  return async (req, res) => {
    const given = createHash("sha256")
      .update(req.headers.authorization ?? "")
      .digest();
    if (!timingSafeEqual(given, expected)) {
      res
        .status(401)
        .set("www-authenticate", 'Bearer realm="metrics"')
        .json({ error: "A valid metrics token is required", code: "unauthorized" });
      return;
    }
    res.set("content-type", registry.contentType).send(await registry.metrics());
  };
}
