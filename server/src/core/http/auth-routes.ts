import { Router } from "express";
import {
  discordAvatarUrl,
  guestRequest,
  tokenRequest,
  type ClientConfig,
  type SessionAnswer,
  type SignedInPlayer,
  type TokenAnswer,
} from "@casino/common";
import { discordDisplayName } from "../auth/discord";
import { DiscordProxyCheck, proxyUserMismatch } from "../auth/discord-proxy";
import type { CoreServices } from "../services";
import type { Player } from "../../platform/db/entities/index";
import { parse } from "./errors";
import { AppError } from "../../platform/errors";
import { closedAccountRefusal } from "../players/players";
import { openRoundOf } from "../players/open-rounds";
import { requireSession, sessionOf } from "./context";

type SessionServices = Pick<CoreServices, "players" | "db">;

/** What a signed-in page starts from: the player's record and open round. */
const signedInPlayer =
  (s: SessionServices) =>
  async (player: Player): Promise<SignedInPlayer> => ({
    player: s.players.toRecord(player),
    openRound: await openRoundOf(s.db, player.id),
  });

/**
 * `GET /api/session`: a page that kept its session token (a guest's device) starts from the session's
 * player again, as a sign-in would answer it (mounted among the routes that read a session).
 */
export function sessionRoutes(s: SessionServices): Router {
  const router = Router();
  const signedIn = signedInPlayer(s);
  router.get("/session", requireSession, async (req, res) => {
    res.json(await signedIn(await s.players.get(sessionOf(req).playerId)));
  });
  return router;
}

/** Identity: Discord code exchange and guests. Both answer a signed session token and the signed-in player. */
export function authRoutes(s: Pick<CoreServices, "config" | "tokens" | "players" | "discord" | "guilds" | "instances" | "db">): Router {
  const router = Router();
  const proxy = new DiscordProxyCheck({ publicKey: s.config.discord.publicKey, applicationId: s.config.discord.clientId });
  const signedIn = signedInPlayer(s);
  const session = async (player: Player): Promise<SessionAnswer> => {
    // A suspended player signing in again is refused here, before a new token exists.
    const refusal = closedAccountRefusal(player);
    if (refusal) throw refusal;
    const signed = await signedIn(player);
    return {
      session_token: await s.tokens.issue({ playerId: player.id, discordId: player.discordId, guest: signed.player.isGuest }),
      ...signed,
    };
  };

  // The browser needs the Discord application id before it can start the Embedded App SDK.
  router.get("/client-config", (_req, res) => {
    const config: ClientConfig = { discordClientId: s.config.discord.clientId ?? null };
    res.json(config);
  });

  router.post("/token", async (req, res) => {
    const body = parse(tokenRequest, req.body);
    // With the application's public key configured, a sign-in must come through Discord's proxy: a forged
    // or missing signature is refused before the code is spent, and the proxy must vouch for this user.
    const proxied = proxy.verify(req.headers);
    const { accessToken, user, guildIds } = await s.discord.exchange(body.code, body.redirect_uri);
    if (proxied && proxied.userId !== user.id) throw proxyUserMismatch();
    const player = await s.players.upsertDiscordUser(user.id, discordDisplayName(user), discordAvatarUrl(user.id, user.avatar));
    // The guild scope of the boards: who shares a guild. Kept as it was when Discord would not list them.
    if (guildIds) await s.guilds.replace(player.id, guildIds);
    const answer: TokenAnswer = { access_token: accessToken, ...(await session(player)) };
    if (body.instanceId) {
      // Sign-in succeeds even when the instance is refused; the instance scope is then just not offered.
      answer.instance = await s.instances
        .join({ playerId: player.id, discordId: player.discordId, guest: false }, body.instanceId)
        .catch((error) => (error instanceof AppError ? null : Promise.reject(error)));
    }
    res.json(answer);
  });

  router.post("/guest", async (req, res) => {
    const body = parse(guestRequest, req.body);
    const player = await s.players.createGuest(body.username);
    res.status(201).json(await session(player));
  });

  return router;
}
