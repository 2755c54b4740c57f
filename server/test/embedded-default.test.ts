import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { HistoryPage } from "@casino/common";
import { TEST_DB } from "./harness";
import { api, guestOn, joinOn } from "./process-helpers";
import { ask, waitFor } from "./room-helpers";
import { startServerProcess, type ServerProcess } from "./server-process";

/**
 * The embedded default as `npm start` runs it: no DATABASE_URL and no REDIS_URL, so PGlite keeps the data
 * in DATA_DIR and the in-memory stand-in serves Redis. A bet made before a restart is still there after
 * it (the balance, the history), and the second start opens the migrated folder as it is. PGlite runs
 * without fsync (docs/operations.md, "Durability of the embedded default"): an answered bet has reached
 * the operating system, so it survives the process being killed outright, which the second case proves.
 */
describe.runIf(TEST_DB === "pglite")("the embedded default across a restart", { timeout: 180_000 }, () => {
  let dir = "";
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("keeps a bet's money and history in DATA_DIR, and starts again on the migrated folder", async () => {
    dir = await mkdtemp(join(tmpdir(), "casino-embedded-"));
    const env = { DATA_DIR: dir, DATABASE_URL: undefined, REDIS_URL: undefined };
    server = await startServerProcess({ env, name: "embedded-a" });

    const { token, player: guest } = await guestOn(server);
    const playerId = guest.id as string;
    const { room, inbox } = await joinOn(server, token);
    const { type, body } = await ask(room, inbox, "bet", { game: "dice", amount: 40, params: { target: 50, direction: "under" } });
    expect(type).toBe("result");
    const balance = body.balance as number;
    expect(balance).toBe(1000 - 40 + (body.payout as number));
    await waitFor(() => (room.state as { balance: number }).balance === balance);
    await room.leave();

    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });

    server = await startServerProcess({ env, name: "embedded-b" });
    const player = await api(server, "GET", `/api/player/${playerId}`, { token });
    expect(player.status).toBe(200);
    expect(player.body.balance).toBe(balance);
    const history = await api(server, "GET", `/api/player/${playerId}/history`, { token });
    expect(history.status).toBe(200);
    expect((history.body as HistoryPage).items.map((item) => [item.gameType, item.betAmount, item.payout])).toEqual([
      ["dice", 40, body.payout],
    ]);
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });

  it("keeps every answered bet when the process is killed outright (SIGKILL), and starts again on the folder", async () => {
    dir ||= await mkdtemp(join(tmpdir(), "casino-embedded-"));
    const env = { DATA_DIR: dir, DATABASE_URL: undefined, REDIS_URL: undefined };
    server = await startServerProcess({ env, name: "embedded-c" });
    const { token, player: guest } = await guestOn(server);
    const { room, inbox } = await joinOn(server, token);
    let balance = 0;
    for (let i = 0; i < 5; i++) {
      const { type, body } = await ask(room, inbox, "bet", { game: "dice", amount: 10, params: { target: 50, direction: "under" } });
      expect(type).toBe("result");
      balance = body.balance as number;
    }
    expect(await server.stop("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });

    server = await startServerProcess({ env, name: "embedded-d" });
    const player = await api(server, "GET", `/api/player/${guest.id as string}`, { token });
    expect(player.status).toBe(200);
    expect(player.body.balance).toBe(balance);
    const history = await api(server, "GET", `/api/player/${guest.id as string}/history`, { token });
    expect((history.body as HistoryPage).items).toHaveLength(5);
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  });
});
