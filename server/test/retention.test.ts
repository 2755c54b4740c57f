import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, GAMES, replayRound } from "@casino/common";
import { casesOf } from "../../common/test/games/cases";
import { Retention } from "../src/ops/retention";
import { TEST_DB, startTestApp, type TestApp } from "./harness";
import { ask, joinCasino, newRequestId, waitFor } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  // The server's own sweep runs every second here, alongside the sweeps the tests call: both are safe.
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000", RETENTION_SWEEP_SECONDS: "1" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params));
const balanceOf = async (playerId: string) => Number((await sql(`SELECT balance FROM players WHERE id = $1`, [playerId]))[0].balance);
const openRoundOf = async (playerId: string) => (await sql(`SELECT * FROM open_rounds WHERE player_id = $1`, [playerId]))[0];
const abandon = (playerId: string) =>
  sql(`UPDATE open_rounds SET last_action_at = now() - interval '2 hours' WHERE player_id = $1`, [playerId]);
const sweep = () => t.app.services.retention.sweep();

type Connection = Awaited<ReturnType<typeof joinCasino>>;

type Prepare = (view: any) => unknown;

/** The stake: 10 coins (on the chip tables here, the chips' total). */
const stakeFor = (_game: string, _params: unknown) => 10;

/** Opens a round of `game`, then acts as `prepare` says until it says null; starts again until a round is left open. */
async function openRound(c: Connection, game: string, params: unknown, prepare: Prepare = () => null) {
  for (let attempt = 0; attempt < 40; attempt++) {
    let last = await ask(c.room, c.inbox, "bet", { game, amount: stakeFor(game, params), params });
    expect(last.type, JSON.stringify(last.body)).toBe("result");
    for (let action = prepare(last.body.view); action && !last.body.done; action = prepare(last.body.view)) {
      last = await ask(c.room, c.inbox, "act", { action });
      expect(last.type, JSON.stringify(last.body)).toBe("result");
    }
    if (!last.body.done) return last.body;
  }
  throw new Error(`no ${game} round stayed open`);
}

/** Mines: reveal one gem (tile 12), then leave the round open. */
const oneGem: Prepare = (view) => (view.revealed.length > 0 ? null : { type: "reveal", tile: 12 });

