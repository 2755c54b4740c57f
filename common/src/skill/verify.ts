import { DOTS_REWARD, DOT_BATTLE_COINS_PER_KILL } from "../constants";
import { replayConnectDots } from "./connect-dots";
import { replayDotBattle } from "./dot-battle";
import type { LogRefusal } from "./input-log";
import { submittedRules, type SkillSubmitRequest } from "./api";

/** What the server's replay of a round established. */
export type SkillScore =
  { game: "dot-battle"; kills: number; ticks: number } | { game: "dots"; completionMs: number; completionTicks: number };

export type SkillVerdict = { ok: true; score: SkillScore; reward: number; durationTicks: number } | { ok: false; refusal: LogRefusal };

/**
 * Replays a submitted log from the round's seed and checks the claim against the replay: the replay's
 * score is the only one that counts, and a claim above it (more kills, a faster time) means the log and
 * the claim do not belong together, so the whole submission is refused. A Connect the Dots log is
 * replayed under the rules it says it was played with (`rulesVersion`, 1 when absent).
 */
export function verifySkillSubmission(seed: string, submission: SkillSubmitRequest): SkillVerdict {
  if (submission.game === "dot-battle") {
    const replay = replayDotBattle(seed, submission.inputs);
    if (!replay.ok) return replay;
    const { kills, ticks } = replay.result;
    if (submission.claimedKills > kills) {
      return refuse("claim_above_replay", `claimed ${submission.claimedKills} kills but the replay gives ${kills}`);
    }
    return { ok: true, score: { game: "dot-battle", kills, ticks }, reward: kills * DOT_BATTLE_COINS_PER_KILL, durationTicks: ticks };
  }
  const replay = replayConnectDots(seed, submission.inputs, submittedRules(submission));
  if (!replay.ok) return replay;
  const { completionMs, completionTicks, connected } = replay.result;
  if (completionMs === null || completionTicks === null) {
    return refuse("not_completed", `the replay connects ${connected} of the dots, not all of them`);
  }
  if (submission.claimedCompletionMs < completionMs) {
    return refuse("faster_than_replay", `claimed ${submission.claimedCompletionMs} ms but the replay takes ${completionMs} ms`);
  }
  return { ok: true, score: { game: "dots", completionMs, completionTicks }, reward: DOTS_REWARD, durationTicks: completionTicks };
}

const refuse = (code: LogRefusal["code"], message: string): SkillVerdict => ({ ok: false, refusal: { code, message } });
