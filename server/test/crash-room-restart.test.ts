import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import pg from "pg";
import { Client as SdkClient, type Room } from "@colyseus/sdk";
import {
  CRASH_CHAIN_SALT,
  CRASH_MESSAGES,
  chainGameHash,
  chainTerminatingHash,
  crashPointHundredths,
  sha256Hex,
  verifyChainElement,
} from "@casino/common";
import { openDatabase } from "../src/platform/db/database";
import { Ledger } from "../src/ledger";
import { Log } from "../src/platform/log";
import { CrashStore } from "../src/crash/crash-store";
import { auditLedger } from "../src/ops/audit-ledger";
import { expectBalancedEconomy } from "./ledger-audit";
import { loadConfig } from "../src/platform/config";
import { TEST_DB, freshDatabaseUrl } from "./harness";
import { Inbox, ask, waitFor } from "./room-helpers";
import { Announcements } from "../src/core/ledger/engine/index";

/**
 * The server is killed (SIGKILL) in the middle of a crash round and started again on the same
 * PostgreSQL database: the round is settled by the restart rule, every bet exactly once.
 */

const SECRET = "restart-test-secret-restart-test-secret-0123456789";
const CHAIN_LENGTH = 50;
const CRASH_ENV = {
  CRASH_BETTING_MS: "1500",
  CRASH_BUSTED_MS: "500",
  CRASH_TICK_MS: "20",
  // 1.10× after 953 ms, 1.50× after 4,055 ms.
  CRASH_CURVE_RATE: "0.0001",
  CRASH_CHAIN_LENGTH: String(CHAIN_LENGTH),
  CRASH_LEASE_MS: "1500",
};

