import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { TestApp } from "./harness";
import { guestSql } from "../src/platform/db/guest-rule";

let nextDiscordId = 700_000_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

/** A Discord player signed in through the fake Discord (with the guilds the test gave the fake). */
export async function discordPlayer(t: TestApp, name: string, options: { guilds?: string[]; instanceId?: string } = {}) {
  const id = String(nextDiscordId++);
  if (options.guilds) t.discord.guilds.set(id, options.guilds);
  const res = await t.request("POST", "/api/token", {
    body: { code: `ok:${id}:${name}`, ...(options.instanceId ? { instanceId: options.instanceId } : {}) },
  });
  expect(res.status).toBe(200);
  return { token: res.body.session_token as string, player: res.body.player, discordId: id, instance: res.body.instance };
}

/**
 * Test data: moves a player's balance to `balance` with a grant entry, the way a committed movement
 * of another process would look (balance and ledger in one transaction, no commit hook on this one).
 */
export async function setBalance(t: TestApp, playerId: string, balance: number, reason = "grant"): Promise<void> {
  await t.app.services.db.transaction(async (em) => {
    const [row] = await em.query(`SELECT balance FROM players WHERE id = $1 FOR UPDATE`, [playerId]);
    const delta = balance - Number(row.balance);
    await em.query(`UPDATE players SET balance = $2 WHERE id = $1`, [playerId, balance]);
    await em.query(
      `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, account) VALUES ($1, $2, $3, $4, 'test fixture', $5, $6)`,
      [playerId, delta, balance, reason, `fixture-${randomUUID()}`, reason === "grant" ? "mint:admin-grant" : "house:fixture"],
    );
  });
}

/** The balance board computed by PostgreSQL: every non-guest, balance descending, ties by id. */
export async function sqlBoard(t: TestApp): Promise<{ id: string; balance: number }[]> {
  const rows = await t.app.services.db.run((em) =>
    em.query(`SELECT id, balance FROM players WHERE NOT (${guestSql("discord_id")}) ORDER BY balance DESC, id ASC`),
  );
  return rows.map((r: any) => ({ id: r.id, balance: Number(r.balance) }));
}

/** A player's rank by the same rule, computed in SQL. */
export async function sqlRank(t: TestApp, playerId: string): Promise<number> {
  const [row] = await t.app.services.db.run((em) =>
    em.query(
      `SELECT count(*)::int + 1 AS rank FROM players o, players me
        WHERE me.id = $1 AND NOT (${guestSql("o.discord_id")})
          AND (o.balance > me.balance OR (o.balance = me.balance AND o.id < me.id))`,
      [playerId],
    ),
  );
  return Number(row.rank);
}

/** Every entry of the balance board through the REST call, page by page. */
export async function restBoard(t: TestApp, token: string, query = ""): Promise<{ entries: any[]; total: number }> {
  const entries: any[] = [];
  let total: number;
  for (let page = 1; ; page++) {
    const res = await t.request("GET", `/api/leaderboard?page=${page}&limit=100${query}`, { token });
    expect(res.status).toBe(200);
    total = res.body.total;
    entries.push(...res.body.entries);
    if (res.body.entries.length < 100) break;
  }
  return { entries, total };
}

export const diceBet = (t: TestApp, playerId: string, amount = 10) =>
  t.app.services.ledger.placeBet(playerId, `bet-${randomUUID()}`, "dice", amount, { target: 49.5, direction: "under" });
