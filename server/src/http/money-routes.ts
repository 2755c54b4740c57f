import { sqlRows } from "../db/sql";
import { randomUUID } from "node:crypto";
import { Router } from "express";
import { dailySpinRequest, historyQuery, playerRef } from "@casino/common";
import type { Services } from "../services";

import { parse } from "./errors";
import { sessionOf } from "./context";

const SERVER_KEEPS_COINS = "Balances and game results are kept by the server";

/** Calls that touch coins: the daily spin through the ledger, history, and the client-side mints refused. */
export function moneyRoutes(s: Services): Router {
  const router = Router();

  // The spec's client set its own balance and reported its own results; here the server is the authority.
  router.patch("/player/balance", (_req, res) => {
    res.status(403).json({ error: SERVER_KEEPS_COINS, code: "server_authoritative" });
  });
  router.post("/game-session", (_req, res) => {
    res.status(403).json({ error: SERVER_KEEPS_COINS, code: "server_authoritative" });
  });

  router.post("/daily-spin", async (req, res) => {
    const body = parse(dailySpinRequest, req.body);
    const player = await s.players.own(sessionOf(req), body.playerId);
    const spin = await s.ledger.dailySpin(player.id, body.requestId ?? `spin-${randomUUID()}`);
    // A replayed answer carries the balance of its time: it is never published.
    if (!spin.replayed) s.events.publish(player.id, { type: "balance", balance: spin.balance, delta: spin.prize, reason: "daily_spin" });
    res.json(spin);
  });

  router.get("/player/:id/history", async (req, res) => {
    const player = await s.players.own(sessionOf(req), parse(playerRef, req.params.id));
    const query = parse(historyQuery, req.query);
    const rows = await s.db.run((em) =>
      sqlRows(em, 
        `SELECT g.id, g.game_type, g.bet_amount, g.result, g.payout, g.request_id, g.nonce, g.params, g.actions, g.outcome, g.created_at,
                f.server_seed_hash, f.client_seed, CASE WHEN f.active THEN NULL ELSE f.server_seed END AS server_seed
           FROM game_sessions g LEFT JOIN fairness_seeds f ON f.id = g.seed_id
          WHERE g.player_id = $1 AND ($2::timestamptz IS NULL OR g.created_at < $2)
          ORDER BY g.created_at DESC, g.id DESC LIMIT $3`,
        [player.id, query.before ?? null, query.limit],
      ),
    );
    const items = rows.map((r: Record<string, unknown>) => ({
      id: r.id,
      gameType: r.game_type,
      betAmount: Number(r.bet_amount),
      result: r.result,
      payout: Number(r.payout),
      requestId: r.request_id,
      params: r.params,
      actions: r.actions,
      outcome: r.outcome,
      createdAt: new Date(r.created_at as string).toISOString(),
      fairness: { serverSeedHash: r.server_seed_hash, clientSeed: r.client_seed, nonce: r.nonce, serverSeed: r.server_seed },
    }));
    const last = items[items.length - 1];
    res.json({ items, nextBefore: items.length === query.limit && last ? last.createdAt : null });
  });

  router.get("/player/:id/seeds", async (req, res) => {
    const player = await s.players.own(sessionOf(req), parse(playerRef, req.params.id));
    res.json({ active: await s.seeds.active(player.id), revealed: await s.seeds.revealed(player.id) });
  });

  return router;
}

