import "reflect-metadata";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import express, { type Application, type Router } from "express";
import helmet from "helmet";
import { ipKeyGenerator } from "express-rate-limit";
import { LocalDriver, LocalPresence, defineRoom, defineServer, type Server } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { RedisPresence } from "@colyseus/redis-presence";
import { RedisDriver } from "@colyseus/redis-driver";
import { LEADERBOARD_ROOM, ROOMS } from "@casino/common";
import type { Config } from "./config";
import { openDatabase, type Database } from "./db/database";
import { openRedis, pingRedis } from "./redis/redis";
import { SessionTokens } from "./auth/session";
import { DiscordOAuth } from "./auth/discord";
import { Ledger } from "./ledger/ledger";
import { Players } from "./players/players";
import { Seeds } from "./fairness/seeds";
import { PlayerEvents } from "./rooms/player-events";
import { CasinoRoom } from "./rooms/casino-room";
import { Leaderboards } from "./leaderboard/leaderboards";
import { LeaderboardRoom } from "./leaderboard/leaderboard-room";
import { Progress } from "./progress/progress";
import { Guilds } from "./players/guilds";
import { Instances } from "./players/instances";
import { leaderboardRoutes } from "./http/leaderboard-routes";
import type { Services } from "./services";
import { authRoutes } from "./http/auth-routes";
import { playerRoutes } from "./http/player-routes";
import { moneyRoutes } from "./http/money-routes";
import { errorHandler, unknownApiRoute } from "./http/errors";
import { requireSession, sessionOf } from "./http/context";
import { jsonRateLimit } from "./http/rate-limit";

export interface App {
  server: Server;
  services: Services;
  /** Starts listening; resolves with the bound port. */
  listen(): Promise<number>;
  close(): Promise<void>;
}

const SLOW_DOWN = "Too many requests; please slow down";

/** Discord embeds the activity in its own frame: allow exactly those ancestors. */
const DISCORD_FRAME_ANCESTORS = ["'self'", "https://discord.com", "https://*.discord.com", "https://*.discordsays.com"];

export interface AppOptions {
  /** Extra routes under /api, after the shared middleware (benchmarks compare against a trivial handler). */
  extraApiRoutes?: (api: Router) => void;
}

/** Builds the whole product on one port: REST under /api, the Colyseus rooms, and the built client. */
export async function createApp(config: Config, existingDb?: Database, options: AppOptions = {}): Promise<App> {
  const db = existingDb ?? (await openDatabase(config.databaseUrl, config.dataDir));
  const redis = openRedis(config.redisUrl);
  const presence = config.redisUrl ? new RedisPresence(config.redisUrl) : new LocalPresence();
  const driver = config.redisUrl ? new RedisDriver(config.redisUrl) : new LocalDriver();
  const ledger = new Ledger(db);
  const discord = new DiscordOAuth(config.discord);
  const events = new PlayerEvents(presence);
  const guilds = new Guilds(db);
  const instances = new Instances(db, discord);
  const services: Services = {
    config,
    db,
    redis,
    presence,
    tokens: new SessionTokens(config.sessionSecret, config.sessionTtlSeconds),
    discord,
    ledger,
    players: new Players(db, ledger, config.specialBadges),
    seeds: new Seeds(db),
    events,
    guilds,
    instances,
    leaderboards: new Leaderboards(db, redis, presence, guilds, instances, config.specialBadges),
    progress: new Progress(db, events),
  };
  CasinoRoom.services = services;
  LeaderboardRoom.services = services;
  ledger.onCommitted(services.leaderboards.onCommitted);
  ledger.onCommitted(services.progress.onCommitted);

  const transport = new WebSocketTransport({ maxPayload: 16 * 1024 });
  const server = defineServer({
    transport,
    presence,
    driver,
    greet: false,
    gracefullyShutdown: false,
    rooms: {
      [ROOMS.casino]: defineRoom(CasinoRoom),
      [LEADERBOARD_ROOM]: defineRoom(LeaderboardRoom).filterBy(["board", "scope", "guildId", "instanceId", "window"]),
    },
    express: (app) => mountHttp(app, services, options),
  });

  return {
    server,
    services,
    async listen() {
      await server.listen(config.port, config.host);
      void services.leaderboards.start().catch(() => undefined);
      services.progress.start();
      return (transport.server?.address() as AddressInfo).port;
    },
    async close() {
      await Promise.all([services.leaderboards.stop(), services.progress.stop()]);
      await server.gracefullyShutdown(false).catch(() => undefined);
      redis.disconnect();
      if (!existingDb) await db.close();
    },
  };
}

function mountHttp(app: Application, s: Services, options: AppOptions): void {
  app.disable("x-powered-by");
  app.use(
    helmet({
      frameguard: false,
      crossOriginEmbedderPolicy: false,
      contentSecurityPolicy: {
        directives: {
          "default-src": ["'self'"],
          "frame-ancestors": DISCORD_FRAME_ANCESTORS,
          "img-src": ["'self'", "data:", "https://cdn.discordapp.com"],
          "connect-src": ["'self'", "ws:", "wss:"],
          "script-src": ["'self'"],
          "style-src": ["'self'", "'unsafe-inline'"],
        },
      },
    }),
  );

  const api = express.Router();
  api.use(express.json({ limit: "16kb" }));
  api.use(
    jsonRateLimit({ windowMs: 60_000, limit: s.config.apiRatePerMinute, key: (req) => `ip:${ipKeyGenerator(req.ip ?? "unknown")}`, message: SLOW_DOWN }),
  );

  api.get("/health", async (_req, res) => {
    const [database, redis] = await Promise.all([s.db.ping(), pingRedis(s.redis)]);
    const ok = database && redis;
    res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "degraded", database: database ? "ok" : "down", redis: redis ? "ok" : "down" });
  });
  options.extraApiRoutes?.(api);
  api.use(authRoutes(s));

  // Only the resources that exist require a session, so an unknown route is a 404 for everyone.
  const perPlayer = jsonRateLimit({ windowMs: 60_000, limit: s.config.playerRatePerMinute, key: (req) => `player:${sessionOf(req).playerId}`, message: SLOW_DOWN });
  api.use(["/player", "/suggestions", "/daily-spin", "/game-session"], requireSession(s.tokens), perPlayer);
  api.use(["/leaderboard", "/game-stats", "/game", "/instances"], requireSession(s.tokens), perPlayer);
  api.use(leaderboardRoutes(s));
  api.use(moneyRoutes(s));
  api.use(playerRoutes(s));
  api.use(unknownApiRoute);
  api.use(errorHandler);
  app.use("/api", api);

  const dist = s.config.clientDist;
  if (existsSync(join(dist, "index.html"))) {
    app.use(express.static(dist, { index: false, maxAge: "1h" }));
    app.get(/^\/(?!api\/|matchmake\/).*/, (_req, res) => res.sendFile(join(dist, "index.html")));
  }
}
