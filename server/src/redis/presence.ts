import { RedisPresence } from "@colyseus/redis-presence";

/**
 * Colyseus's Redis presence, with one difference. Colyseus persists its process statistics (rooms and
 * connections, `HSET roomcount`) from a timer and on every join and leave without awaiting the command
 * (`stats.persist()` in @colyseus/core). While Redis is unreachable that command fails once ioredis gives
 * up on it, and nothing handles the failure: an unhandled rejection. Here every HSET's promise gets a
 * handler before it is handed back; a caller that awaits it still sees the failure, one that does not is
 * harmless (the statistic is written again on the next change, and within a minute in any case).
 */
export class QuietRedisPresence extends RedisPresence {
  override hset(key: string, field: string, value: string): Promise<boolean> {
    const pending = super.hset(key, field, value);
    pending.catch(() => undefined);
    return pending;
  }
}
