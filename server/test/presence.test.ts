import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { RedisPresence } from "@colyseus/redis-presence";
import { Log } from "../src/platform/log";
import { openRedis } from "../src/platform/redis/redis";
import { QuietRedisPresence } from "../src/platform/redis/presence";

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const quietLog = () => new Log({ destination: { write: () => undefined } });

describe("the Redis presence while Redis is unreachable", () => {
  const presences: RedisPresence[] = [];
  afterAll(() => presences.forEach((p) => p.shutdown()));

  /** Unhandled rejections raised while an HSET nobody awaits (as Colyseus's statistics send it) fails beside one that is awaited. */
  async function unhandledOf(presence: RedisPresence): Promise<unknown[]> {
    presences.push(presence);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    const others = process.listeners("unhandledRejection");
    process.removeAllListeners("unhandledRejection");
    process.on("unhandledRejection", listener);
    try {
      void presence.hset("roomcount", "process", "1,1");
      await expect(presence.hset("roomcount", "process", "1,2")).rejects.toThrow(/max retries/);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("unhandledRejection", listener);
      for (const other of others) process.on("unhandledRejection", other);
    }
    return unhandled;
  }

  it("Colyseus's own presence leaves the HSET nobody awaits unhandled (why ours exists)", async () => {
    const unhandled = await unhandledOf(new RedisPresence(openRedis(`redis://127.0.0.1:${await closedPort()}`, quietLog(), "presence")));
    expect(unhandled.map((e) => String((e as Error).message))).toEqual([expect.stringMatching(/max retries/)]);
  });

  it("ours handles it, and an awaited HSET still fails", async () => {
    const unhandled = await unhandledOf(
      new QuietRedisPresence(openRedis(`redis://127.0.0.1:${await closedPort()}`, quietLog(), "presence")),
    );
    expect(unhandled).toEqual([]);
  });
});

describe("the Redis presence's channels", () => {
  const presences: RedisPresence[] = [];
  afterAll(() => presences.forEach((p) => p.shutdown()));
  const server = (process.env.REDIS_URL ?? "redis://127.0.0.1:6379").replace(/\/\d+$/, "");
  const on = (db: number) => {
    const presence = new QuietRedisPresence(openRedis(`${server}/${db}`, quietLog(), "presence"));
    presences.push(presence);
    return presence;
  };

  // Redis's pub/sub is the whole server's: two deployments or test files on other databases heard each other.
  it("are its database's: a presence on another database of the same Redis server hears nothing of them", async () => {
    const [publisher, sameDatabase, otherDatabase, otherPublisher] = [on(14), on(14), on(15), on(15)];
    const topic = `isolation:${randomUUID()}`;
    const heard = { same: [] as unknown[], other: [] as unknown[] };
    await sameDatabase.subscribe(topic, (message: unknown) => heard.same.push(message));
    await otherDatabase.subscribe(topic, (message: unknown) => heard.other.push(message));
    await publisher.publish(topic, { n: 1 });
    await expect.poll(() => heard.same, { timeout: 10_000 }).toEqual([{ n: 1 }]);
    // Redis runs commands one at a time: the first message went out before the second was published.
    await otherPublisher.publish(topic, { n: 2 });
    await expect.poll(() => heard.other, { timeout: 10_000 }).toEqual([{ n: 2 }]);
    expect(heard.same).toEqual([{ n: 1 }]);
    expect(await otherDatabase.channels("isolation:*")).toContain(topic);
  });
});
