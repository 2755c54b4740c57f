import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedCommitment } from "@casino/common";
import { CommitNextSeeds1763800000001 } from "../src/platform/db/migrations/1763800000001-commit-next-seeds";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask, waitFor } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

/** Joins the casino room, with join options, and waits for the first state. */
async function join(token: string, options: Record<string, unknown> = {}) {
  const room = await t.sdk(token).create("casino", options);
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as any)?.nextServerSeedHash);
  return { room, inbox, state: () => room.state as any };
}

const seedsOf = async (token: string, playerId: string) => (await t.request("GET", `/api/player/${playerId}/seeds`, { token })).body;

describe("pre-committed next server seed", () => {
  it("is shown before the player changes anything: in GET seeds and in the room state, never the seed itself", async () => {
    const { token, player } = await t.guest();
    const seeds = await seedsOf(token, player.id);
    expect(seeds.active).toMatchObject({
      nonce: 0,
      serverSeedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      nextServerSeedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(seeds.active.nextServerSeedHash).not.toBe(seeds.active.serverSeedHash);
    expect(JSON.stringify(seeds)).not.toMatch(/"serverSeed"/);
    const c = await join(token);
    expect(c.state().serverSeedHash).toBe(seeds.active.serverSeedHash);
    expect(c.state().nextServerSeedHash).toBe(seeds.active.nextServerSeedHash);
    await c.room.leave();
  });

  it("setting a client seed promotes the seed whose hash was shown before the client seed was sent", async () => {
    const { token, player } = await t.guest();
    const a = await join(token);
    const b = await join(token);
    const shownActive = a.state().serverSeedHash;
    const shownNext = a.state().nextServerSeedHash;
    await ask(a.room, a.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });

    const set = await ask(a.room, a.inbox, "seed:client", { clientSeed: "lucky-player-chosen" });
    expect(set.type).toBe("result");
    // The old active seed is revealed and matches what was shown.
    expect(set.body.revealed.serverSeedHash).toBe(shownActive);
    expect(seedCommitment(set.body.revealed.serverSeed)).toBe(shownActive);
    expect(set.body.revealed.nonces).toBe(1);
    // The new active seed is the one committed before: same hash; a new next seed is committed at once.
    expect(set.body.active).toMatchObject({ serverSeedHash: shownNext, clientSeed: "lucky-player-chosen", nonce: 0 });
    expect(set.body.active.nextServerSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect([shownActive, shownNext]).not.toContain(set.body.active.nextServerSeedHash);

    // Every view agrees: both connections' state (the one that asked, at once from the answer) and GET seeds.
    expect(a.state()).toMatchObject({ serverSeedHash: shownNext, clientSeed: "lucky-player-chosen", nonce: 0 });
    await waitFor(() => b.state().nextServerSeedHash === set.body.active.nextServerSeedHash);
    expect(b.state()).toMatchObject({ serverSeedHash: shownNext, clientSeed: "lucky-player-chosen", nonce: 0 });
    const seeds = await seedsOf(token, player.id);
    expect(seeds.active).toEqual(set.body.active);

    // Rotating later reveals the promoted seed: it hashes to the next hash shown at the very start.
    const bet = await ask(a.room, a.inbox, "bet", { game: "dice", amount: 26, params: { target: 50, direction: "over" } });
    expect(bet.body.fairness).toEqual({ serverSeedHash: shownNext, clientSeed: "lucky-player-chosen", nonce: 0 });
    const rotated = await ask(b.room, b.inbox, "seed:rotate", {});
    expect(seedCommitment(rotated.body.revealed.serverSeed)).toBe(shownNext);
    expect(rotated.body.active.serverSeedHash).toBe(set.body.active.nextServerSeedHash);
    // A plain rotation keeps the client seed; the server seed changes, so no stream repeats.
    expect(rotated.body.active.clientSeed).toBe("lucky-player-chosen");
    await a.room.leave();
    await b.room.leave();
  });
});

describe("the browser's client seed at join", () => {
  it("becomes the first client seed of a player whose pair was never used", async () => {
    const { token, player } = await t.guest();
    const before = await seedsOf(token, player.id);
    const c = await join(token, { clientSeed: "made-in-the-browser" });
    await waitFor(() => c.state().clientSeed === "made-in-the-browser");
    const after = await seedsOf(token, player.id);
    // Same committed server seeds: only the client seed is the browser's.
    expect(after.active).toEqual({ ...before.active, clientSeed: "made-in-the-browser" });
    const bet = await ask(c.room, c.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "tails" } });
    expect(bet.body.fairness.clientSeed).toBe("made-in-the-browser");
    await c.room.leave();
  });

  it("is ignored once the pair has served a bet, or after a rotation; without one the server's own stays", async () => {
    const { token, player } = await t.guest();
    const first = await join(token);
    expect(first.state().clientSeed).toMatch(/^[0-9a-f]{16}$/); // the server's fallback
    await ask(first.room, first.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "tails" } });
    const used = await join(token, { clientSeed: "too-late-for-this-pair" });
    expect(used.state().clientSeed).toBe(first.state().clientSeed);

    const other = await t.guest();
    const rotator = await join(other.token);
    await ask(rotator.room, rotator.inbox, "seed:rotate", {});
    const afterRotation = await join(other.token, { clientSeed: "also-too-late" });
    expect(afterRotation.state().clientSeed).not.toBe("also-too-late");
    expect((await seedsOf(other.token, other.player.id)).active.clientSeed).not.toBe("also-too-late");
    expect((await seedsOf(token, player.id)).active.clientSeed).toBe(first.state().clientSeed);
    for (const c of [first, used, rotator, afterRotation]) await c.room.leave();
  });

  it("refuses a join whose client seed is not a valid one, with the reason", async () => {
    const { token } = await t.guest();
    await expect(t.sdk(token).create("casino", { clientSeed: "has a space" })).rejects.toThrow(
      /clientSeed must be printable ASCII without spaces/,
    );
  });
});

describe("players from before pre-commitment", () => {
  it("get a committed next seed from the migration", async () => {
    const { token, player } = await t.guest();
    await t.sql(`DELETE FROM next_server_seeds WHERE player_id = $1`, [player.id]);
    const runner = t.app.services.db.dataSource.createQueryRunner();
    try {
      await new CommitNextSeeds1763800000001().up(runner);
    } finally {
      await runner.release();
    }
    const [row] = await t.sql(`SELECT server_seed, server_seed_hash FROM next_server_seeds WHERE player_id = $1`, [player.id]);
    expect(seedCommitment(row.server_seed)).toBe(row.server_seed_hash);
    expect((await seedsOf(token, player.id)).active.nextServerSeedHash).toBe(row.server_seed_hash);
  });
});
