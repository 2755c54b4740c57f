import "reflect-metadata";
import "./platform/colyseus-runtime";
import { existsSync } from "node:fs";
import type { Server as HttpServer } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import type { Application } from "express";
import { clientFiles } from "./core/http/client-files";
import { MemoryStore } from "express-rate-limit";
import { LocalDriver, LocalPresence, defineRoom, defineServer, matchMaker, type Server } from "@colyseus/core";
import { SpreadPingTransport } from "./core/rooms/spread-ping-transport";
import { RoomRelay, announceProcess, peerAddress } from "./core/events/room-relay";
import { RedisDriver } from "@colyseus/redis-driver";
import { ROOMS } from "@casino/common";
import { logSettings, type Config } from "./platform/config";
import { openDatabase, type Database } from "./platform/db/database";
import { BOARD_COMMAND_TIMEOUT_MS, openRedis } from "./platform/redis/redis";
import { QuietRedisPresence } from "./platform/redis/presence";
import { SessionTokens } from "./core/auth/session";
import { DiscordOAuth } from "./core/auth/discord";
import { Ledger } from "./ledger";
import { Announcements } from "./core/ledger/engine/index";
import { subscribeToCommits } from "./announced";
import { Players } from "./core/players/players";
import { ClosedAccounts } from "./core/players/closed-accounts";
import { closeConnectionsOf } from "./core/rooms/close-connections";
import { Seeds } from "./core/seeds";
import { Retention } from "./ops/retention";
import { makePartitionsAhead } from "./platform/db/partitions";
import { EventLoopWatch } from "./ops/event-loop-watch";
import { PlayerEvents } from "./core/events/player-events";
import { casinoRoom } from "./casino/casino-room";
import { RoomLimiter, roomLimitRules } from "./core/rooms/rate-limit";
import { crashRoom } from "./crash/crash-room";
import { CrashStore } from "./crash/crash-store";
import { startCrashRecovery } from "./crash/crash-recovery";
import { RaceSweep } from "./together/race-sweep";
import { TableStore } from "./table/table-store";
import { tableRoom } from "./table/table-room";
import { HoldemStore } from "./holdem/holdem-store";
import { holdemRoom } from "./holdem/holdem-room";
import { tableRoutes } from "./table/table-routes";
import { holdemRoutes } from "./holdem/holdem-routes";
import { SkillRounds } from "./skill/skill-rounds";
import { skillBodyParser, skillRoutes } from "./skill/skill-routes";
import { Leaderboards } from "./leaderboard/leaderboards";
import { leaderboardRoom } from "./leaderboard/leaderboard-room";
import { Progress } from "./progress/progress";
import { Guilds } from "./core/players/guilds";
import { Instances } from "./core/players/instances";
import { Together } from "./together/together";
import { togetherRoom } from "./together/together-room";
import { togetherRoutes } from "./together/together-routes";
import { leaderboardRoutes } from "./leaderboard/leaderboard-routes";
import type { Services } from "./services";
import { authRoutes, sessionRoutes } from "./core/http/auth-routes";
import { playerRoutes } from "./progress/player-routes";
import { moneyRoutes } from "./casino/money-routes";
import { errorHandler, unknownRoute } from "./core/http/errors";
import { apiRouter, healthRoutes, mountHttpBasics } from "./core/http/api";
import { guardHttpServer } from "./core/http/guard";
import { systemClock, type Clock } from "./platform/clock";
import { Log } from "./platform/log";
import { Lifecycle } from "./platform/lifecycle";
import { TokenBuckets } from "./platform/redis/token-bucket";
import { SharedRateLimitStore } from "./platform/redis/rate-limit-store";
import { countedRoom, metricsEndpoint, watchApp } from "./core/metrics";
import { StandIns } from "./core/players/stand-ins";
import { PROFILE_CHANGES } from "./core/rooms/room-players";

export interface App {
  server: Server;
  services: Services;
  /** Starts listening; resolves with the bound port. */
  listen(): Promise<number>;
  /**
   * The SIGTERM path: stop taking new requests, room messages and joins, wait up to `timeoutMs` for the
   * ones in flight, then close rooms and connections. Resolves false if work was still running.
   */
  shutdown(timeoutMs: number): Promise<boolean>;
  /** Closes everything at once (tests). */
  close(): Promise<void>;
}

