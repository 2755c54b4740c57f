import { Redis } from "ioredis";
import RedisMock from "ioredis-mock";
import { describeError, type Log } from "../log";

/**
 * Redis holds only what can be rebuilt from PostgreSQL (leaderboards, rate-limit counters, Colyseus's
 * room listings). With no REDIS_URL an in-memory stand-in with the same API is used, so the product
 * runs on a bare machine.
 *
 * Every real client gets an error listener: without one, ioredis prints "Unhandled error event" with a
 * stack for every failed reconnection attempt while Redis is down. `name` says which client it is.
 *
 * With `autoPipelining`, commands issued in the same turn of the event loop leave in one write: under
 * load the requests of many players (their rate-limit scripts) share a system call, which on these
 * machines costs more than such a command. Not for a connection whose commands are slow in Redis (a
 * board page's script): Redis answers a pipeline once it has run all of it, so the server would wait
 * for the slowest instead of working on the first answers meanwhile.
 */
export function openRedis(url: string | undefined, log: Log, name = "app", options: { autoPipelining?: boolean } = {}): Redis {
  if (!url) {
    // Each stand-in gets its own keyspace (mocks share one per host:port otherwise).
    return new RedisMock({ port: 10_000 + Math.floor(Math.random() * 50_000) }) as unknown as Redis;
  }
  const redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false, enableAutoPipelining: options.autoPipelining ?? false });
  redis.on("error", (error) => log.warn("redis", `Redis (${name} connection): ${describeError(error)}`));
  return redis;
}

/** The in-memory stand-in (no REDIS_URL), which has no SCRIPT LOAD and no network to save. */
export const isStandIn = (redis: Redis): boolean => redis instanceof RedisMock;

/** Whether commands would be sent now rather than queued until a reconnection (the stand-in is always ready). */
export function redisReady(redis: Redis): boolean {
  return isStandIn(redis) || redis.status === "ready";
}

export async function pingRedis(redis: Redis): Promise<boolean> {
  if (!redisReady(redis)) return false;
  try {
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  }
}
