import "reflect-metadata";
import { randomBytes, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { WebSocket as NodeWebSocket } from "ws";
import { Client } from "@colyseus/sdk";
import { loadConfig } from "../server/src/config";
import { createApp } from "../server/src/app";

/**
 * `npm run bench`: N concurrent SDK clients place dice bets as fast as they can for T seconds against
 * PostgreSQL (each bet answered only after its commit), then, in the same run and on the same database,
 * the bare bet-shaped transaction (conditional UPDATE + ledger INSERT through pg) at the same
 * concurrency. Prints durable bets/s, p50/p99 latency, and the ratio of the two throughputs.
 */
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
const { values } = parseArgs({
  options: { clients: { type: "string", default: "32" }, seconds: { type: "string", default: "10" } },
});
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const dbName = `casino_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATABASE_URL: url.toString(), SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123", BET_RATE_PER_SECOND: "100000", CLIENT_DIST: "none" });
  const app = await createApp(config);
  const port = await app.listen();
  try {
    // Players and their connections.
    const players = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
        return (await res.json()) as { session_token: string; player: { id: string } };
      }),
    );
    const rooms = await Promise.all(
      players.map(async (p) => {
        const client = new Client(`ws://127.0.0.1:${port}`);
        client.auth.token = p.session_token;
        return client.create("casino");
      }),
    );

    // 1. Durable bets through the room.
    const latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      rooms.map(async (room) => {
        const pending = new Map<string, (ok: boolean) => void>();
        room.onMessage("result", (m: { requestId: string }) => pending.get(m.requestId)?.(true));
        room.onMessage("error", (m: { requestId: string }) => pending.get(m.requestId)?.(false));
        room.onMessage("*", () => undefined);
        while (Date.now() < deadline) {
          const requestId = `bench-${randomUUID()}`;
          const t0 = performance.now();
          const ok = await new Promise<boolean>((resolve) => {
            pending.set(requestId, resolve);
            // under 49.5 pays exactly 2×, so a 1-coin bet loses nothing to rounding (its minimum bet is 1)
            room.send("bet", { requestId, game: "dice", amount: 1, params: { target: 49.5, direction: "under" } });
          });
          pending.delete(requestId);
          if (ok) latencies.push(performance.now() - t0);
          else errors++;
        }
      }),
    );
    const roomSeconds = (performance.now() - started) / 1000;
    await Promise.all(rooms.map((r) => r.leave()));
    latencies.sort((a, b) => a - b);
    const betsPerSecond = latencies.length / roomSeconds;

    // 2. The bare bet-shaped transaction at the same concurrency, on the same database.
    const pool = new pg.Pool({ connectionString: url.toString(), max: CLIENTS });
    await pool.query(`UPDATE players SET balance = balance + 1000000`);
    let bare = 0;
    const bareDeadline = Date.now() + SECONDS * 1000;
    const bareStarted = performance.now();
    await Promise.all(
      players.map(async (p) => {
        const conn = await pool.connect();
        try {
          while (Date.now() < bareDeadline) {
            await conn.query("BEGIN");
            const r = await conn.query(`UPDATE players SET balance = balance - 1 WHERE id = $1 AND balance >= 1 RETURNING balance`, [p.player.id]);
            await conn.query(
              `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id) VALUES ($1, -1, $2, 'bet', 'bench', $3)`,
              [p.player.id, r.rows[0].balance, `bare-${randomUUID()}`],
            );
            await conn.query("COMMIT");
            bare++;
          }
        } finally {
          conn.release();
        }
      }),
    );
    const bareSeconds = (performance.now() - bareStarted) / 1000;
    await pool.end();
    const barePerSecond = bare / bareSeconds;

    console.log(`clients ${CLIENTS}, ${SECONDS} s each phase, PostgreSQL ${(await admin.query("SHOW server_version")).rows[0].server_version}`);
    console.log(`durable bets through the room: ${latencies.length} in ${roomSeconds.toFixed(1)} s = ${betsPerSecond.toFixed(0)} bets/s (${errors} errors)`);
    console.log(`latency p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`);
    console.log(`bare bet-shaped transaction (UPDATE + INSERT via pg): ${bare} in ${bareSeconds.toFixed(1)} s = ${barePerSecond.toFixed(0)} tx/s`);
    console.log(`ratio room/bare: ${(betsPerSecond / barePerSecond).toFixed(2)}`);
  } finally {
    await app.close();
    // Let the server's pool finish closing before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
  process.exit(0);
}

await main();
