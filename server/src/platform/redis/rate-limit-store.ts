import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { MemoryStore, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { describeError, type Log } from "../log";
import { isStandIn, redisReady } from "./redis";

/**
 * The raw commands rate-limit-redis sends, on ioredis or its in-memory stand-in. On Redis its scripts
 * go by hash (EVALSHA), in full (EVAL) only when Redis answers that it does not know the script (after
 * a restart or SCRIPT FLUSH), so a script load that failed while Redis was down cannot stay failed. The
 * stand-in has no SCRIPT LOAD: there they always go as EVAL (nothing crosses a network there).
 */
function sendCommand(redis: Redis) {
  const scripts = new Map<string, string>();
  return async (...args: string[]): Promise<RedisReply> => {
    const [command = "", ...rest] = args;
    const name = command.toUpperCase();
    if (name === "SCRIPT" && rest[0]?.toUpperCase() === "LOAD" && rest[1]) {
      const sha = createHash("sha1").update(rest[1]).digest("hex");
      scripts.set(sha, rest[1]);
      return sha;
    }
    if (name === "EVALSHA") {
      const [sha = "", ...keysAndArgs] = rest as [string, string, ...string[]];
      const script = scripts.get(sha);
      if (!script) throw new Error("NOSCRIPT script not loaded");
      if (!isStandIn(redis)) {
        try {
          return (await redis.evalsha(sha, ...(keysAndArgs as [string, ...string[]]))) as RedisReply;
        } catch (error) {
          if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
        }
      }
      return (await redis.eval(script, ...(keysAndArgs as [string, ...string[]]))) as RedisReply;
    }
    const method = (redis as unknown as Record<string, (...a: string[]) => Promise<RedisReply>>)[command.toLowerCase()];
    if (typeof method !== "function") throw new Error(`unsupported Redis command ${command}`);
    return method.apply(redis, rest);
  };
}

/**
 * A rate-limit store shared by every process through Redis, so a limit of N a minute is N for the
 * whole deployment. While Redis is unreachable a per-process memory store keeps limiting.
 */
export class SharedRateLimitStore implements Store {
  private readonly shared: RedisStore;
  private readonly local = new MemoryStore();
  readonly prefix: string;
  /** Counts live in Redis, not in this process. */
  readonly localKeys = false;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly log: Log,
  ) {
    this.prefix = prefix;
    this.shared = new RedisStore({ sendCommand: sendCommand(redis), prefix });
  }

  async init(options: Options): Promise<void> {
    this.local.init(options);
    await this.shared.init(options);
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.either((store) => store.increment(key));
  }

  async decrement(key: string): Promise<void> {
    await this.either((store) => store.decrement(key));
  }

  async resetKey(key: string): Promise<void> {
    await this.either((store) => store.resetKey(key));
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either((store) => store.get(key));
  }

  private async either<T>(work: (store: RedisStore | MemoryStore) => Promise<T>): Promise<T> {
    if (redisReady(this.redis)) {
      try {
        return await work(this.shared);
      } catch (error) {
        this.log.warn("rest-limits", `REST rate limits are held per process while Redis fails: ${describeError(error)}`);
      }
    } else {
      this.log.warn("rest-limits", "REST rate limits are held per process while Redis is unreachable");
    }
    return work(this.local);
  }
}
