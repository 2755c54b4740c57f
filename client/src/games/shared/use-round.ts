import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { BetAnswer, OpenRoundView } from "@casino/common/protocol";
import { acceptAnswer, requestSent, revealed, useRoom } from "../../store/room";
import { fastRevealNow, useFastReveal } from "../../ui/useReducedMotion";
import type { GameTableProps } from "../contract";
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

/**
 * How long after its reveal was due a settled round is ended even if its table never showed the result
 * (a table whose result waits on its own animation, stopped; the page hidden): the header, "My bets" and
 * the toasts never stay held.
 */
const SAFETY_RELEASE_MS = 3000;

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A table's conversation with the server: sends bets and actions one at a time, keeps the last answer,
 * resumes the open round from the room state, and tells the shell when a round ends, once its reveal
 * animation (`revealMs`) has played and the table shows the result (`RoundResult` appearing). Everything
 * else that tells the outcome follows that moment (the room store's `revealed`): the stake leaves the
 * header when the server accepts the bet, the payout reaches it when the table shows the result (at once
 * in Turbo, during an auto-bet and with animations off), and so do the round's rows and its toast.
 * Nothing here computes an outcome: it shows what the server answered.
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

  // A settled round's end (its toast, the header's payout, its rows) waits for the table to show the
  // result: `RoundResult` tells the room store when it appears (`revealed`), and the round ends then.
  // Should a table never show it, the safety release ends it a while after its reveal was due; a table
  // closed before that ends its rounds as it closes.
  const ending = useRef(new Map<string, { ended: BetAnswer; timer?: ReturnType<typeof setTimeout> }>());
  const end = useCallback((requestId: string) => {
    const waiting = ending.current.get(requestId);
    if (!waiting) return;
    ending.current.delete(requestId);
    clearTimeout(waiting.timer);
    // the round's own toast first, so a pushed toast waiting for this result comes after it
    onRoundEndRef.current(waiting.ended);
    revealed(requestId);
  }, []);
  useEffect(() => {
    const unsubscribe = useRoom.subscribe((s) => {
      for (const requestId of ending.current.keys()) if (!(requestId in s.withheld)) end(requestId);
    });
    const pendingTimers = timers.current;
    const waiting = ending.current;
    return () => {
      unsubscribe();
      for (const timer of pendingTimers.keys()) clearTimeout(timer);
      pendingTimers.clear();
      for (const requestId of [...waiting.keys()]) end(requestId);
    };
  }, [end]);

  const settle = useCallback(
    (ended: BetAnswer) => {
      const roundId = ended.roundId;
      if (roundId) setFinished((ids) => new Set(ids).add(roundId));
      setSettledCount((n) => n + 1);
      recordRound(ended);
      ending.current.set(ended.requestId, { ended });
      // a replayed answer was never withheld: nothing waits for its reveal
      if (!(ended.requestId in useRoom.getState().withheld)) end(ended.requestId);
      const show = () => {
        setShownId(ended.requestId);
        const waiting = ending.current.get(ended.requestId);
        if (waiting) waiting.timer = setTimeout(() => end(ended.requestId), SAFETY_RELEASE_MS);
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
    [revealMs, end],
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
