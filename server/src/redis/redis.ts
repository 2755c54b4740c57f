import { Redis } from "ioredis";
import RedisMock from "ioredis-mock";

/**
 * Redis holds only what can be rebuilt from PostgreSQL (leaderboards). With no REDIS_URL an in-memory
 * stand-in with the same API is used, so the product runs on a bare machine.
 */
export function openRedis(url: string | undefined): Redis {
  if (url) return new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
  // Each stand-in gets its own keyspace (mocks share one per host:port otherwise).
  return new RedisMock({ port: 10_000 + Math.floor(Math.random() * 50_000) }) as unknown as Redis;
}

export async function pingRedis(redis: Redis): Promise<boolean> {
  try {
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  }
}