const lastSession = async (playerId: string) =>
  (await sql(`SELECT * FROM game_sessions WHERE player_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [playerId]))[0];

describe("abandoned rounds", () => {
  // every game whose round stays open (its engine has a default action), with its cases' abandoned rounds
  const multiStep = GAMES.filter((g) => g.kind === "chance" && ENGINES[g.id]?.defaultAction).map((g) => g.id);
  const cases = multiStep.flatMap((game) => (casesOf(game).abandoned ?? []).map((c) => ({ game, ...c })));

  it.each(multiStep)("%s has abandoned rounds in its cases file", (game) => {
    expect(casesOf(game).abandoned?.length ?? 0, `common/test/games/${game}.cases.ts exports no \`abandoned\``).toBeGreaterThan(0);
  });

  it.each(cases)(
    "$game (voided: $voided) is settled by its default action through the ledger, exactly once",
    async ({ game, params, prepare, voided, defaults }) => {
      const { token, player } = await t.guest();
      const c = await joinCasino(t, token);
      const open = await openRound(c, game, params, prepare);
      const round = await openRoundOf(player.id);
      const before = await balanceOf(player.id);
      await abandon(player.id);
      await sweep();
      expect(await openRoundOf(player.id)).toBeUndefined();

      const session = await lastSession(player.id);
      expect(session.request_id).toBe(round.request_id);
      const defaultActions = (session.actions as unknown[]).slice((round.actions as unknown[]).length);
      defaults(defaultActions as any[]);
      const credited = Number(session.payout) - Number(round.total_payout);
      expect(await balanceOf(player.id)).toBe(before + credited);
      const entries = await sql(`SELECT delta, reason FROM ledger_entries WHERE player_id = $1 AND request_id LIKE $2`, [
        player.id,
        `#abandoned:${round.id}#%`,
      ]);
      expect(entries.map((e: any) => [Number(e.delta), e.reason])).toEqual(credited > 0 ? [[credited, voided ? "refund" : "payout"]] : []);
      // The room shows it: no open round, the new balance.
      await waitFor(() => c.inbox.openRound() === null && (c.room.state as any).balance === before + credited);

      const rotated = await ask(c.room, c.inbox, "seed:rotate", {});
      const replay = replayRound(
        { serverSeed: rotated.body.revealed.serverSeed, clientSeed: open.fairness.clientSeed, nonce: session.nonce },
        { game, amount: stakeFor(game, session.params), params: session.params, actions: session.actions, rounding: session.rounding },
      );
      if (voided) {
        expect(session.outcome.voided).toBe(true);
        expect(Number(session.payout)).toBe(Number(session.bet_amount));
        expect(session.result).toBe("push");
      } else {
        expect(replay.done).toBe(true);
        expect(replay.totalPayout).toBe(Number(session.payout));
        expect(replay.view).toEqual(session.outcome);
      }
      await c.room.leave();
    },
  );

  it("settles each round once however many sweeps run at the same time", async () => {
    const players = await Promise.all(Array.from({ length: 6 }, () => t.guest()));
    const rounds: { playerId: string; roundId: string; requestId: string }[] = [];
    for (const { token, player } of players) {
      const c = await joinCasino(t, token);
      await openRound(c, "mines", { mines: 1 }, oneGem);
      const round = await openRoundOf(player.id);
      rounds.push({ playerId: player.id, roundId: round.id, requestId: round.request_id });
      await c.room.leave();
    }
    for (const r of rounds) await abandon(r.playerId);
    const s = t.app.services;
    const sweepers = Array.from({ length: 4 }, () => new Retention(s.db, s.ledger, s.config.retention, s.log));
    await Promise.all(sweepers.map((r) => r.settleAbandonedRounds()));
    for (const r of rounds) {
      expect(await openRoundOf(r.playerId)).toBeUndefined();
      const payouts = await sql(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND request_id = $2`, [
        r.playerId,
        `#abandoned:${r.roundId}#payout`,
      ]);
      expect(payouts[0].n).toBe(1);
      const sessions = await sql(`SELECT count(*)::int AS n FROM game_sessions WHERE player_id = $1 AND request_id = $2`, [
        r.playerId,
        r.requestId,
      ]);
      expect(sessions[0].n).toBe(1);
    }
  });

  it("leaves a round that was acted on recently: every action restarts its clock", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    await openRound(c, "hi-lo", {});
    await sql(`UPDATE open_rounds SET last_action_at = now() - interval '59 minutes' WHERE player_id = $1`, [player.id]);
    await sweep();
    expect(await openRoundOf(player.id)).toBeDefined();
    expect((await ask(c.room, c.inbox, "act", { action: { type: "skip" } })).body.done).toBe(false);
    const [clock] = await sql(`SELECT last_action_at > now() - interval '1 minute' AS fresh FROM open_rounds WHERE player_id = $1`, [
      player.id,
    ]);
    expect(clock.fresh).toBe(true);
    await sweep();
    const round = await openRoundOf(player.id);
    expect(round.actions).toEqual([{ type: "skip" }]);
    await c.room.leave();
  });

  it("is done by the server on its own, periodically", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    await openRound(c, "video-poker", {});
    await c.room.leave();
    await abandon(player.id);
    let gone = false;
    for (let i = 0; i < 200 && !gone; i++) {
      gone = (await openRoundOf(player.id)) === undefined;
      if (!gone) await new Promise((r) => setTimeout(r, 50));
    }
    expect(gone).toBe(true);
  });

  it.runIf(TEST_DB === "postgres")(
    "skips a player who is playing right now (row locked) and settles the round on a later sweep",
    async () => {
      const { token, player } = await t.guest();
      const c = await joinCasino(t, token);
      await openRound(c, "poker", {});
      const holder = new pg.Client({ connectionString: t.app.services.config.databaseUrl as string });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM players WHERE id = $1 FOR UPDATE`, [player.id]);
      await abandon(player.id);
      await sweep();
      expect(await openRoundOf(player.id)).toBeDefined();
      await holder.query("ROLLBACK");
      await holder.end();
      await sweep();
      expect(await openRoundOf(player.id)).toBeUndefined();
      await c.room.leave();
    },
  );
});

describe("stored answers", () => {
  it("are pruned after the retention period; a pruned id is refused, never run twice", async () => {
    const { token, player } = await t.guest();
    const c = await joinCasino(t, token);
    const oldId = newRequestId();
    const bet = { requestId: oldId, game: "dice", amount: 20, params: { target: 49.5, direction: "under" } };
    expect((await ask(c.room, c.inbox, "bet", bet)).type).toBe("result");
    const recent = await ask(c.room, c.inbox, "bet", { ...bet, requestId: newRequestId() });
    await sql(`UPDATE processed_requests SET created_at = now() - interval '8 days' WHERE player_id = $1 AND request_id = $2`, [
      player.id,
      oldId,
    ]);
    await sweep();
    const kept = await sql(`SELECT request_id FROM processed_requests WHERE player_id = $1`, [player.id]);
    expect(kept.map((r: any) => r.request_id)).toEqual([recent.body.requestId]);
    const balance = await balanceOf(player.id);
    c.room.send("bet", bet);
    await waitFor(() => c.inbox.messages.filter((m) => m.body?.requestId === oldId).length === 2);
    const again = c.inbox.messages.filter((m) => m.body?.requestId === oldId)[1]!;
    expect(again.type).toBe("error");
    expect(again.body.code).toBe("request_id_reused");
    expect(await balanceOf(player.id)).toBe(balance);
    await c.room.leave();
  });
});

describe("tonight boards' starting points", () => {
  it("are deleted once the day before yesterday is over; today's and yesterday's stay", async () => {
    const res = await t.request("POST", "/api/token", { body: { code: "ok:8500001:Tonight", instanceId: "inst-retention" } });
    expect(res.status).toBe(200);
    const playerId = res.body.player.id as string;
    for (const daysAgo of [0, 1, 2, 5])
      await sql(
        `INSERT INTO tonight_joins (instance_id, day, player_id, joined_at)
         VALUES ('inst-retention', (now() AT TIME ZONE 'UTC')::date - $2::int, $1, now() - interval '1 day' * $2::int)`,
        [playerId, daysAgo],
      );
    await sweep();
    const left = await sql(
      `SELECT (now() AT TIME ZONE 'UTC')::date - day AS days_ago FROM tonight_joins WHERE player_id = $1 ORDER BY day DESC`,
      [playerId],
    );
    expect(left.map((r: { days_ago: number }) => Number(r.days_ago))).toEqual([0, 1]);
  });
});

describe("idle guests", () => {
  it("are seen again by a bet once their last-seen time is an hour old; bets within the hour leave it as it was", async () => {
    const guest = await t.guest();
    const c = await joinCasino(t, guest.token);
    const lastSeen = async () =>
      new Date((await sql(`SELECT last_seen_at FROM players WHERE id = $1`, [guest.player.id]))[0].last_seen_at).getTime();
    await sql(`UPDATE players SET last_seen_at = now() - interval '59 minutes' WHERE id = $1`, [guest.player.id]);
    const recent = await lastSeen();
    await ask(c.room, c.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    expect(await lastSeen()).toBe(recent);
    await sql(`UPDATE players SET last_seen_at = now() - interval '61 minutes' WHERE id = $1`, [guest.player.id]);
    const dbNow = new Date((await sql(`SELECT now() AS now`))[0].now).getTime();
    await ask(c.room, c.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    expect(await lastSeen()).toBeGreaterThanOrEqual(dbNow);
    await c.room.leave();
  });

  it("are archived with their rows kept; their session stops working", async () => {
    const idle = await t.guest();
    const c = await joinCasino(t, idle.token);
    await ask(c.room, c.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    await c.room.leave();
    const ledgerBefore = await sql(`SELECT id FROM ledger_entries WHERE player_id = $1 ORDER BY id`, [idle.player.id]);
    const withRound = await t.guest();
    const r = await joinCasino(t, withRound.token);
    await openRound(r, "poker", {});
    await r.room.leave();
    const active = await t.guest();
    const discord = (await t.request("POST", "/api/token", { body: { code: "ok:424242:Sleepy" } })).body;
    for (const id of [idle.player.id, withRound.player.id, discord.player.id]) {
      await sql(`UPDATE players SET last_seen_at = now() - interval '31 days' WHERE id = $1`, [id]);
    }
    const archived = async (id: string) => (await sql(`SELECT archived_at FROM players WHERE id = $1`, [id]))[0].archived_at !== null;
    // The server's own sweep (every second here) may hold the row for a moment and archive it itself;
    // ours then skips it. A few sweeps in a row must get it either way.
    for (let i = 0; i < 5 && !(await archived(idle.player.id)); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      await sweep();
    }
    expect(await archived(idle.player.id)).toBe(true);
    expect(await archived(withRound.player.id)).toBe(false); // its round is settled first, after its own period
    expect(await archived(active.player.id)).toBe(false);
    expect(await archived(discord.player.id)).toBe(false);
    expect(await sql(`SELECT id FROM ledger_entries WHERE player_id = $1 ORDER BY id`, [idle.player.id])).toEqual(ledgerBefore);

    const rest = await t.request("GET", `/api/player/${idle.player.id}/seeds`, { token: idle.token });
    expect(rest).toMatchObject({ status: 401, body: { code: "account_archived" } });
    const spin = await t.request("POST", "/api/daily-spin", { token: idle.token, body: { playerId: idle.player.id } });
    expect(spin.status).toBe(401);
    await expect(t.sdk(idle.token).create("casino")).rejects.toThrow(/archived/);
    expect((await t.request("GET", `/api/player/${active.player.id}/seeds`, { token: active.token })).status).toBe(200);
  });

  it.runIf(TEST_DB === "postgres")(
    "are archived while a consumer's foreign-key check holds KEY SHARE on them, never while a money request holds their lock",
    async () => {
      const keyShared = await t.guest();
      const locked = await t.guest();
      // Idle as seen from 31 days ahead: the sweep running every second in the background sees them
      // active, so only the calls below can archive them, each while the locks are as the test says.
      const later = new Date(Date.now() + 31 * 24 * 3600_000);
      const holder = new pg.Client({ connectionString: t.app.services.config.databaseUrl as string });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        // What an insert into player_progress or player_game_counts takes on the player's row until it commits.
        await holder.query(`SELECT 1 FROM players WHERE id = $1 FOR KEY SHARE`, [keyShared.player.id]);
        // What the money path takes.
        await holder.query(`SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE`, [locked.player.id]);
        await t.app.services.retention.archiveIdleGuests(later);
        const archivedAt = async (id: string) => (await sql(`SELECT archived_at FROM players WHERE id = $1`, [id]))[0].archived_at;
        expect(await archivedAt(keyShared.player.id)).not.toBeNull();
        expect(await archivedAt(locked.player.id)).toBeNull();
        await holder.query("ROLLBACK");
        await t.app.services.retention.archiveIdleGuests(later);
        expect(await archivedAt(locked.player.id)).not.toBeNull();
      } finally {
        await holder.end();
      }
    },
  );
});
