import { useCallback, useEffect, useRef, useState } from "react";
import type { SkillGame, SkillRoundReward, SkillRoundStart } from "@casino/common/skill/api";
import { netCoinsText } from "@casino/common/format";
import { WIN_TOAST_MS } from "@casino/common/constants";
import { ApiError, api, messageOf, seg } from "../../net/api";
import { newRequestId } from "../../net/request-id";
import { refreshLeaderboard } from "../../store/leaderboard";
import { useSettings } from "../../store/settings";
import { toast } from "../../store/toast";
import { playSound } from "../../ui/sounds";

/**
 * One skill round over REST: the server starts it and draws its seed, the table plays it, and the
 * submitted input log comes back as the server's own score and reward. Nothing here computes a reward:
 * what the panel shows after a round is the server's answer, or its refusal word for word.
 */
export type SkillPhase = "idle" | "starting" | "playing" | "submitting" | "done";

export interface DailyCount {
  playedToday: number;
  dailyCap: number;
}

/** What a finished round shows: the server's answer, its refusal, or why nothing was sent. */
export type SkillOutcome =
  | { kind: "rewarded"; answer: SkillRoundReward }
  | { kind: "refused"; message: string; code: string | null }
  /** the round ended without a score the server could pay (a puzzle not finished in time) */
  | { kind: "unscored"; message: string };

export interface SkillRoundState {
  phase: SkillPhase;
  round: SkillRoundStart | null;
  today: DailyCount | null;
  outcome: SkillOutcome | null;
  /** the outcomes of this visit's rounds, newest first */
  past: { at: Date; outcome: SkillOutcome }[];
  /** why a round could not start (the daily cap, the connection) */
  startError: string | null;
  start(): Promise<SkillRoundStart | null>;
  submit(body: SkillSubmission): Promise<void>;
  /** ends the round on the table without sending it (nothing the server could pay) */
  endUnscored(message: string): void;
}

export type SkillSubmission =
  | { game: "dot-battle"; inputs: (readonly number[])[]; claimedKills: number }
  | { game: "dots"; inputs: (readonly number[])[]; claimedCompletionMs: number; rulesVersion?: number };

/** A network failure is retried with the same request id (the server answers a repeat once). */
const SUBMIT_ATTEMPTS = 3;
const PAST_ROUNDS = 10;

/**
 * `onStart` gets the new round before the table is told it is playing, so the table's game exists by the
 * first frame.
 */
export function useSkillRound(game: SkillGame, onStart: (round: SkillRoundStart) => void): SkillRoundState {
  const [phase, setPhase] = useState<SkillPhase>("idle");
  const [round, setRound] = useState<SkillRoundStart | null>(null);
  const [today, setToday] = useState<DailyCount | null>(null);
  const [outcome, setOutcome] = useState<SkillOutcome | null>(null);
  const [past, setPast] = useState<{ at: Date; outcome: SkillOutcome }[]>([]);
  const [startError, setStartError] = useState<string | null>(null);
  const busy = useRef(false);
  const prepare = useRef(onStart);
  useEffect(() => {
    prepare.current = onStart;
  });

  const finish = useCallback((result: SkillOutcome) => {
    setOutcome(result);
    setPast((list) => [{ at: new Date(), outcome: result }, ...list].slice(0, PAST_ROUNDS));
    setPhase("done");
  }, []);

  useEffect(() => {
    let alive = true;
    api<DailyCount>("/skill-rounds/today")
      .then((count) => alive && setToday(count))
      .catch((error: unknown) => console.warn("Could not read today's skill rounds", error));
    return () => {
      alive = false;
    };
  }, []);

  const start = useCallback(async () => {
    if (busy.current) return null;
    busy.current = true;
    setPhase("starting");
    setStartError(null);
    setOutcome(null);
    try {
      const started = await api<SkillRoundStart>("/skill-rounds", { method: "POST", body: { requestId: newRequestId(game), game } });
      prepare.current(started);
      setRound(started);
      setToday({ playedToday: started.playedToday, dailyCap: started.dailyCap });
      setPhase("playing");
      return started;
    } catch (error) {
      const body = error instanceof ApiError ? (error.body as Partial<DailyCount> | null) : null;
      if (body?.dailyCap !== undefined && body.playedToday !== undefined)
        setToday({ playedToday: body.playedToday, dailyCap: body.dailyCap });
      setStartError(messageOf(error));
      setPhase("idle");
      return null;
    } finally {
      busy.current = false;
    }
  }, [game]);

  const submit = useCallback(
    async (body: SkillSubmission) => {
      if (!round) return;
      setPhase("submitting");
      const requestId = newRequestId(`${game}-score`);
      for (let attempt = 1; ; attempt++) {
        try {
          const answer = await api<SkillRoundReward>(`/skill-rounds/${seg(round.roundId)}/submit`, {
            method: "POST",
            body: { requestId, ...body },
          });
          finish({ kind: "rewarded", answer });
          if (answer.reward > 0) {
            if (useSettings.getState().resultToastsOn)
              toast({ title: "You won!", description: netCoinsText(answer.reward), variant: "success", duration: WIN_TOAST_MS });
            playSound("win");
          }
          refreshLeaderboard();
          break;
        } catch (error) {
          if (!(error instanceof ApiError) && attempt < SUBMIT_ATTEMPTS) continue;
          finish({ kind: "refused", message: messageOf(error), code: error instanceof ApiError ? (error.code ?? null) : null });
          break;
        }
      }
    },
    [game, round, finish],
  );

  const endUnscored = useCallback((message: string) => finish({ kind: "unscored", message }), [finish]);

  return { phase, round, today, outcome, past, startError, start, submit, endUnscored };
}
