import { z } from "zod";
import { requestId } from "../protocol";
import { DOTS_ROUND_TICKS, DOTS_RULES_VERSIONS, type DotsRules } from "./connect-dots";
import { ARENA_HEIGHT, ARENA_WIDTH } from "./fixed";
import { DOT_BATTLE_ROUND_TICKS, KEY_MASK } from "./dot-battle";
import { maxInputs } from "./input-log";
import type { LogRefusal } from "./input-log";

/**
 * REST of the skill rounds: `POST /api/skill-rounds` starts a round (the server draws and stores its
 * seed and counts it against the daily cap), `POST /api/skill-rounds/:id/submit` sends the input log;
 * the server replays it and pays the replay's score.
 */
export const SKILL_GAMES = ["dot-battle", "dots"] as const;
export type SkillGame = (typeof SKILL_GAMES)[number];

/** How long after its start a round may still be submitted, beyond its longest possible play. */
export const SKILL_SUBMIT_GRACE_MS = 60_000;

export const SKILL_ROUND_TICKS: Record<SkillGame, number> = { "dot-battle": DOT_BATTLE_ROUND_TICKS, dots: DOTS_ROUND_TICKS };

export const skillStartRequest = z
  .object({ requestId, game: z.enum(SKILL_GAMES, { message: "game must be dot-battle or dots" }) })
  .strict();
export type SkillStartRequest = z.infer<typeof skillStartRequest>;

const tick = (roundTicks: number) =>
  z
    .number()
    .int("ticks are whole numbers")
    .min(0, "ticks start at 0")
    .max(roundTicks - 1, `ticks end at ${roundTicks - 1}`);

export const dotBattleSubmit = z
  .object({
    requestId,
    game: z.literal("dot-battle"),
    inputs: z
      .array(z.tuple([tick(DOT_BATTLE_ROUND_TICKS), z.number().int().min(0).max(KEY_MASK, `keys are bits 0–${KEY_MASK}`)]))
      .max(maxInputs(DOT_BATTLE_ROUND_TICKS), `at most ${maxInputs(DOT_BATTLE_ROUND_TICKS)} inputs`),
    claimedKills: z.number().int("kills are whole numbers").min(0, "kills cannot be negative"),
  })
  .strict();

export const dotsSubmit = z
  .object({
    requestId,
    game: z.literal("dots"),
    inputs: z
      .array(
        z.tuple([
          tick(DOTS_ROUND_TICKS),
          z.number().int().min(0).max(ARENA_WIDTH, `x is 0–${ARENA_WIDTH}`),
          z.number().int().min(0).max(ARENA_HEIGHT, `y is 0–${ARENA_HEIGHT}`),
          z.union([z.literal(0), z.literal(1)], { message: "down is 0 or 1" }),
        ]),
      )
      .max(maxInputs(DOTS_ROUND_TICKS), `at most ${maxInputs(DOTS_ROUND_TICKS)} inputs`),
    claimedCompletionMs: z.number().int("milliseconds are whole numbers").positive("the completion time must be positive"),
    /**
     * The rules the browser played under (`DOTS_RULES_VERSION`); absent from the browsers loaded before
     * rules 2, which played under rules 1.
     */
    rulesVersion: z
      .union([z.literal(DOTS_RULES_VERSIONS[0]), z.literal(DOTS_RULES_VERSIONS[1])], {
        message: `rulesVersion is ${DOTS_RULES_VERSIONS.join(" or ")}`,
      })
      .optional(),
  })
  .strict();

/** The rules a submission is replayed under, and recorded with its round: Dot Battle has only one set. */
export const submittedRules = (submission: SkillSubmitRequest): DotsRules =>
  submission.game === "dots" ? (submission.rulesVersion ?? 1) : 1;

export const skillSubmitRequest = z.discriminatedUnion("game", [dotBattleSubmit, dotsSubmit], {
  message: "game must be dot-battle or dots",
});
export type SkillSubmitRequest = z.infer<typeof skillSubmitRequest>;

/** The answer to a start: the seed the browser plays from. */
export interface SkillRoundStart {
  roundId: string;
  game: SkillGame;
  seed: string;
  startedAt: string;
  roundTicks: number;
  playedToday: number;
  dailyCap: number;
}

/** The answer to an accepted submission. */
export interface SkillRoundReward {
  requestId: string;
  roundId: string;
  game: SkillGame;
  kills: number | null;
  completionMs: number | null;
  reward: number;
  balance: number;
}

/** The body of a refused submission (422): nothing was paid and the round is closed. */
export interface SkillRoundRefused {
  error: string;
  code: "log_refused";
  reason: LogRefusal["code"];
}

/**
 * `GET /api/skill-rounds/records`: the player's own best results (guests included, who are on no
 * board): the fastest Connect the Dots completion and the most Dot Battle kills, with how many
 * results each best is taken from; null when none yet.
 */
export const ownSkillRecords = z
  .object({
    speed: z.object({ bestMs: z.number().int().positive().nullable(), rounds: z.number().int().nonnegative() }).strict(),
    kills: z.object({ best: z.number().int().nonnegative().nullable(), rounds: z.number().int().nonnegative() }).strict(),
  })
  .strict();
export type OwnSkillRecords = z.infer<typeof ownSkillRecords>;
