import express, { type Application, type RequestHandler, type Router } from "express";
import compression from "compression";
import helmet from "helmet";
import { ipKeyGenerator } from "express-rate-limit";
import type { Config } from "../../platform/config";
import type { CoreServices } from "../services";
import { DiscordProxyCheck } from "../auth/discord-proxy";
import { pingRedis } from "../../platform/redis/redis";
import { readSession } from "./context";
import { errorHandler, unknownApiRoute } from "./errors";
import { jsonRateLimit } from "./rate-limit";

const SLOW_DOWN = "Too many requests; please slow down";

/** Discord embeds the activity in its own frame: allow exactly those ancestors. */
const DISCORD_FRAME_ANCESTORS = ["'self'", "https://discord.com", "https://*.discord.com", "https://*.discordsays.com"];

/** What every answer of the web server gets, whatever its path: Express's settings, compression, security headers. */
export function mountHttpBasics(app: Application, config: Config): void {
  app.disable("x-powered-by");
  // API answers are per player and change with every bet: no ETag hashed over each body for a
  // revalidation that would rarely match. The client's files keep theirs (serve-static's), and
  // index.html revalidates by them (core/http/client-files.ts).
  app.set("etag", false);
  // Behind a proxy, req.ip (and with it every per-IP limit) is the client's address only if we trust it.
  app.set("trust proxy", config.trustProxy);
  // Answers made per request (JSON, errors) are compressed on the fly; the client's files carry their
  // own precompressed twins (core/http/client-files.ts), which this leaves alone (already encoded).
  app.use(compression());
  app.use(
    helmet({
      frameguard: false,
      crossOriginEmbedderPolicy: false,
      contentSecurityPolicy: {
        directives: {
          "default-src": ["'self'"],
          "frame-ancestors": [...DISCORD_FRAME_ANCESTORS, ...config.frameAncestors],
          "img-src": ["'self'", "data:", "https://cdn.discordapp.com"],
          "connect-src": ["'self'", "ws:", "wss:"],
          "script-src": ["'self'"],
          "style-src": ["'self'", "'unsafe-inline'"],
        },
      },
    }),
  );
}

/**
 * The router mounted at /api, in the order every request passes it: JSON bodies and the per-IP limit,
 * then the `open` routes (no session needed); then the session (read here, demanded by each route that
 * needs a player, so an unknown route is a 404 for everyone), Discord's proxy check and the per-player
 * limit, then the `signedIn` routes; unknown routes and the error handler last. The app mounts the
 * product's routes in it (app.ts); a benchmark may mount its own handlers behind the same middleware.
 */
export function apiRouter(
  s: Pick<CoreServices, "config" | "rateLimitStore" | "log" | "tokens">,
  open: readonly (Router | RequestHandler)[],
  signedIn: readonly (Router | RequestHandler)[],
): Router {
  const api = express.Router();
  api.use(express.json({ limit: "16kb" }));
  api.use(
    jsonRateLimit({
      windowMs: 60_000,
      limit: s.config.apiRatePerMinute,
      name: "ip",
      key: (req) => ipKeyGenerator(req.ip ?? "unknown"),
      message: SLOW_DOWN,
      store: s.rateLimitStore("ip"),
      log: s.log,
    }),
  );
  for (const routes of open) api.use(routes);

  // Requests that carry a session count against that player's budget.
  api.use(readSession(s.tokens));
  // A Discord player's every call must come through Discord's proxy too, when its public key is configured.
  const proxy = new DiscordProxyCheck({ publicKey: s.config.discord.publicKey, applicationId: s.config.discord.clientId });
  if (proxy.enabled) {
    api.use((req, _res, next) => {
      if (req.session && !req.session.guest) proxy.verifyFor(req.headers, req.session.discordId);
      next();
    });
  }
  api.use(
    jsonRateLimit({
      windowMs: 60_000,
      limit: s.config.playerRatePerMinute,
      name: "player",
      key: (req) => req.session!.playerId,
      skip: (req) => !req.session,
      message: SLOW_DOWN,
      store: s.rateLimitStore("player"),
      log: s.log,
    }),
  );
  for (const routes of signedIn) api.use(routes);
  api.use(unknownApiRoute);
  api.use(errorHandler(s.log));
  return api;
}

/** `GET /api/health`: 200 while the database and Redis answer (each within DB_HEALTH_TIMEOUT_MS), 503 (degraded) otherwise. */
export function healthRoutes(s: Pick<CoreServices, "db" | "redis" | "config">): Router {
  return express.Router().get("/health", async (_req, res) => {
    const [database, redis] = await Promise.all([s.db.ping(), pingRedis(s.redis, s.config.dbTimeouts.healthMs)]);
    const ok = database && redis;
    res.status(ok ? 200 : 503).json({ status: ok ? "ok" : "degraded", database: database ? "ok" : "down", redis: redis ? "ok" : "down" });
  });
}
