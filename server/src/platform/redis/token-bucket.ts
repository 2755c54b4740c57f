import type { Redis } from "ioredis";
import type { Log } from "../log";
import { describeError } from "../log";
import { isStandIn, redisReady } from "./redis";

/** A bucket holds up to `capacity` tokens and refills `perSecond` tokens a second; each take costs one. */
export interface BucketRule {
  capacity: number;
  perSecond: number;
}

export interface Take {
  allowed: boolean;
  /** When refused: how long until a token is back. */
  retryAfterMs: number;
}

/**
 * One atomic step of a token bucket, on Redis's own clock so every process agrees on the time (the
 * in-memory stand-in's TIME has no real sub-second part, so there the caller passes its clock as
 * ARGV[3]). The bucket is a hash {tokens, ts} that expires once it would be full again. Sent with EVAL
 * (ioredis's defineCommand tries EVALSHA first and falls back to EVAL), which the stand-in supports too.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now == nil then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now
end
tokens = math.min(capacity, tokens + math.max(0, now - ts) * rate / 1000)
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens))
redis.call('HSET', KEYS[1], 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity * 1000 / rate) + 1000)
return {allowed, wait}
`;

type WithTake = Redis & { casinoTakeToken(key: string, capacity: string, perSecond: string, now?: string): Promise<[number, number]> };

/**
 * Token buckets shared by every process through Redis, so a limit holds however many processes a
 * player's connections are spread over. While Redis is unreachable each process keeps its own buckets:
 * the limits then hold per process instead of not at all, and play goes on.
 *
 * Without a Redis (`redis` undefined: no REDIS_URL, so one process) the buckets are kept in the process
 * only. The script runs on the in-memory stand-in too, but interpreting Lua there costs milliseconds
 * of CPU per call, which the bet path cannot afford.
 */
export class TokenBuckets {
  private readonly redis: WithTake | undefined;
  /** The in-memory stand-in (tests of the script): its TIME is not a clock. */
  private readonly inMemory: boolean;
  private readonly local = new Map<string, { tokens: number; last: number; rule: BucketRule }>();

  constructor(
    redis: Redis | undefined,
    private readonly log: Log,
    private readonly prefix = "bucket:",
  ) {
    redis?.defineCommand("casinoTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as WithTake | undefined;
    this.inMemory = redis !== undefined && isStandIn(redis);
  }

  async take(key: string, rule: BucketRule): Promise<Take> {
    if (!this.redis) return this.takeLocally(key, rule, Date.now());
    if (redisReady(this.redis)) {
      try {
        const args = [this.prefix + key, String(rule.capacity), String(rule.perSecond)] as const;
        const [allowed, wait] = this.inMemory
          ? await this.redis.casinoTakeToken(...args, String(Date.now()))
          : await this.redis.casinoTakeToken(...args);
        return { allowed: Number(allowed) === 1, retryAfterMs: Number(wait) };
      } catch (error) {
        this.log.warn("buckets", `rate limits are held per process while Redis fails: ${describeError(error)}`);
      }
    } else {
      this.log.warn("buckets", "rate limits are held per process while Redis is unreachable");
    }
    return this.takeLocally(key, rule, Date.now());
  }

  private takeLocally(key: string, rule: BucketRule, now: number): Take {
    const bucket = this.local.get(key) ?? { tokens: rule.capacity, last: now, rule };
    bucket.tokens = Math.min(rule.capacity, bucket.tokens + ((now - bucket.last) / 1000) * rule.perSecond);
    bucket.last = now;
    this.local.set(key, bucket);
    if (this.local.size > 10_000) this.forgetFull(now);
    if (bucket.tokens < 1) return { allowed: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) * 1000) / rule.perSecond) };
    bucket.tokens -= 1;
    return { allowed: true, retryAfterMs: 0 };
  }

  /** Full buckets carry no information: drop them so the map stays small. */
  private forgetFull(now: number): void {
    for (const [key, b] of this.local) {
      if (b.tokens + ((now - b.last) / 1000) * b.rule.perSecond >= b.rule.capacity) this.local.delete(key);
    }
  }
}