/** A port nobody listens on, in the range this project's tests use. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `npx tsx server/src/main.ts` in its own process group, resolved once it listens. */
async function startServer(databaseUrl: string): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...CRASH_ENV,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATA_DIR: "memory://",
    SESSION_SECRET: SECRET,
    CLIENT_DIST: "client/dist-none",
    BET_RATE_PER_SECOND: "1000",
  };
  delete env.REDIS_URL;
  const child = spawn("npx", ["tsx", "server/src/main.ts"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  child.stdout!.on("data", (d) => output.push(String(d)));
  child.stderr!.on("data", (d) => output.push(String(d)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitFor(() => output.join("").includes("casino listening") || child.exitCode !== null, 60_000);
  if (child.exitCode !== null) throw new Error(`server exited: ${output.join("")}`);
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
      await exited;
    },
  };
}

async function guest(server: ServerProcess): Promise<{ token: string; id: string }> {
  const res = await fetch(`${server.url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const body = (await res.json()) as any;
  return { token: body.session_token, id: body.player.id };
}

async function join(server: ServerProcess, token: string): Promise<{ room: Room; inbox: Inbox }> {
  const sdk = new SdkClient(server.url.replace("http", "ws"));
  sdk.auth.token = token;
  const room = await sdk.joinOrCreate("crash", { instanceId: null });
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as any)?.terminatingHash);
  return { room, inbox };
}

const servers: ServerProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
let db: pg.Client | undefined;
afterAll(async () => {
  for (const s of servers) await s.kill("SIGKILL");
  await db?.end().catch(() => undefined);
  await dropDatabase?.();
});

describe.skipIf(TEST_DB === "pglite")("crash room restart", () => {
  it("a round killed mid-run is settled by the restart rule after the next start: nothing lost, nothing paid twice", async () => {
    const fresh = await freshDatabaseUrl();
    dropDatabase = fresh.drop;
    const databaseUrl = fresh.url!;
    db = new pg.Client({ connectionString: databaseUrl });
    db.on("error", () => undefined);
    await db.connect();
    const q = async (text: string, params: unknown[] = []) => (await db!.query(text, params)).rows;

    const first = await startServer(databaseUrl);
    servers.push(first);

    // The public scope's chain, chosen so that game 1 crashes between 3× and 50×: the round is
    // certainly still running at 1.10×, when the server is killed.
    let seed = "";
    let crashPoint = 0;
    for (let i = 0; !seed; i++) {
      const candidate = sha256Hex(`restart-chain-${i}`);
      const point = Number(crashPointHundredths(chainGameHash(candidate, CHAIN_LENGTH, 1), CRASH_CHAIN_SALT));
      if (point >= 300 && point < 5000) [seed, crashPoint] = [candidate, point];
    }
    const terminatingHash = chainTerminatingHash(seed, CHAIN_LENGTH);
    await q(`INSERT INTO crash_chains (scope, seed, terminating_hash, salt, length) VALUES ('public', $1, $2, $3, $4)`, [
      seed,
      terminatingHash,
      CRASH_CHAIN_SALT,
      CHAIN_LENGTH,
    ]);

    const [a, b, c, d] = await Promise.all([guest(first), guest(first), guest(first), guest(first)]);
    const rooms = await Promise.all([a, b, c, d].map((p) => join(first, p.token)));
    expect(new Set(rooms.map((r) => r.room.roomId)).size).toBe(1);
    expect((rooms[0]!.room.state as any).terminatingHash).toBe(terminatingHash);
    await waitFor(() => (rooms[0]!.room.state as any).phase === "betting", 20_000);
    const bets = await Promise.all([
      ask(rooms[0]!.room, rooms[0]!.inbox, CRASH_MESSAGES.bet, { amount: 100, autoCashOut: 1.5 }), // reachable target
      ask(rooms[1]!.room, rooms[1]!.inbox, CRASH_MESSAGES.bet, { amount: 100, autoCashOut: 50 }), // beyond the crash point
      ask(rooms[2]!.room, rooms[2]!.inbox, CRASH_MESSAGES.bet, { amount: 100 }), // still in, by hand
      ask(rooms[3]!.room, rooms[3]!.inbox, CRASH_MESSAGES.bet, { amount: 100 }), // cashes out before the kill
    ]);
    expect(bets.map((x) => x.type)).toEqual(["result", "result", "result", "result"]);

    await waitFor(() => (rooms[3]!.room.state as any).phase === "running" && (rooms[3]!.room.state as any).multiplier >= 110, 20_000);
    const cashOut = await ask(rooms[3]!.room, rooms[3]!.inbox, CRASH_MESSAGES.cashOut, {});
    expect(cashOut.type).toBe("result");
    await first.kill("SIGKILL");

    const [round] = await q(`SELECT * FROM crash_rounds WHERE scope = 'public' AND game_number = 1`);
    expect(round.phase).toBe("running");
    expect(Number(round.crash_point)).toBe(crashPoint);
    const before = await q(`SELECT player_id, status FROM crash_bets WHERE round_id = $1`, [round.id]);
    expect(before.find((x) => x.player_id === a.id)!.status).toBe("active");
    expect(before.find((x) => x.player_id === d.id)!.status).toBe("cashed_out");

    const second = await startServer(databaseUrl);
    servers.push(second);
    const deadline = Date.now() + 30_000;
    while ((await q(`SELECT phase FROM crash_rounds WHERE id = $1`, [round.id]))[0].phase === "running") {
      if (Date.now() > deadline) throw new Error(`round not settled after restart:\n${second.output.join("")}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const [settled] = await q(`SELECT phase, settled_by FROM crash_rounds WHERE id = $1`, [round.id]);
    expect(settled).toEqual({ phase: "busted", settled_by: "restart" });
    const after = await q(`SELECT player_id, status, cashed_out_at, payout, settled_by FROM crash_bets WHERE round_id = $1`, [round.id]);
    const bet = (id: string) => after.find((x) => x.player_id === id)!;
    expect(bet(a.id)).toMatchObject({ status: "cashed_out", cashed_out_at: "150", payout: "150", settled_by: "restart" });
    expect(bet(b.id)).toMatchObject({ status: "refunded", cashed_out_at: null, payout: "100", settled_by: "restart" });
    expect(bet(c.id)).toMatchObject({ status: "refunded", cashed_out_at: null, payout: "100", settled_by: "restart" });
    expect(bet(d.id)).toMatchObject({ status: "cashed_out", settled_by: "player" });
    expect(Number(bet(d.id).cashed_out_at)).toBe(cashOut.body.cashedOutAt);

    // Each bet: one debit and one credit, and the balances follow.
    const expected = new Map([
      [a.id, 1050],
      [b.id, 1000],
      [c.id, 1000],
      [d.id, 900 + cashOut.body.payout],
    ]);
    for (const [id, balance] of expected) {
      const entries = await q(`SELECT reason, delta FROM ledger_entries WHERE player_id = $1 AND reference = 'crash-room' ORDER BY id`, [
        id,
      ]);
      expect(entries.map((e) => e.reason)).toEqual(["bet", id === b.id || id === c.id ? "refund" : "payout"]);
      const [{ balance: stored }] = await q(`SELECT balance FROM players WHERE id = $1`, [id]);
      expect(Number(stored)).toBe(balance);
    }

    // Settling again (another sweep, another process) answers as the first time and moves nothing.
    const entriesBefore = (await q(`SELECT count(*)::int AS n FROM ledger_entries`))[0].n;
    const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: "memory://", SESSION_SECRET: SECRET, ...CRASH_ENV });
    const direct = await openDatabase(config.databaseUrl, config.dataDir);
    try {
      const ledger = new Ledger(direct, new Log(), new Announcements(new Log()));
      for (const row of await q(`SELECT id, player_id, auto_cash_out FROM crash_bets WHERE round_id = $1`, [round.id])) {
        const repeat = await ledger.settleInterruptedCrashBet(row.id, row.player_id === a.id ? Number(row.auto_cash_out) : null);
        if (row.player_id === d.id) expect(repeat).toBeNull();
        else expect(repeat).toMatchObject({ payout: row.player_id === a.id ? 150 : 100, balance: expected.get(row.player_id) });
      }
      expect(await new CrashStore(direct, ledger, config.crash).recover(round.id)).toBe(false);
      const audit = await auditLedger(direct);
      expect(audit.mismatches).toEqual([]);
      // the rounds of lost crash bets are written without the player's lock: each still has its player
      expect(audit.missingReferences).toEqual([]);
      // and the killed round's coins are all accounted: the economy still sums to zero
      expectBalancedEconomy(audit);
    } finally {
      await direct.close();
    }
    for (const [id, balance] of expected)
      expect(Number((await q(`SELECT balance FROM players WHERE id = $1`, [id]))[0].balance)).toBe(balance);
    expect((await q(`SELECT count(*)::int AS n FROM ledger_entries`))[0].n).toBe(entriesBefore);

    // Play goes on after the restart: the settled game's hash is revealed and verifies, and the next
    // round takes the next game of the same chain.
    const again = await join(second, a.token);
    await waitFor(() => (again.room.state as any).history.length > 0, 20_000);
    const revealed = (again.room.state as any).history[0];
    expect(revealed.gameNumber).toBe(1);
    expect(verifyChainElement(revealed.gameHash, terminatingHash, CHAIN_LENGTH)).toBe(1);
    await waitFor(() => (again.room.state as any).gameNumber === 2, 20_000);
    await again.room.leave();
  }, 120_000);
});
