import { Redis } from "ioredis";
import RedisMock from "ioredis-mock";
import { describeError, type Log } from "../log";

/** The longest any Redis command waits for its answer; far above what a board page's script takes. */
export const REDIS_COMMAND_TIMEOUT_MS = 5_000;
/** The boards' connection: a build's pipeline of a million players takes seconds on a busy Redis. */
export const BOARD_COMMAND_TIMEOUT_MS = 60_000;

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
 *
 * Every command gives up after REDIS_COMMAND_TIMEOUT_MS (BOARD_COMMAND_TIMEOUT_MS on the boards'
 * connection, whose builds send a whole board in one pipeline). ioredis fails queued commands after
 * `maxRetriesPerRequest` failed reconnections, but not a command that was on the wire when the
 * connection dropped: that one waits to be sent again once Redis is back. Where something in front of
 * Redis accepts connections and resets them (a proxy or a container port with Redis stopped), the
 * request that sent it would wait the whole outage.
 */
export function openRedis(
  url: string | undefined,
  log: Log,
  name = "app",
  options: { autoPipelining?: boolean; commandTimeoutMs?: number } = {},
): Redis {
  if (!url) {
    // Each stand-in gets its own keyspace (mocks share one per host:port otherwise).
    return new RedisMock({ port: 10_000 + Math.floor(Math.random() * 50_000) }) as unknown as Redis;
  }
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    commandTimeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    lazyConnect: false,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  redis.on("error", (error) => log.warn("redis", `Redis (${name} connection): ${describeError(error)}`));
  return redis;
}

/** The in-memory stand-in (no REDIS_URL), which has no SCRIPT LOAD and no network to save. */
export const isStandIn = (redis: Redis): boolean => redis instanceof RedisMock;

/** Whether commands would be sent now rather than queued until a reconnection (the stand-in is always ready). */
export function redisReady(redis: Redis): boolean {
  return isStandIn(redis) || redis.status === "ready";
}

/** Whether Redis answers a PING within `timeoutMs`. */
export async function pingRedis(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (!redisReady(redis)) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    return (await Promise.race([redis.ping().then((answer) => answer === "PONG"), late])) === true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
