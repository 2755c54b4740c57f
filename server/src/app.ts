import "reflect-metadata";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import express, { type Application } from "express";
import helmet from "helmet";
import { ipKeyGenerator } from "express-rate-limit";
import { LocalDriver, LocalPresence, defineRoom, defineServer, type Server } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { RedisPresence } from "@colyseus/redis-presence";
import { RedisDriver } from "@colyseus/redis-driver";
import { ROOMS } from "@casino/common";
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
import { CrashRoom } from "./rooms/crash-room";
import { CrashStore } from "./rooms/crash-store";
import { startCrashRecovery } from "./rooms/crash-recovery";
import { SkillRounds } from "./skill/skill-rounds";
import { skillBodyParser, skillRoutes } from "./skill/skill-routes";
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

/** Builds the whole product on one port: REST under /api, the Colyseus rooms, and the built client. */
export async function createApp(config: Config, existingDb?: Database): Promise<App> {
  const db = existingDb ?? (await openDatabase(config.databaseUrl, config.dataDir));
  const redis = openRedis(config.redisUrl);
  const presence = config.redisUrl ? new RedisPresence(config.redisUrl) : new LocalPresence();
  const driver = config.redisUrl ? new RedisDriver(config.redisUrl) : new LocalDriver();
  const ledger = new Ledger(db);
  const services: Services = {
    config,
    db,
    redis,
    presence,
    tokens: new SessionTokens(config.sessionSecret, config.sessionTtlSeconds),
    discord: new DiscordOAuth(config.discord),
    ledger,
    players: new Players(db, ledger, config.specialBadges),
    seeds: new Seeds(db),
    events: new PlayerEvents(presence),
    crash: new CrashStore(db, ledger, config.crash),
    skill: new SkillRounds(db, ledger, { realTimeCheck: config.skillRealTimeCheck }),
  };
  CasinoRoom.services = services;
  CrashRoom.services = services;
  const stopCrashRecovery = startCrashRecovery(services.crash, config.crash.leaseMs);

  const transport = new WebSocketTransport({ maxPayload: 16 * 1024 });
  const server = defineServer({
    transport,
    presence,
    driver,
    greet: false,
    gracefullyShutdown: false,
    rooms: {
      [ROOMS.casino]: defineRoom(CasinoRoom),
      // One shared crash room per activity instance (instanceId null: the public room).
      [ROOMS.crash]: defineRoom(CrashRoom).filterBy(["instanceId"]),
    },
    express: (app) => mountHttp(app, services),
  });

  return {
    server,
    services,
    async listen() {
      await server.listen(config.port, config.host);
      return (transport.server?.address() as AddressInfo).port;
    },
    async close() {
      await stopCrashRecovery();
      await server.gracefullyShutdown(false).catch(() => undefined);
      redis.disconnect();
      if (!existingDb) await db.close();
    },
  };
}

function mountHttp(app: Application, s: Services): void {
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
    jsonRateLimit({ windowMs: 60_000, limit: 600, key: (req) => `ip:${ipKeyGenerator(req.ip ?? "unknown")}`, message: SLOW_DOWN }),
  );

  api.get("/health", async (_req, res) => {
    const [database, redis] = await Promise.all([s.db.ping(), pingRedis(s.redis)]);
    const ok = database && redis;
    res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "degraded", database: database ? "ok" : "down", redis: redis ? "ok" : "down" });
  });
  api.use(authRoutes(s));

  // Only the resources that exist require a session, so an unknown route is a 404 for everyone.
  const perPlayer = jsonRateLimit({ windowMs: 60_000, limit: 300, key: (req) => `player:${sessionOf(req).playerId}`, message: SLOW_DOWN });
  api.use(["/player", "/suggestions", "/daily-spin", "/game-session", "/skill-rounds"], requireSession(s.tokens), perPlayer);
  api.use(moneyRoutes(s));
  api.use(skillRoutes(s));
  api.use(playerRoutes(s));
  api.use(unknownApiRoute);
  api.use(errorHandler);
  // Skill submissions carry an input log larger than the API's 16 kB bodies.
  app.use("/api/skill-rounds", skillBodyParser, errorHandler);
  app.use("/api", api);

  const dist = s.config.clientDist;
  if (existsSync(join(dist, "index.html"))) {
    app.use(express.static(dist, { index: false, maxAge: "1h" }));
    app.get(/^\/(?!api\/|matchmake\/).*/, (_req, res) => res.sendFile(join(dist, "index.html")));
  }
}
