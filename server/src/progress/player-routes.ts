import { sqlRows } from "../platform/db/sql";
import { Router } from "express";
import {
  acceptTosRequest,
  activeTagRequest,
  playerRef,
  registerPlayerRequest,
  suggestionRequest,
  playSettingsRequest,
  themeRequest,
  toggleRequest,
} from "@casino/common";
import type { CoreServices } from "../core/services";
import { forbidden, notFound } from "../platform/errors";
import { playerTags } from "./tags";
import { parse } from "../core/http/errors";
import { requireSession, sessionOf } from "../core/http/context";
import { jsonRateLimit } from "../core/http/rate-limit";

/** Told when a player's shown name or face changes: the together feeds (`Together.profileChanged`, together/together.ts). */
export interface ProfileWatcher {
  profileChanged(playerId: string): Promise<void>;
}

/**
 * The player resource of spec section 7; every write is for the caller only. Each route requires a
 * session before it reads its input, so a caller without one gets 401 whatever the body.
 */
export function playerRoutes(s: Pick<CoreServices, "players" | "rateLimitStore" | "log" | "db"> & { together: ProfileWatcher }): Router {
  const router = Router();
  const guestsRefused = "Guests cannot do this; launch the casino in Discord to save it";

  router.post("/player", requireSession, async (req, res) => {
    const claims = sessionOf(req);
    const body = parse(registerPlayerRequest, req.body);
    let player = await s.players.own(claims, body.discordId);
    if (claims.guest && body.username && body.username !== player.username) {
      player = await s.players.update(player.id, { username: body.username });
    }
    res.json(s.players.toRecord(player));
  });

  router.get("/player/:id", requireSession, async (req, res) => {
    const claims = sessionOf(req);
    const ref = parse(playerRef, req.params.id);
    const player = await s.players.get(ref);
    res.json(player.id === claims.playerId ? s.players.toRecord(player) : s.players.toPublic(player));
  });

  router.patch("/player/accept-tos", requireSession, async (req, res) => {
    const body = parse(acceptTosRequest, req.body);
    const player = await s.players.own(sessionOf(req), body.playerId);
    res.json(s.players.toRecord(await s.players.update(player.id, { tosAcceptedVersion: body.version })));
  });

  router.patch("/player/theme", requireSession, async (req, res) => {
    const claims = sessionOf(req);
    const body = parse(themeRequest, req.body);
    const player = await s.players.own(claims, body.playerId);
    if (claims.guest) throw forbidden("Guests keep their theme on this device only");
    // a mode left out is not chosen yet: the colour alone is saved, and the record keeps following the device
    const mode = body.mode ? { themeMode: body.mode, themeModeChosen: true } : {};
    res.json(s.players.toRecord(await s.players.update(player.id, { themeColor: body.color, ...mode })));
  });

  router.patch("/player/settings", requireSession, async (req, res) => {
    const claims = sessionOf(req);
    const { playerId, ...settings } = parse(playSettingsRequest, req.body);
    const player = await s.players.own(claims, playerId);
    if (claims.guest) throw forbidden("Guests keep their settings on this device only");
    res.json(s.players.toRecord(await s.players.update(player.id, settings)));
  });

  router.patch("/player/anonymous", requireSession, async (req, res) => {
    const body = parse(toggleRequest, req.body);
    const player = await s.players.own(sessionOf(req), body.playerId);
    const updated = await s.players.update(player.id, { anonymousMode: body.enabled });
    // The activity the player is in shows (or hides) them at once: its members and its tonight board.
    void s.together.profileChanged(player.id).catch((error) => s.log.error("together:profile", "activity not told", error));
    res.json(s.players.toRecord(updated));
  });

  router.patch("/player/reminder", requireSession, async (req, res) => {
    const body = parse(toggleRequest, req.body);
    const player = await s.players.own(sessionOf(req), body.playerId);
    res.json(s.players.toRecord(await s.players.update(player.id, { dailySpinReminder: body.enabled })));
  });

  router.patch("/player/active-tag", requireSession, async (req, res) => {
    const body = parse(activeTagRequest, req.body);
    const player = await s.players.own(sessionOf(req), body.playerId);
    if (body.tagId !== null) {
      const tags = await playerTags(s.db, player);
      const tag = tags.find((t) => t.tagId === body.tagId);
      if (!tag) throw notFound("Tag not found");
      if (!tag.unlocked) throw forbidden("That tag is still locked");
    }
    res.json(s.players.toRecord(await s.players.update(player.id, { activeTagId: body.tagId })));
  });

  router.get("/player/:playerId/tags", requireSession, async (req, res) => {
    const claims = sessionOf(req);
    const player = await s.players.own(claims, parse(playerRef, req.params.playerId));
    res.json(await playerTags(s.db, player));
  });

  // Validated and authorised before the limit, so a refused request does not use up the player's quota.
  router.post(
    "/suggestions",
    requireSession,
    async (req, res, next) => {
      const claims = sessionOf(req);
      const body = parse(suggestionRequest, req.body);
      const player = await s.players.own(claims, body.playerId);
      if (claims.guest) throw forbidden(guestsRefused);
      res.locals.suggestion = { playerId: player.id, text: body.suggestion };
      next();
    },
    jsonRateLimit({
      name: "suggestions",
      windowMs: 10 * 60 * 1000,
      limit: 5,
      key: (req) => sessionOf(req).playerId,
      message: "Too many suggestions; please wait a few minutes",
      store: s.rateLimitStore("suggestion"),
      log: s.log,
    }),
    async (_req, res) => {
      const { playerId, text } = res.locals.suggestion as { playerId: string; text: string };
      await s.db.run((em) => sqlRows(em, `INSERT INTO suggestions (player_id, text) VALUES ($1, $2)`, [playerId, text]));
      res.status(201).json({ success: true });
    },
  );

  return router;
}
