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
 * it (the balance, the history), and the second start opens the migrated folder as it is.
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
});
