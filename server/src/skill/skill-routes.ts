import { Router, json } from "express";
import { skillStartRequest, skillSubmitRequest } from "@casino/common";
import { z } from "zod";
import type { Services } from "../services";
import { parse } from "../http/errors";
import { sessionOf } from "../http/context";

/** An input log of the longest round at the highest rate is about 60 kB of JSON. */
export const SKILL_BODY_LIMIT = "96kb";

const roundIdParam = z.uuid("roundId must be a round id");

/**
 * Skill rounds over REST (the session is required, see app.ts):
 * `GET /skill-rounds/today`, `POST /skill-rounds` { requestId, game } → 201 with the seed,
 * `POST /skill-rounds/:id/submit` { requestId, game, inputs, claimed… } → the reward, or 422 refused.
 */
export function skillRoutes(s: Services): Router {
  const router = Router();

  router.get("/skill-rounds/today", async (req, res) => {
    res.json(await s.skill.today(sessionOf(req).playerId));
  });

  router.post("/skill-rounds", async (req, res) => {
    const body = parse(skillStartRequest, req.body);
    res.status(201).json(await s.skill.start(sessionOf(req).playerId, body));
  });

  router.post("/skill-rounds/:id/submit", async (req, res) => {
    const roundId = parse(roundIdParam, req.params.id);
    const body = parse(skillSubmitRequest, req.body);
    const playerId = sessionOf(req).playerId;
    const reward = await s.skill.submit(playerId, roundId, body);
    // A replayed answer carries the balance of its time: it is never published.
    if (reward.reward > 0 && !reward.replayed) s.events.publish(playerId, { type: "balance", balance: reward.balance, delta: reward.reward, reason: "reward" });
    // Leaderboards: the Speed and Kills boards are fed from dots_speed_records / dot_battle_scores
    // (written in the reward's transaction); their Redis update for this record goes here.
    res.json(reward);
  });

  return router;
}

/** The JSON parser for skill submissions, mounted ahead of the API's 16 kB parser. */
export const skillBodyParser = json({ limit: SKILL_BODY_LIMIT });