/** Builds the whole product on one port: REST under /api, the Colyseus rooms, and the built client. */
export async function createApp(config: Config, existingDb?: Database, clock: Clock = systemClock): Promise<App> {
  const log = new Log(logSettings(config));
  const db =
    existingDb ?? (await openDatabase(config.databaseUrl, config.dataDir, config.dbTimeouts, config.dbPoolSize, config.transactionPooler));
  db.breaker.onChange = (open, reason, openForMs) => {
    if (open) log.warn("db-breaker", "database breaker open: money requests are refused until the database answers", { reason });
    else log.info("database breaker closed: the database answers again", { openForMs: Math.round(openForMs) });
  };
  const redis = openRedis(config.redisUrl, log, "app", { autoPipelining: true });
  // The boards' scripts (a page's is the slowest command the server sends) on a connection of their
  // own, not pipelined (see openRedis). The in-memory stand-in is one keyspace per client: shared.
  const boardsRedis = config.redisUrl ? openRedis(config.redisUrl, log, "boards", { commandTimeoutMs: BOARD_COMMAND_TIMEOUT_MS }) : redis;
  // Each gets a client of its own (with an error listener), so each can be shut down on its own.
  const presenceRedis = config.redisUrl ? openRedis(config.redisUrl, log, "presence") : undefined;
  const matchmakingRedis = config.redisUrl ? openRedis(config.redisUrl, log, "matchmaking") : undefined;
  const presence = presenceRedis ? new QuietRedisPresence(presenceRedis) : new LocalPresence();
  const driver = matchmakingRedis ? new RedisDriver(matchmakingRedis) : new LocalDriver();
  const announcements = new Announcements(log);
  const ledger = new Ledger(db, log, announcements);
  const events = new PlayerEvents(presence, log);
  const lifecycle = new Lifecycle();
  const discord = new DiscordOAuth(config.discord);
  const guilds = new Guilds(db);
  const instances = new Instances(db, discord);
  const closedAccounts = new ClosedAccounts(db, presence, log);
  const services: Services = {
    config,
    clock,
    db,
    redis,
    boardsRedis,
    presence,
    // A suspended or erased player's token is refused wherever it is presented (REST and every room).
    tokens: new SessionTokens(config.sessionSecret, config.sessionTtlSeconds, (claims) => closedAccounts.refusal(claims.playerId)),
    closedAccounts,
    discord,
    ledger,
    announcements,
    players: new Players(db, ledger, config.specialBadges),
    standIns: new StandIns(config.sessionSecret, () => clock.now()),
    seeds: new Seeds(db),
    events,
    retention: new Retention(db, ledger, config.retention, log),
    log,
    lifecycle,
    // With Redis, limits are counted there, for every process; without, this is the only process.
    roomLimits: new RoomLimiter(new TokenBuckets(config.redisUrl ? redis : undefined, log), roomLimitRules(config)),
    crash: new CrashStore(db, ledger, config.crash),
    table: new TableStore(db, ledger, config.table),
    holdem: new HoldemStore(db, ledger.holdem, config.table.leaseMs),
    skill: new SkillRounds(db, ledger, { realTimeCheck: config.skillRealTimeCheck }),
    guilds,
    instances,
    leaderboards: new Leaderboards(
      db,
      boardsRedis,
      presence,
      guilds,
      instances,
      config.specialBadges,
      config.sessionSecret,
      log,
      undefined,
      () => clock.now(),
    ),
    progress: new Progress(db, events, log),
    together: new Together(db, redis, presence, events, log),
    raceSweep: new RaceSweep({ db, clock, presence, events }, log),
    rateLimitStore: (name) => (config.redisUrl ? new SharedRateLimitStore(redis, `rate:${name}:`, log) : new MemoryStore()),
  };

  // CORS is answered by our own guard (core/http/guard.ts) for every path; Colyseus's would allow any origin with credentials.
  matchMaker.controller.DEFAULT_CORS_HEADERS = {} as typeof matchMaker.controller.DEFAULT_CORS_HEADERS;
  matchMaker.controller.getCorsHeaders = () => ({}) as ReturnType<typeof matchMaker.controller.getCorsHeaders>;
  const stopCrashRecovery = startCrashRecovery(services.crash, config.crash.leaseMs, log);
  const stopTableRecovery = startCrashRecovery(services.table, config.table.leaseMs, log, "table");
  const stopHoldemRecovery = startCrashRecovery(services.holdem, config.table.leaseMs, log, "holdem");
  subscribeToCommits(announcements, services);
  services.players.onProfileChanged(services.leaderboards.profileChanged);
  services.players.onProfileChanged(async (playerId) => services.together.forget(playerId));
  // The shared rooms showing the player, on any process, show the change (room-players.ts).
  services.players.onProfileChanged(async (playerId) => {
    await Promise.resolve(presence.publish(PROFILE_CHANGES, playerId)).catch((error) =>
      log.error("room:profiles", "profile change not published", error),
    );
  });
  closedAccounts.onClosed((playerId, refusal) => void closeConnectionsOf(playerId, refusal, log));

  const transport = new SpreadPingTransport({ maxPayload: 16 * 1024 });
  // A shared room's WebSocket reaching another process is relayed to the room's own (room-relay.ts).
  transport.relay = new RoomRelay(presence);
  let withdraw: () => Promise<void> = async () => undefined;
  const server = defineServer({
    transport,
    presence,
    driver,
    greet: false,
    gracefullyShutdown: false,
    logger: colyseusLogger(log),
    // A player's room lives on the process the player reached: the WebSocket that follows the seat
    // reservation goes to that same address, so a room made elsewhere would never be joined.
    selectProcessIdToCreateRoom: async () => matchMaker.processId,
    rooms: {
      [ROOMS.casino]: countedRoom(ROOMS.casino, casinoRoom(services), defineRoom),
      // One shared crash room per activity instance (instanceId null: the public room).
      [ROOMS.crash]: countedRoom(ROOMS.crash, crashRoom(services), defineRoom).filterBy(["instanceId"]),
      // One table per activity instance; public tables, matched by a free seat when asked (freeSeat: true).
      [ROOMS.table]: countedRoom(ROOMS.table, tableRoom(services), defineRoom).filterBy(["instanceId", "freeSeat"]),
      // The Hold'em table: the same rule (one per activity instance; public tables, by a free seat when asked).
      [ROOMS.holdem]: countedRoom(ROOMS.holdem, holdemRoom(services), defineRoom).filterBy(["instanceId", "freeSeat"]),
      [ROOMS.leaderboard]: countedRoom(ROOMS.leaderboard, leaderboardRoom(services), defineRoom).filterBy([
        "board",
        "scope",
        "guildId",
        "instanceId",
        "window",
      ]),
      // One per activity instance (instanceId null: everyone outside Discord, global big wins only).
      [ROOMS.together]: countedRoom(ROOMS.together, togetherRoom(services), defineRoom).filterBy(["instanceId"]),
    },
    express: (app) => mountHttp(app, services),
  });
  const httpServer = () => transport.server as HttpServer;
  const eventLoop = new EventLoopWatch(log);
  const unwatch = watchApp({
    db,
    redis: { app: redis, boards: boardsRedis === redis ? undefined : boardsRedis, presence: presenceRedis, matchmaking: matchmakingRedis },
    leaderboardPosition: () => services.leaderboards.ledgerConsumerPosition,
  });

  const closeConnections = async () => {
    await stopCrashRecovery();
    await stopTableRecovery();
    await stopHoldemRecovery();
    // Withdrawn while Redis answers; a process gone with Redis down leaves an address that refuses connections.
    await Promise.race([withdraw().catch(() => undefined), new Promise((r) => setTimeout(r, 1_000).unref())]);
    unwatch();
    eventLoop.stop();
    await services.retention.stop();
    await services.raceSweep.stop();
    services.together.stop();
    await Promise.all([services.leaderboards.stop(), services.progress.stop(), closedAccounts.stop()]);
    await server.gracefullyShutdown(false).catch(() => undefined);
    httpServer()?.closeAllConnections();
    redis.disconnect();
    if (boardsRedis !== redis) boardsRedis.disconnect();
    if (!existingDb) await db.close();
  };

  return {
    server,
    services,
    async listen() {
      // This month's partitions and the next ones, before the first bet: a database left alone for
      // months would otherwise refuse every bet until the first sweep (which tries again should this fail).
      await makePartitionsAhead(db).catch((error: unknown) => log.error("retention", "partitions not made ahead at start", error));
      await server.listen(config.port, config.host);
      guardHttpServer(httpServer(), config, lifecycle);
      const port = (httpServer().address() as AddressInfo).port;
      withdraw = await announceProcess(presence, peerAddress(config.host, port));
      eventLoop.start();
      void closedAccounts.start().catch((error) => log.error("closed-accounts", "closed accounts not loaded", error));
      services.retention.start();
      services.raceSweep.start();
      void services.leaderboards.start().catch(() => undefined);
      services.progress.start();
      return port;
    },
    async shutdown(timeoutMs) {
      const drained = lifecycle.drain(timeoutMs);
      httpServer()?.close();
      const finished = await drained;
      await closeConnections();
      return finished;
    },
    close: closeConnections,
  };
}

