import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { BetAnswer, OpenRoundView } from "@casino/common/protocol";
import { acceptAnswer, requestSent, revealed } from "../../store/room";
import { fastRevealNow, useFastReveal } from "../../ui/useReducedMotion";
import { RoomRequestError, type GameTableProps } from "../contract";
import { recordRound } from "./history";

/** The round a table shows: the server's last answer, or the open round the room state mirrors. */
export interface ShownRound<V> {
  view: V;
  roundId: string | null;
  done: boolean;
  totalStake: number;
  totalPayout: number;
  /**
   * What the round paid before rounding, when its settling step rounded a payout (rule 2); null when
   * every payout was whole. Single-bet games round only on the step that settles them.
   */
  unroundedPayout: number | null;
  result: BetAnswer["result"];
  /** the answer itself when this visit got one (absent for a round resumed from the room state) */
  answer: BetAnswer | null;
  /** a settled round whose reveal has played: its result may be told, and its payout is in the header */
  revealed: boolean;
}

export interface RoundControls<V> {
  /** what to draw; null before the first round */
  round: ShownRound<V> | null;
  /** this game's open round (from an answer or resumed), null when none is open */
  open: ShownRound<V> | null;
  /** the player's open round of another game, which blocks a new multi-step round */
  otherOpen: OpenRoundView | null;
  pending: boolean;
  error: string | null;
  setError(message: string | null): void;
  bet(amount: number, params: unknown): Promise<BetAnswer | null>;
  act(action: unknown): Promise<BetAnswer | null>;
  /** counts settled rounds, so animations can restart on each new outcome */
  settledCount: number;
  /** the reveal is skipped (Turbo, auto-bet, animations off): the result shows with the answer */
  fast: boolean;
}

export const errorText = (error: unknown): string =>
  error instanceof RoomRequestError || error instanceof Error ? error.message : String(error);

/**
 * A table's conversation with the server: sends bets and actions one at a time, keeps the last answer,
 * resumes the open round from the room state, and tells the shell when a round ends, once its reveal
 * animation (`revealMs`) has played. The header's balance follows: the stake leaves it when the server
 * accepts the bet, the payout reaches it when the reveal has played (at once in Turbo, during an
 * auto-bet and with animations off). Nothing here computes an outcome: it shows what the server answered.
 */
export function useRound<V>(props: GameTableProps, revealMs: number | ((answer: BetAnswer) => number) = 0): RoundControls<V> {
  const { connection, onRoundEnd, game } = props;
  const [answer, setAnswer] = useState<BetAnswer | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [settledCount, setSettledCount] = useState(0);
  const busy = useRef(false);
  const [finished, setFinished] = useState<ReadonlySet<string>>(() => new Set());
  const [shownId, setShownId] = useState<string | null>(null);
  const fast = useFastReveal();
  const timers = useRef(new Map<ReturnType<typeof setTimeout>, BetAnswer>());
  const onRoundEndRef = useRef(onRoundEnd);
  useLayoutEffect(() => {
    onRoundEndRef.current = onRoundEnd;
  });

  // The end-of-round feedback waits for the reveal; a table closed before that still reports it.
  useEffect(() => {
    const pendingTimers = timers.current;
    return () => {
      for (const [timer, ended] of pendingTimers) {
        clearTimeout(timer);
        onRoundEndRef.current(ended);
        revealed(ended.requestId);
      }
      pendingTimers.clear();
    };
  }, []);

  const settle = useCallback(
    (ended: BetAnswer) => {
      const roundId = ended.roundId;
      if (roundId) setFinished((ids) => new Set(ids).add(roundId));
      setSettledCount((n) => n + 1);
      recordRound(ended);
      const show = () => {
        setShownId(ended.requestId);
        // the round's own toast first, so a pushed toast waiting for this result comes after it
        onRoundEndRef.current(ended);
        revealed(ended.requestId);
      };
      const wait = fastRevealNow() ? 0 : typeof revealMs === "function" ? revealMs(ended) : revealMs;
      if (wait <= 0) {
        show();
        return;
      }
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        show();
      }, wait);
      timers.current.set(timer, ended);
    },
    [revealMs],
  );

  const send = useCallback(
    async (request: () => Promise<BetAnswer>): Promise<BetAnswer | null> => {
      if (busy.current) return null;
      busy.current = true;
      setPending(true);
      setError(null);
      requestSent();
      try {
        const next = await request();
        acceptAnswer(next);
        setAnswer(next);
        if (next.done) settle(next);
        return next;
      } catch (e) {
        acceptAnswer(null);
        setError(errorText(e));
        return null;
      } finally {
        busy.current = false;
        setPending(false);
      }
    },
    [settle],
  );

  const bet = useCallback((amount: number, params: unknown) => send(() => connection.bet(amount, params)), [connection, send]);
  const act = useCallback((action: unknown) => send(() => connection.act(action)), [connection, send]);

  const mirrored = connection.openRound;
  const mine = mirrored && mirrored.game === game.id && !finished.has(mirrored.roundId) ? mirrored : null;
  const fromAnswer: ShownRound<V> | null = answer
    ? {
        view: answer.view as V,
        roundId: answer.roundId,
        done: answer.done,
        totalStake: answer.totalStake,
        totalPayout: answer.totalPayout,
        unroundedPayout: answer.unroundedPayout === undefined ? null : answer.totalPayout - answer.payout + answer.unroundedPayout,
        result: answer.result,
        answer,
        revealed: answer.done && shownId === answer.requestId,
      }
    : null;
  const fromState: ShownRound<V> | null = mine
    ? {
        view: mine.view as V,
        roundId: mine.roundId,
        done: false,
        totalStake: mine.totalStake,
        totalPayout: mine.totalPayout,
        unroundedPayout: null,
        result: null,
        answer: null,
        revealed: false,
      }
    : null;
  // The answer is the freshest word on its own round; the room state wins for a round this visit has
  // not answered (resumed after a reload, or opened elsewhere).
  const round = fromState && (!fromAnswer || fromAnswer.roundId !== fromState.roundId) ? fromState : fromAnswer;
  const open = round && !round.done ? round : null;
  const otherOpen = mirrored && mirrored.game !== game.id ? mirrored : null;

  return { round, open, otherOpen, pending, error, setError, bet, act, settledCount, fast };
}
