import { useEffect, useSyncExternalStore } from "react";
import type { BetAnswer } from "@casino/common/protocol";
import { onRoundsShown, roundUnshown, useRoom } from "../../store/room";
import type { TableSession } from "../contract";
import { fetchHistory, type HistoryItem } from "./api";

/**
 * The player's own rounds, shared by every table's "My bets" and the live feed: read from the server's
 * history (the record of what was settled), refreshed after each round. Refreshes are spaced out so
 * that auto-bet never runs into the REST rate limit; the rounds of this visit are also kept locally for
 * a table opened without a session.
 *
 * Nothing here tells a round's outcome before its table does: while a round of the player's is unshown
 * (`roundUnshown`: a bet on its way, a reveal still playing), a read that comes back and a round just
 * settled are held, and shown together when the table has shown the result (`onRoundsShown`).
 */
export interface LocalRound {
  requestId: string;
  game: string;
  stake: number;
  payout: number;
  result: "win" | "lose" | "push";
  /** what the round paid before rounding to whole coins, ÷ the stake: its real multiplier */
  multiplier: number;
  at: string;
}

interface HistoryState {
  items: HistoryItem[];
  local: LocalRound[];
  loading: boolean;
  error: string | null;
}

const MIN_REFRESH_GAP_MS = 1500;
const LOCAL_KEPT = 50;

let state: HistoryState = { items: [], local: [], loading: false, error: null };
let session: TableSession | null = null;
const listeners = new Set<() => void>();
let inFlight = false;
let queued = false;
let lastFetch = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
/** what waits for the player's rounds to be shown: the last read of the server's list, rounds of this visit */
let heldItems: HistoryItem[] | null = null;
let heldLocal: LocalRound[] = [];

const emit = (next: Partial<HistoryState>) => {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
};

async function load(): Promise<void> {
  const current = session;
  if (!current) return;
  if (inFlight) {
    queued = true;
    return;
  }
  inFlight = true;
  lastFetch = Date.now();
  emit({ loading: true });
  try {
    const items = await fetchHistory(current);
    if (session !== current) return;
    if (roundUnshown(useRoom.getState())) {
      heldItems = items;
      emit({ loading: false, error: null });
    } else emit({ items, loading: false, error: null });
  } catch (error) {
    if (session === current) emit({ loading: false, error: error instanceof Error ? error.message : String(error) });
  } finally {
    inFlight = false;
    if (queued) {
      queued = false;
      refreshHistory();
    }
  }
}

/** Asks for a fresh copy soon: at once if the last read is old enough, otherwise once the gap has passed. */
export function refreshHistory(): void {
  if (!session || timer) return;
  const wait = Math.max(0, lastFetch + MIN_REFRESH_GAP_MS - Date.now());
  timer = setTimeout(() => {
    timer = undefined;
    void load();
  }, wait);
}

/** Notes a finished round of this visit, and refreshes the server's list. */
export function recordRound(answer: BetAnswer): void {
  if (!answer.done || answer.result === null) return;
  const round: LocalRound = {
    requestId: answer.requestId,
    game: answer.game,
    stake: answer.totalStake,
    payout: answer.totalPayout,
    result: answer.result,
    // the exact payout of the step that rounded one, never the whole coins it came to
    multiplier:
      answer.totalStake > 0 ? (answer.totalPayout - answer.payout + (answer.unroundedPayout ?? answer.payout)) / answer.totalStake : 0,
    at: new Date().toISOString(),
  };
  heldLocal = [round, ...heldLocal];
  if (!roundUnshown(useRoom.getState())) release();
}

/**
 * The player's rounds are all shown: what waited is shown, and after a round the server's list is read
 * afresh (not after every answered action of a round still open).
 */
function release(): void {
  const next: Partial<HistoryState> = {};
  if (heldItems) next.items = heldItems;
  if (heldLocal.length > 0) next.local = [...heldLocal, ...state.local].slice(0, LOCAL_KEPT);
  heldItems = null;
  heldLocal = [];
  if (next.items || next.local) emit(next);
  if (next.local) refreshHistory();
}
onRoundsShown(release);

function useSession(next: TableSession | null | undefined): void {
  const key = next ? `${next.playerId}:${next.token}` : "";
  useEffect(() => {
    const currentKey = session ? `${session.playerId}:${session.token}` : "";
    if (key === currentKey) {
      // a table opened again: bring its list up to date
      refreshHistory();
      return;
    }
    session = next ?? null;
    heldItems = null;
    emit({ items: [], error: null });
    if (session) void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

export function useHistory(next: TableSession | null | undefined): HistoryState {
  useSession(next);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
