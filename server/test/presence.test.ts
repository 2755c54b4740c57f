import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { RedisPresence } from "@colyseus/redis-presence";
import { Log } from "../src/log";
import { openRedis } from "../src/redis/redis";
import { QuietRedisPresence } from "../src/redis/presence";

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
