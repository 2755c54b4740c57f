import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Redis } from "ioredis";
import { Log } from "../src/platform/log";
import { openRedis } from "../src/platform/redis/redis";
import { TokenBuckets } from "../src/platform/redis/token-bucket";
import { SharedRateLimitStore } from "../src/platform/redis/rate-limit-store";
import { TEST_DB, leaseRedisDb } from "./harness";

/**
 * The shared limit primitives on both Redis implementations the server meets: the real one (PostgreSQL
 * project) and the in-memory stand-in, which has no SCRIPT LOAD or EVALSHA.
 */
const quietLog = () => {
  const lines: string[] = [];
  return { lines, log: new Log({ destination: { write: (line: string) => void lines.push(line) } }) };
};

const backends: [string, () => Promise<{ redis: Redis; release: () => Promise<void> }>][] = [
  ["the in-memory stand-in", async () => ({ redis: openRedis(undefined, quietLog().log), release: async () => undefined })],
];
if (TEST_DB === "postgres") {
  backends.push([
    "Redis",
    async () => {
      const lease = await leaseRedisDb(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
      const redis = openRedis(lease.url, quietLog().log);
      await redis.ping();
      return { redis, release: async () => (redis.disconnect(), await lease.release()) };
    },
  ]);
}

describe.each(backends)("on %s", (_name, open) => {
  let redis: Redis;
  let release: () => Promise<void>;
  beforeAll(async () => ({ redis, release } = await open()));
  afterAll(async () => release?.());

  it("a token bucket gives its capacity at once, then refuses with the wait, per key, for every instance sharing the Redis", async () => {
    const rule = { capacity: 3, perSecond: 0.5 };
    const [first, second] = [new TokenBuckets(redis, quietLog().log), new TokenBuckets(redis, quietLog().log)];
    const takes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? first : second).take("player-1", rule)));
    expect(takes.filter((t) => t.allowed)).toHaveLength(3);
    for (const refused of takes.filter((t) => !t.allowed)) {
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(2000);
    }
    expect((await first.take("player-2", rule)).allowed).toBe(true);
  });

  it("a REST store counts one window for every store with the same prefix", async () => {
    const options = { windowMs: 60_000 } as never;
    const [first, second] = [
      new SharedRateLimitStore(redis, "rate:test:", quietLog().log),
      new SharedRateLimitStore(redis, "rate:test:", quietLog().log),
    ];
    await first.init(options);
    await second.init(options);
    const hits = [];
    for (let i = 0; i < 4; i++) hits.push((await (i % 2 ? first : second).increment("203.0.113.1")).totalHits);
    expect(hits).toEqual([1, 2, 3, 4]);
    await first.decrement("203.0.113.1");
    expect((await second.get("203.0.113.1"))?.totalHits).toBe(3);
    await second.resetKey("203.0.113.1");
    expect((await first.increment("203.0.113.1")).totalHits).toBe(1);
  });

  it.runIf(_name === "Redis")("a REST store sends its script by hash, and again in full only once Redis has forgotten it", async () => {
    // What the store sends on this client, in order (MONITOR would show it too, but ioredis misreads a
    // monitored line that arrives in one chunk with MONITOR's own answer, as it can on a busy Redis).
    const seen: string[] = [];
    const sent = { evalsha: redis.evalsha.bind(redis), eval: redis.eval.bind(redis) } as Record<string, (...args: unknown[]) => unknown>;
    const record = (name: "evalsha" | "eval") =>
      vi.spyOn(redis, name).mockImplementation(((...args: unknown[]) => {
        if (args.some((a) => typeof a === "string" && a.includes("rate:sha:"))) seen.push(name.toUpperCase());
        return sent[name]!(...args);
      }) as never);
    const spies = [record("evalsha"), record("eval")];
    try {
      // Scripts are Redis-wide: forget them first (everything of ours falls back to EVAL on its own).
      await redis.script("FLUSH");
      const store = new SharedRateLimitStore(redis, "rate:sha:", quietLog().log);
      await store.init({ windowMs: 60_000 } as never);
      for (let i = 0; i < 5; i++) await store.increment("198.51.100.7");
      await redis.script("FLUSH");
      expect((await store.increment("198.51.100.7")).totalHits).toBe(6);
      // Unknown to Redis after each flush: the store's EVALSHA is refused and it sends the script in full
      // once (EVAL), then by hash again. Scripts are Redis-wide, and every server of the test files beside
      // this one runs the same script: one may load it between the flush and the store's call, and then
      // the EVALSHA is answered with no EVAL after it. Either way: never in full first, never twice in a
      // row, every other call by hash (a store that did not fall back would have failed its increments).
      expect(seen.join(" ")).toMatch(/^EVALSHA( EVAL)?( EVALSHA){4} EVALSHA( EVAL)?$/);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe("while Redis is unreachable", () => {
  it("limits still hold, per process, and the log says so once", async () => {
    const { lines, log } = quietLog();
    // Nothing listens on port 1; the client keeps retrying in the background.
    const redis = openRedis("redis://127.0.0.1:1", log);
    try {
      const buckets = new TokenBuckets(redis, log);
      const takes = [];
      for (let i = 0; i < 5; i++) takes.push(await buckets.take("player", { capacity: 2, perSecond: 0.1 }));
      expect(takes.map((t) => t.allowed)).toEqual([true, true, false, false, false]);
      const store = new SharedRateLimitStore(redis, "rate:down:", log);
      await store.init({ windowMs: 60_000 } as never);
      expect((await store.increment("a")).totalHits).toBe(1);
      expect((await store.increment("a")).totalHits).toBe(2);
      expect(lines.filter((l) => /held per process/.test(l))).toHaveLength(2);
    } finally {
      redis.disconnect();
    }
  });
});
