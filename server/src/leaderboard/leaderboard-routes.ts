import { Router } from "express";
import {
  gameBoardQuery,
  gameStatsQuery,
  instanceJoinRequest,
  leaderboardQuery,
  playerRef,
  rankQuery,
  type LeaderboardBoard,
  type LeaderboardScope,
  type RankAnswer,
} from "@casino/common";
import type { CoreServices } from "../core/services";
import type { SessionClaims } from "../core/auth/session";
import type { BoardSpec, Leaderboards } from "./leaderboards";
import { authorisedScope } from "./scope";
import { badRequest } from "../platform/errors";
import { isUuid } from "../platform/db/sql";
import { gameStats, playerGameStats } from "../progress/game-stats";
import { parse } from "../core/http/errors";
import { sessionOf } from "../core/http/context";

/**
 * The boards of spec section 7 (balance, Connect the Dots times, Dot Battle kills), scoped to
 * everyone, a guild or an activity instance, the balance board also by day and week; ranks; play
 * counts; and joining an activity instance. Every call needs a session: the caller sees their own
 * entry unmasked, and may only ask for a guild or instance they belong to.
 */

export function leaderboardRoutes(
  s: Pick<CoreServices, "db" | "guilds" | "instances" | "players"> & { leaderboards: Leaderboards },
): Router {
  const router = Router();

  const scopeFor = (claims: SessionClaims, q: { scope: LeaderboardScope; guildId?: string; instanceId?: string }) =>
    authorisedScope(s, claims, q);

  router.get("/leaderboard", async (req, res) => {
    const claims = sessionOf(req);
    const q = parse(leaderboardQuery, req.query);
    const spec: BoardSpec = { board: "balance", window: q.window, ...(await scopeFor(claims, q)) };
    res.type("json").send(await s.leaderboards.pageJson(spec, q.page, q.limit, claims.playerId));
  });

  const gameBoard = (path: string, board: LeaderboardBoard) =>
    router.get(path, async (req, res) => {
      const claims = sessionOf(req);
      const q = parse(gameBoardQuery, req.query);
      const spec: BoardSpec = { board, window: "all", ...(await scopeFor(claims, q)) };
      res.type("json").send(await s.leaderboards.pageJson(spec, q.page, q.limit, claims.playerId));
    });
  gameBoard("/game/dots/leaderboard", "speed");
  gameBoard("/game/dot-battle/leaderboard", "kills");

  router.get("/player/:playerId/rank", async (req, res) => {
    const claims = sessionOf(req);
    const ref = parse(playerRef, req.params.playerId);
    const q = parse(rankQuery, req.query);
    if (q.board !== "balance" && q.window !== "all") throw badRequest("window: only the balance board has day and week windows");
    const spec: BoardSpec = { board: q.board, window: q.window, ...(await scopeFor(claims, q)) };
    // A player id on the board needs no database lookup; a Discord id, or an id not ranked, does.
    let ranked = isUuid(ref) ? await s.leaderboards.rank(spec, ref.toLowerCase(), claims.playerId) : null;
    if (!ranked || ranked.rank === null) ranked = await s.leaderboards.rank(spec, (await s.players.get(ref)).id, claims.playerId);
    const answer: RankAnswer = { rank: ranked.rank, total: ranked.total };
    res.json(answer);
  });

  router.get("/game-stats", async (req, res) => {
    const claims = sessionOf(req);
    const q = parse(gameStatsQuery, req.query);
    res.json(q.mine ? await playerGameStats(s.db, claims.playerId) : await gameStats(s.db));
  });

  router.post("/instances/join", async (req, res) => {
    const body = parse(instanceJoinRequest, req.body);
    res.json(await s.instances.join(sessionOf(req), body.instanceId));
  });

  return router;
}
