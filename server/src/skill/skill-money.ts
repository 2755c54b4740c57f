import { LEGACY_ROUNDING, type SkillRoundReward, type SkillScore } from "@casino/common";
import { sqlRows } from "../platform/db/sql";
import { conflict } from "../platform/errors";
import { MINT, moveCoins, recordRound, type MoneyRequests, type Replayable } from "../core/ledger/engine/index";

/** The skill games' money: the reward of a replayed round (skill/skill-rounds.ts replays it). */
/** The skill rounds' side of the ledger: a replayed round's reward. */
export interface SkillLedger {
  rewardSkillRound: SkillMoney["reward"];
}

export class SkillMoney {
  constructor(private readonly requests: MoneyRequests) {}

  /**
   * Pays a replayed skill round: closes the round (only an open one: a round pays once), credits the
   * reward, writes the record row (the source of the Speed and Kills boards) and the game session.
   */
  reward(
    playerId: string,
    requestId: string,
    round: { roundId: string; score: SkillScore; reward: number; inputs: unknown; rulesVersion: number },
  ): Promise<Replayable<SkillRoundReward>> {
    return this.requests.run(
      { playerId, requestId, kind: "skill-reward", body: { roundId: round.roundId, score: round.score } },
      async (ctx) => {
        const { score } = round;
        const kills = score.game === "dot-battle" ? score.kills : null;
        const completionMs = score.game === "dots" ? score.completionMs : null;
        const closed = await sqlRows(
          ctx.em,
          `UPDATE skill_rounds SET status = 'rewarded', submitted_at = now(), inputs = $3, kills = $4, completion_ms = $5, reward = $6,
                  rules_version = $8
          WHERE id = $1 AND player_id = $2 AND game = $7 AND status = 'open' RETURNING id`,
          [round.roundId, playerId, JSON.stringify(round.inputs), kills, completionMs, round.reward, score.game, round.rulesVersion],
        );
        if (closed.length === 0) throw conflict("This round has already been submitted", "round_closed");
        const balance = moveCoins(
          ctx,
          requestId,
          round.reward > 0 ? [{ delta: round.reward, reason: "reward", reference: score.game, account: MINT.skillReward }] : [],
        );
        const w = ctx.writes;
        if (score.game === "dot-battle") {
          w.add(
            `INSERT INTO dot_battle_scores (player_id, kills, round_id) VALUES (${w.p(playerId)}, ${w.p(score.kills)}, ${w.p(round.roundId)})`,
          );
        } else {
          w.add(
            `INSERT INTO dots_speed_records (player_id, completion_time_ms, round_id) VALUES (${w.p(playerId)}, ${w.p(score.completionMs)}, ${w.p(round.roundId)})`,
          );
        }
        recordRound(w, {
          playerId,
          requestId,
          game: score.game,
          amount: 0,
          totalStake: 0,
          totalPayout: round.reward,
          seed: null,
          params: { roundId: round.roundId },
          actions: [],
          outcome: score,
          rounding: LEGACY_ROUNDING,
          // The spec's results: Connect the Dots always wins (bet 0, payout = reward); Dot Battle wins or loses.
          result: score.game === "dots" || round.reward > 0 ? "win" : "lose",
        });
        ctx.announced.push({ type: "skill-settled", playerId, round: { game: score.game, roundId: round.roundId, reward: round.reward } });
        return { requestId, roundId: round.roundId, game: score.game, kills, completionMs, reward: round.reward, balance };
      },
    );
  }
}
