import { randomBytes } from "node:crypto";
import {
  SKILL_ROUNDS_PER_DAY,
  SKILL_ROUND_TICKS,
  SKILL_SUBMIT_GRACE_MS,
  ticksToMs,
  submittedRules,
  verifySkillSubmission,
  type LogRefusal,
  type SkillRoundReward,
  type SkillRoundStart,
  type SkillStartRequest,
  type SkillSubmitRequest,
  type SkillVerdict,
  type OwnSkillRecords,
} from "@casino/common";
import type { EntityManager } from "typeorm";
import { isUniqueViolation, type Database } from "../platform/db/database";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import { AppError, badRequest, notFound } from "../platform/errors";
import type { SkillLedger } from "./skill-money";
import type { Replayable } from "../core/ledger/engine/index";

/** The UTC day of the database's clock, so every process counts the same day. */
const TODAY = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * Skill rounds: the server draws each round's seed, counts the round against the daily cap when it
 * starts (so a player cannot start rounds until a seed suits them), and pays a submitted log only
 * after replaying it. A refused log closes its round and pays nothing.
 */
export class SkillRounds {
  constructor(
    private readonly db: Database,
    private readonly ledger: SkillLedger,
    private readonly options: { realTimeCheck: boolean },
  ) {}

  /** The player's own best time and best kills, and how many results each is the best of. */
  async records(playerId: string): Promise<OwnSkillRecords> {
    return this.db.run(async (em) => {
      const [speed] = await sqlRows<{ best: number | string | null; rounds: number | string }>(
        em,
        `SELECT min(completion_time_ms) AS best, count(*) AS rounds FROM dots_speed_records WHERE player_id = $1`,
        [playerId],
      );
      const [kills] = await sqlRows<{ best: number | string | null; rounds: number | string }>(
        em,
        `SELECT max(kills) AS best, count(*) AS rounds FROM dot_battle_scores WHERE player_id = $1`,
        [playerId],
      );
      const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
      return {
        speed: { bestMs: num(speed?.best), rounds: num(speed?.rounds) ?? 0 },
        kills: { best: num(kills?.best), rounds: num(kills?.rounds) ?? 0 },
      };
    });
  }

