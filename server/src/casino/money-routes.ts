import { randomUUID } from "node:crypto";
import { Router } from "express";
import { dailySpinRequest, historyFilter, historyQuery, playerRef } from "@casino/common";
import type { CoreServices } from "../core/services";
import type { CasinoLedger } from "./casino-ledger";
import { historyPage, playerSummary } from "../core/players/history";

import { parse } from "../core/http/errors";
import { sessionOf } from "../core/http/context";

const SERVER_KEEPS_COINS = "Balances and game results are kept by the server";

/** Calls that touch coins: the daily spin through the ledger, history (rounds and spins) and its totals under the same filters, seeds, and the client-side mints refused. */
export function moneyRoutes(s: Pick<CoreServices, "players" | "db" | "seeds"> & { ledger: Pick<CasinoLedger, "dailySpin"> }): Router {
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
    // The player's open connections hear the new balance from the ledger's announcement of the commit.
    res.json(await s.ledger.dailySpin(player.id, body.requestId ?? `spin-${randomUUID()}`));
  });

  router.get("/player/:id/history", async (req, res) => {
    const player = await s.players.own(sessionOf(req), parse(playerRef, req.params.id));
    const query = parse(historyQuery, req.query);
    res.json(await historyPage(s.db, player.id, query));
  });

  router.get("/player/:id/summary", async (req, res) => {
    const player = await s.players.own(sessionOf(req), parse(playerRef, req.params.id));
    res.json(await playerSummary(s.db, player.id, parse(historyFilter, req.query)));
  });

  router.get("/player/:id/seeds", async (req, res) => {
    const player = await s.players.own(sessionOf(req), parse(playerRef, req.params.id));
    res.json({ active: await s.seeds.active(player.id), revealed: await s.seeds.revealed(player.id) });
  });

  return router;
}
