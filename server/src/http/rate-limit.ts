import type { Request } from "express";
import { rateLimit } from "express-rate-limit";

/** A rate limit that answers 429 as JSON `{ error, code: "rate_limited" }`, like every other API error. */
export function jsonRateLimit(options: { windowMs: number; limit: number; key: (req: Request) => string; message: string }) {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    keyGenerator: options.key,
    handler: (_req, res) => res.status(429).json({ error: options.message, code: "rate_limited" }),
  });
}
