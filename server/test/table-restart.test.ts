import { afterAll, describe, expect, it } from "vitest";
import { Client, type Room } from "@colyseus/sdk";
import pg from "pg";
import { TABLE_MESSAGES, type RevealedShoe, type TableSnapshot } from "@casino/common";
import { verifyShoe } from "@casino/common/verifiers/verify-shoe";
import { TEST_DB, freshDatabaseUrl } from "./harness";
import { startServerProcess, type ServerProcess } from "./server-process";
import { api, auditDatabase, guestOn } from "./process-helpers";
import { Inbox, ask, waitFor } from "./room-helpers";
import { openDatabase } from "../src/platform/db/database";
import { Ledger } from "../src/ledger";
import { Log } from "../src/platform/log";
import { TableStore } from "../src/table/table-store";
import { loadConfig } from "../src/platform/config";
import { Announcements } from "../src/core/ledger/engine/index";

/**
 * The server is killed (SIGKILL) in the middle of a table round, with a seat still to act, and started
 * again on the same PostgreSQL database: the round is played to its end by the default action (the
 * seats still to act stand), recorded like any action, every bet settled exactly once through the
 * ledger, and the shoe finished with its seed revealed. No coin is lost or created.
 */
const TABLE_ENV = {
  TABLE_BETTING_MS: "30000",
  // Nobody's turn runs out before the kill.
  TABLE_TURN_MS: "60000",
  TABLE_SETTLED_MS: "100",
  TABLE_LEASE_MS: "1500",
  BET_RATE_PER_SECOND: "1000",
};

const servers: ServerProcess[] = [];
let database: Awaited<ReturnType<typeof freshDatabaseUrl>> | undefined;
let sql: pg.Client | undefined;
afterAll(async () => {
  for (const s of servers) await s.stop("SIGKILL").catch(() => undefined);
  await sql?.end().catch(() => undefined);
  await database?.drop();
});

const snap = (room: Room): TableSnapshot => JSON.parse((room.state as { snapshot: string }).snapshot);

async function joinTable(server: ServerProcess, token: string) {
  const client = new Client(server.wsUrl);
  client.auth.token = token;
  const room = await client.joinOrCreate("blackjack-table", { instanceId: null, freeSeat: true });
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as { snapshot?: string })?.snapshot, 10_000);
  return { room, inbox };
}

