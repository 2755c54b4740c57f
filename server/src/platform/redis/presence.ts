import { RedisPresence } from "@colyseus/redis-presence";
import type { Redis } from "ioredis";

type Callback = (...args: any[]) => void;

/**
 * Colyseus's Redis presence, with two differences.
 *
 * 1. Its channels are its database's. Redis's pub/sub belongs to the whole server, not to a database:
 *    two deployments (or two test runs) on one Redis server with different databases heard each
 *    other's channels, so one's big wins reached the other's global feed. Every channel this presence
 *    subscribes to or publishes on is named with its connection's database (`db3:together:feed:global`);
 *    the processes of one deployment share the database, so they still hear each other.
 * 2. Colyseus persists its process statistics (rooms and connections, `HSET roomcount`) from a timer and
 *    on every join and leave without awaiting the command (`stats.persist()` in @colyseus/core). While
 *    Redis is unreachable that command fails once ioredis gives up on it, and nothing handles the
 *    failure: an unhandled rejection. Here every HSET's promise gets a handler before it is handed back;
 *    a caller that awaits it still sees the failure, one that does not is harmless (the statistic is
 *    written again on the next change, and within a minute in any case).
 */
export class QuietRedisPresence extends RedisPresence {
  private readonly channelPrefix: string;

  constructor(redis: Redis) {
    super(redis);
    this.channelPrefix = `db${redis.options.db ?? 0}:`;
  }

  override subscribe(topic: string, callback: Callback): Promise<this> {
    return super.subscribe(this.channelPrefix + topic, callback);
  }

  override unsubscribe(topic: string, callback?: Callback): Promise<this> {
    return super.unsubscribe(this.channelPrefix + topic, callback);
  }

  override publish(topic: string, data: unknown): Promise<void> {
    return super.publish(this.channelPrefix + topic, data);
  }

  override async channels(pattern = "*"): Promise<string[]> {
    const found = await super.channels(this.channelPrefix + pattern);
    return found.map((channel) => channel.slice(this.channelPrefix.length));
  }

  override hset(key: string, field: string, value: string): Promise<boolean> {
    const pending = super.hset(key, field, value);
    pending.catch(() => undefined);
    return pending;
  }
}
