import { z } from "zod";
import { SUGGESTION_MAX_LENGTH, TERMS_VERSION } from "./constants";
import { requestId } from "./protocol";

/** REST request schemas (spec section 7) and the shapes the server answers with. */

/** A player reference in a path or body: the player's id or their Discord/guest id. */
export const playerRef = z.string().trim().min(1, "playerId is required").max(64, "playerId is too long");

export const tokenRequest = z.object({ code: z.string().min(1, "code is required").max(512), redirect_uri: z.string().max(2048).optional() });

/** Names: 1–32 printable characters, no control characters. */
export const username = z
  .string()
  .trim()
  .min(1, "username is required")
  .max(32, "username must be at most 32 characters")
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, "username has invalid characters");

export const guestRequest = z.object({ username: username.optional() }).strict();

export const registerPlayerRequest = z.object({
  discordId: playerRef,
  username: username.optional(),
  avatarUrl: z.string().max(2048).nullish(),
});

export const acceptTosRequest = z.object({
  playerId: playerRef,
  version: z.literal(TERMS_VERSION, { message: `version must be the current terms version ${TERMS_VERSION}` }),
});

const THEME_COLOR = /^(\d{1,3}(?:\.\d+)?) (\d{1,3}(?:\.\d+)?)% (\d{1,3}(?:\.\d+)?)%$/;

/** "H S% L%": hue 0–360, saturation and lightness 0–100 %. */
export const themeColor = z.string().superRefine((color, ctx) => {
  const match = THEME_COLOR.exec(color);
  if (!match) {
    ctx.addIssue({ code: "custom", message: 'color must look like "200 60% 55%"' });
    return;
  }
  const [hue, saturation, lightness] = match.slice(1).map(Number);
  if (hue! > 360 || saturation! > 100 || lightness! > 100) {
    ctx.addIssue({ code: "custom", message: "color must have hue 0–360 and saturation/lightness 0–100%" });
  }
});

export const themeRequest = z.object({ playerId: playerRef, mode: z.enum(["light", "dark"]), color: themeColor });
export const toggleRequest = z.object({ playerId: playerRef, enabled: z.boolean() });
export const activeTagRequest = z.object({ playerId: playerRef, tagId: z.number().int().positive().nullable() });
export const suggestionRequest = z.object({
  playerId: playerRef,
  suggestion: z
    .string()
    .trim()
    .min(1, "Please enter a suggestion")
    .max(SUGGESTION_MAX_LENGTH, `suggestion must be at most ${SUGGESTION_MAX_LENGTH} characters`),
});
export const dailySpinRequest = z.object({ playerId: playerRef, requestId: requestId.optional() });
export const historyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  before: z.iso.datetime().optional(),
});

/** What a player sees of their own record. */
export interface PlayerRecord {
  id: string;
  discordId: string;
  username: string;
  avatarUrl: string | null;
  balance: number;
  activeTagId: number | null;
  anonymousMode: boolean;
  themeMode: string;
  themeColor: string;
  lastDailySpin: string | null;
  dailySpinReminder: boolean;
  reminderEnabled: boolean;
  lastReminderSent: string | null;
  tosAcceptedVersion: string | null;
  dotsGamesPlayedToday: number;
  dotsLastPlayedDate: string | null;
  createdAt: string;
  isGuest: boolean;
  badge: string | null;
}

/** What others see of a player. */
export interface PublicPlayer {
  id: string;
  username: string;
  avatarUrl: string | null;
  balance: number;
  anonymousMode: boolean;
  activeTagId: number | null;
  badge: string | null;
}

export interface PlayerTagItem {
  tagId: number;
  unlocked: boolean;
  progress: number;
  tag: { name: string; description: string; objectiveType: string; objectiveCriteria: number };
}

export interface SessionAnswer {
  session_token: string;
  player: PlayerRecord;
}

export interface TokenAnswer extends SessionAnswer {
  access_token: string;
}

export interface ApiError {
  error: string;
  code?: string;
}

/** `GET /api/client-config`: what the browser needs before it can sign in (the Discord application id). */
export interface ClientConfig {
  discordClientId: string | null;
}