describe.runIf(TEST_DB === "postgres")("blackjack table restart", () => {
  it("a round killed mid-turn is played out by the default action after the next start: nothing lost, nothing paid twice", async () => {
    database = await freshDatabaseUrl();
    const env = { DATABASE_URL: database.url!, ...TABLE_ENV };
    sql = new pg.Client({ connectionString: database.url! });
    sql.on("error", () => undefined);
    await sql.connect();
    const q = async (text: string, params: unknown[] = []) => (await sql!.query(text, params)).rows;

    const first = await startServerProcess({ env, name: "table-a" });
    servers.push(first);
    const [a, b] = await Promise.all([guestOn(first), guestOn(first)]);
    const ja = await joinTable(first, a.token);
    const jb = await joinTable(first, b.token);
    expect(jb.room.roomId).toBe(ja.room.roomId);
    expect((await ask(ja.room, ja.inbox, TABLE_MESSAGES.sit, { seat: 1 })).type).toBe("result");
    expect((await ask(jb.room, jb.inbox, TABLE_MESSAGES.sit, { seat: 4 })).type).toBe("result");

    // Rounds until one is dealt with a seat to act (a dealer blackjack settles at once); seat 1 then
    // takes insurance or doubles when it can (coins staked mid-round), and the server is killed while a
    // seat is still to act.
    let round = 0;
    for (;;) {
      await waitFor(() => snap(ja.room).phase === "betting", 20_000);
      expect((await ask(ja.room, ja.inbox, TABLE_MESSAGES.bet, { amount: 100 })).type).toBe("result");
      expect((await ask(jb.room, jb.inbox, TABLE_MESSAGES.bet, { amount: 51 })).type).toBe("result");
      await ask(ja.room, ja.inbox, TABLE_MESSAGES.ready, {});
      await ask(jb.room, jb.inbox, TABLE_MESSAGES.ready, {});
      round += 1;
      await waitFor(() => snap(ja.room).view?.round === round, 20_000);
      const s = snap(ja.room);
      if (s.toAct === null) continue;
      if (s.toAct === 1) {
        const action =
          s.phase === "insurance"
            ? { type: "insurance", take: true }
            : s.view!.actions.includes("double")
              ? { type: "double" }
              : { type: "hit" };
        expect((await ask(ja.room, ja.inbox, TABLE_MESSAGES.act, { action })).type).toBe("result");
        await waitFor(() => snap(ja.room).toAct !== 1 || snap(ja.room).view!.seats[0]!.hands[0]!.cards.length > 2, 10_000);
      }
      if (snap(ja.room).toAct !== null) break;
    }
    const shoeId = snap(ja.room).shoe!.id;
    await first.stop("SIGKILL");

    const [open] = await q(`SELECT * FROM table_rounds WHERE shoe_id = $1 AND round = $2`, [shoeId, round]);
    expect(open.phase).toBe("playing");
    const recordedBefore = open.actions.length;
    const betsBefore = await q(`SELECT * FROM table_bets WHERE round_id = $1 ORDER BY seat`, [open.id]);
    expect(betsBefore.map((x) => x.status)).toEqual(["active", "active"]);

    const second = await startServerProcess({ env, name: "table-b" });
    servers.push(second);
    const deadline = Date.now() + 30_000;
    while ((await q(`SELECT finished_by FROM table_shoes WHERE id = $1`, [shoeId]))[0].finished_by === null) {
      if (Date.now() > deadline) throw new Error(`shoe not finished after restart:\n${second.lines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await q(`SELECT finished_by FROM table_shoes WHERE id = $1`, [shoeId]))[0].finished_by).toBe("restart");
    const [closed] = await q(`SELECT phase, settled_by, actions FROM table_rounds WHERE id = $1`, [open.id]);
    expect(closed).toMatchObject({ phase: "settled", settled_by: "restart" });
    // The seats still to act were stood for (or declined insurance): recorded after the players' own actions.
    const added = closed.actions.slice(recordedBefore);
    expect(added.length).toBeGreaterThan(0);
    for (const x of added) expect([{ type: "stand" }, { type: "insurance", take: false }]).toContainEqual(x.action);

    // The revealed shoe re-derives every round, the interrupted one included, to what was paid.
    const revealed = await api(second, "GET", `/api/tables/shoes/${shoeId}`, { token: a.token });
    expect(revealed.status).toBe(200);
    const record = revealed.body as RevealedShoe;
    expect(record.rounds).toHaveLength(round);
    const verified = verifyShoe(record);
    const bets = await q(
      `SELECT b.*, r.round FROM table_bets b JOIN table_rounds r ON r.id = b.round_id WHERE r.shoe_id = $1 ORDER BY r.round, b.seat`,
      [shoeId],
    );
    expect(bets).toHaveLength(2 * round);
    for (const x of bets) {
      const seat = verified.rounds[x.round - 1]!.seats.find((s) => s.seat === x.seat)!;
      expect({ status: x.status, staked: Number(x.staked), payout: Number(x.payout) }).toEqual({
        status: "settled",
        staked: seat.staked,
        payout: seat.payout,
      });
    }
    for (const [seatNo, player] of [
      [1, a],
      [4, b],
    ] as const) {
      const net = verified.rounds.reduce((sum, r) => {
        const seat = r.seats.find((s) => s.seat === seatNo)!;
        return sum + seat.payout - seat.staked;
      }, 0);
      expect(Number((await q(`SELECT balance FROM players WHERE id = $1`, [player.player.id]))[0].balance)).toBe(1000 + net);
      // One game session per round, each the seat's bet, stake and payout.
      const sessions = await q(`SELECT count(*)::int AS n FROM game_sessions WHERE player_id = $1 AND game_type = 'blackjack'`, [
        player.player.id,
      ]);
      expect(sessions[0].n).toBe(round);
    }
    expect((await auditDatabase(database.url!)).mismatches).toEqual([]);

    // Settling again (another sweep, another process) moves nothing.
    const entries = (await q(`SELECT count(*)::int AS n FROM ledger_entries`))[0].n;
    const config = loadConfig({ DATABASE_URL: database.url!, DATA_DIR: "memory://", SESSION_SECRET: "x".repeat(48), ...TABLE_ENV });
    const direct = await openDatabase(config.databaseUrl, config.dataDir);
    try {
      const money = new Ledger(direct, new Log(), new Announcements(new Log()));
      const store = new TableStore(direct, money, config.table);
      for (const x of betsBefore) {
        // Settled once: a repeat answers the first settlement; a refund finds nothing to refund.
        const again = await money.settleTableBet(x.id, { payout: 999, staked: 1, actions: [], outcome: {} }, "restart");
        expect(again).toMatchObject({ playerId: x.player_id });
        expect(await money.refundTableBet(x.id)).toBeNull();
      }
      expect(await store.recover(shoeId)).toBe(false);
      await store.settleOpenRound(shoeId, "restart");
    } finally {
      await direct.close();
    }
    expect((await q(`SELECT count(*)::int AS n FROM ledger_entries`))[0].n).toBe(entries);

    // The table goes on after the restart: a new shoe, committed before its first round.
    const again = await joinTable(second, a.token);
    await ask(again.room, again.inbox, TABLE_MESSAGES.sit, { seat: 1 });
    await waitFor(() => snap(again.room).phase === "betting" && snap(again.room).shoe !== null, 20_000);
    expect(snap(again.room).shoe!.id).not.toBe(shoeId);

    // A graceful stop (SIGTERM) in the middle of a round: the table settles it at once by the same rule
    // (the seat to act stands) and finishes its shoe, before the process exits.
    const nextShoe = snap(again.room).shoe!.id;
    let dealt = 0;
    for (;;) {
      await waitFor(() => snap(again.room).phase === "betting", 20_000);
      expect((await ask(again.room, again.inbox, TABLE_MESSAGES.bet, { amount: 30 })).type).toBe("result");
      await ask(again.room, again.inbox, TABLE_MESSAGES.ready, {});
      dealt += 1;
      await waitFor(() => snap(again.room).view?.round === dealt, 20_000);
      if (snap(again.room).toAct !== null) break;
    }
    expect(await second.stop("SIGTERM")).toMatchObject({ code: 0 });
    const [stopped] = await q(`SELECT finished_by FROM table_shoes WHERE id = $1`, [nextShoe]);
    expect(stopped.finished_by).toBe("closed");
    const [last] = await q(`SELECT id, phase, settled_by FROM table_rounds WHERE shoe_id = $1 AND round = $2`, [nextShoe, dealt]);
    expect(last).toMatchObject({ phase: "settled", settled_by: "table" });
    expect((await q(`SELECT status FROM table_bets WHERE round_id = $1`, [last.id])).map((x) => x.status)).toEqual(["settled"]);
    expect((await auditDatabase(database.url!)).mismatches).toEqual([]);
  }, 180_000);
});
