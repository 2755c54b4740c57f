import type { Request } from "express";
import { rateLimit, type Store } from "express-rate-limit";
import type { Log } from "../../platform/log";
import { countRateLimited } from "../metrics";

/**
 * A rate limit that answers 429 as JSON `{ error, code: "rate_limited" }`, like every other API error.
 * `store` decides where the counts live (shared through Redis in this app, see SharedRateLimitStore).
 */
export function jsonRateLimit(options: {
  /** The limit's name in the metrics (`casino_rate_limit_refusals_total{limit}`). */
  name: string;
  windowMs: number;
  limit: number;
  key: (req: Request) => string;
  message: string;
  store: Store;
  log: Log;
  skip?: (req: Request) => boolean;
}) {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    keyGenerator: options.key,
    store: options.store,
    skip: options.skip,
    // A store that fails falls back inside SharedRateLimitStore; anything left is logged, not fatal.
    passOnStoreError: true,
    logger: {
      error: (error, message) => options.log.error("rest-limit", message ?? "rate limit failed", error),
      warn: (error, message) => options.log.warn("rest-limit", `${message ?? "rate limit"}: ${String(error)}`),
    },
    handler: (_req, res) => {
      countRateLimited(options.name);
      res.status(429).json({ error: options.message, code: "rate_limited" });
    },
  });
}