  /**
   * Starts a round: claims one of today's rounds with a conditional update (any number of concurrent
   * starts claim at most the cap) and stores the seed. A repeated request id gets the same round.
   */
  async start(playerId: string, request: SkillStartRequest): Promise<SkillRoundStart> {
    try {
      return await this.db.transaction(async (em) => {
        const [existing] = await sqlRows<Row<"skill_rounds">>(em, `SELECT * FROM skill_rounds WHERE player_id = $1 AND request_id = $2`, [
          playerId,
          request.requestId,
        ]);
        if (existing) return this.startAnswer(em, existing);
        const claimed = await sqlRows<Row<"players", "dots_last_played_date">>(
          em,
          `UPDATE players
              SET dots_games_played_today = CASE WHEN dots_last_played_date = ${TODAY} THEN dots_games_played_today + 1 ELSE 1 END,
                  dots_last_played_date = ${TODAY}
            WHERE id = $1 AND (dots_last_played_date IS DISTINCT FROM ${TODAY} OR dots_games_played_today < $2)
            RETURNING dots_last_played_date`,
          [playerId, SKILL_ROUNDS_PER_DAY],
        );
        if (claimed.length === 0) {
          throw new AppError("daily_limit", 429, `You have played all ${SKILL_ROUNDS_PER_DAY} skill games for today; come back tomorrow`, {
            playedToday: SKILL_ROUNDS_PER_DAY,
            dailyCap: SKILL_ROUNDS_PER_DAY,
          });
        }
        const [round] = await sqlRows<Row<"skill_rounds">>(
          em,
          `INSERT INTO skill_rounds (player_id, game, request_id, seed, played_on) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [playerId, request.game, request.requestId, randomBytes(32).toString("hex"), claimed[0].dots_last_played_date],
        );
        return this.startAnswer(em, round);
      });
    } catch (error) {
      // The same start sent twice at once: the second insert lost the race (and its claim rolled back).
      if (!isUniqueViolation(error)) throw error;
      return this.db.run(async (em) => {
        const [existing] = await sqlRows<Row<"skill_rounds">>(em, `SELECT * FROM skill_rounds WHERE player_id = $1 AND request_id = $2`, [
          playerId,
          request.requestId,
        ]);
        if (!existing) throw error;
        return this.startAnswer(em, existing);
      });
    }
  }

  /** How many rounds the player has started today, and the cap. */
  today(playerId: string): Promise<{ playedToday: number; dailyCap: number }> {
    return this.db.run((em) => playedToday(em, playerId));
  }

  /**
   * Replays a submitted log and pays the replay's score. Refused: a log that breaks the input rules, a
   * claim above the replay, more game time than has passed since the round started, or a round that is
   * not open (already paid, refused, or past its deadline).
   */
  async submit(playerId: string, roundId: string, submission: SkillSubmitRequest): Promise<Replayable<SkillRoundReward>> {
    const [round] = await this.db.run((em) =>
      sqlRows<
        Row<"skill_rounds", "id" | "player_id" | "game" | "seed" | "status" | "refusal_code" | "refusal"> & { elapsed_ms: number | string }
      >(
        em,
        `SELECT id, player_id, game, seed, status, refusal_code, refusal, extract(epoch FROM now() - started_at) * 1000 AS elapsed_ms
           FROM skill_rounds WHERE id = $1`,
        [roundId],
      ),
    );
    if (!round || round.player_id !== playerId) throw notFound("Skill round not found");
    const game = round.game;
    if (game !== submission.game) throw badRequest(`This round is a ${game} round`, "wrong_game");
    // ck_skill_rounds_refusal: a refused round always has its code and message.
    if (round.status === "refused") throw refused({ code: round.refusal_code!, message: round.refusal! });
    if (round.status === "expired") throw expired();
    const elapsedMs = Number(round.elapsed_ms);
    if (round.status === "open" && elapsedMs > ticksToMs(SKILL_ROUND_TICKS[game]) + SKILL_SUBMIT_GRACE_MS) {
      await this.db.run((em) => sqlRows(em, `UPDATE skill_rounds SET status = 'expired' WHERE id = $1 AND status = 'open'`, [roundId]));
      throw expired();
    }
    const verdict = this.verify(round.seed, submission, elapsedMs);
    if (!verdict.ok) {
      await this.db.run((em) =>
        sqlRows(
          em,
          `UPDATE skill_rounds SET status = 'refused', refusal_code = $2, refusal = $3, inputs = $4, rules_version = $5, submitted_at = now()
            WHERE id = $1 AND status = 'open'`,
          [roundId, verdict.refusal.code, verdict.refusal.message, JSON.stringify(submission.inputs), submittedRules(submission)],
        ),
      );
      throw refused(verdict.refusal);
    }
    return this.ledger.rewardSkillRound(playerId, submission.requestId, {
      roundId,
      score: verdict.score,
      reward: verdict.reward,
      inputs: submission.inputs,
      rulesVersion: submittedRules(submission),
    });
  }

  private verify(seed: string, submission: SkillSubmitRequest, elapsedMs: number): SkillVerdict {
    const verdict = verifySkillSubmission(seed, submission);
    // The browser steps the game in real time from the moment it got the seed, so the game time of an
    // honest log never exceeds the time since the round started.
    if (verdict.ok && this.options.realTimeCheck && ticksToMs(verdict.durationTicks) > elapsedMs) {
      return {
        ok: false,
        refusal: {
          code: "faster_than_real_time",
          message: `the log covers ${ticksToMs(verdict.durationTicks)} ms of play but the round started ${Math.floor(elapsedMs)} ms ago`,
        },
      };
    }
    return verdict;
  }

  private async startAnswer(
    em: EntityManager,
    round: Row<"skill_rounds", "id" | "player_id" | "game" | "seed" | "started_at">,
  ): Promise<SkillRoundStart> {
    const { playedToday: played } = await playedToday(em, round.player_id);
    return {
      roundId: round.id,
      game: round.game,
      seed: round.seed,
      startedAt: new Date(round.started_at).toISOString(),
      roundTicks: SKILL_ROUND_TICKS[round.game],
      playedToday: played,
      dailyCap: SKILL_ROUNDS_PER_DAY,
    };
  }
}

async function playedToday(em: EntityManager, playerId: string): Promise<{ playedToday: number; dailyCap: number }> {
  const [row] = await sqlRows(
    em,
    `SELECT CASE WHEN dots_last_played_date = ${TODAY} THEN dots_games_played_today ELSE 0 END AS played FROM players WHERE id = $1`,
    [playerId],
  );
  return { playedToday: Number(row?.played ?? 0), dailyCap: SKILL_ROUNDS_PER_DAY };
}

const refused = (refusal: LogRefusal) => new AppError("log_refused", 422, `Score refused: ${refusal.message}`, { reason: refusal.code });
const expired = () => new AppError("round_expired", 410, "This round has expired");