/** Colyseus's own log lines, through ours: once per kind and window, debug chatter dropped. */
function colyseusLogger(log: Log) {
  const text = (args: unknown[]) => args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ");
  const kind = (args: unknown[]) => `colyseus:${String(args[0]).split("\n")[0]!.slice(0, 80)}`;
  return {
    debug: () => undefined,
    trace: () => undefined,
    info: (...args: unknown[]) => log.info(text(args)),
    warn: (...args: unknown[]) => log.warn(kind(args), text(args)),
    error: (...args: unknown[]) => log.error(kind(args), text(args)),
  };
}

function mountHttp(app: Application, s: Services): void {
  mountHttpBasics(app, s.config);
  const api = apiRouter(
    s,
    [healthRoutes(s), authRoutes(s)],
    [
      sessionRoutes(s),
      leaderboardRoutes(s),
      moneyRoutes(s),
      skillRoutes(s),
      playerRoutes(s),
      togetherRoutes(s),
      tableRoutes(s),
      holdemRoutes(s),
    ],
  );
  // Skill submissions carry an input log larger than the API's 16 kB bodies.
  app.use("/api/skill-rounds", skillBodyParser, errorHandler(s.log));
  app.use("/api", api);

  // Prometheus's scrape, for the bearer of METRICS_TOKEN only; without a token there is no endpoint.
  const metricsToken = s.config.metricsToken;
  if (metricsToken) app.get("/metrics", metricsEndpoint(metricsToken));
  else app.get("/metrics", unknownRoute);

  const dist = s.config.clientDist;
  if (existsSync(join(dist, "index.html"))) app.use(clientFiles(dist));
}
