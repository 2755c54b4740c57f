import { Router, json } from "express";
import { ownSkillRecords, skillStartRequest, skillSubmitRequest, type SkillRoundReward } from "@casino/common";
import { z } from "zod";
import type { CoreServices } from "../core/services";
import type { Leaderboards } from "../leaderboard/leaderboards";
import type { SkillRounds } from "./skill-rounds";
import { parse } from "../core/http/errors";
import { sessionOf } from "../core/http/context";

/** An input log of the longest round at the highest rate is about 60 kB of JSON. */
export const SKILL_BODY_LIMIT = "96kb";

const roundIdParam = z.uuid("roundId must be a round id");

/**
 * Skill rounds over REST (the session is required, see app.ts):
 * `GET /skill-rounds/today`, `GET /skill-rounds/records` (the player's own bests), `POST /skill-rounds` { requestId, game } → 201 with the seed,
 * `POST /skill-rounds/:id/submit` { requestId, game, inputs, claimed… } → the reward, or 422 refused.
 */
/** What the skill routes use. */
export type SkillRouteServices = Pick<CoreServices, "log"> & { skill: SkillRounds; leaderboards: Leaderboards };

export function skillRoutes(s: SkillRouteServices): Router {
  const router = Router();

  router.get("/skill-rounds/today", async (req, res) => {
    res.json(await s.skill.today(sessionOf(req).playerId));
  });

  router.get("/skill-rounds/records", async (req, res) => {
    res.json(ownSkillRecords.parse(await s.skill.records(sessionOf(req).playerId)));
  });

  router.post("/skill-rounds", async (req, res) => {
    const body = parse(skillStartRequest, req.body);
    res.status(201).json(await s.skill.start(sessionOf(req).playerId, body));
  });

  router.post("/skill-rounds/:id/submit", async (req, res) => {
    const roundId = parse(roundIdParam, req.params.id);
    const body = parse(skillSubmitRequest, req.body);
    const playerId = sessionOf(req).playerId;
    // The new balance and the activity feed's row are the ledger's announcements of the commit.
    const reward = await s.skill.submit(playerId, roundId, body);
    if (!reward.replayed) await recordOnBoard(s, playerId, reward);
    res.json(reward);
  });

  return router;
}

/**
 * Puts a committed record on the Speed or Kills board at once (the player's best is kept). The record
 * is already in PostgreSQL, and the boards' consumer tails those tables, so a Redis failure here only
 * delays the board: it is logged, and the player still gets the answer.
 */
async function recordOnBoard(s: SkillRouteServices, playerId: string, reward: SkillRoundReward): Promise<void> {
  try {
    if (reward.completionMs !== null) await s.leaderboards.recordSpeed(playerId, reward.completionMs);
    if (reward.kills !== null) await s.leaderboards.recordKills(playerId, reward.kills);
  } catch (error) {
    s.log.error("skill:leaderboard", "a skill record did not reach its board; the record consumer will add it", error);
  }
}

/** The JSON parser for skill submissions, mounted ahead of the API's 16 kB parser. */
export const skillBodyParser = json({ limit: SKILL_BODY_LIMIT });
