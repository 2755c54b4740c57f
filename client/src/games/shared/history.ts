import { useEffect, useSyncExternalStore } from "react";
import type { BetAnswer } from "@casino/common/protocol";
import type { TableSession } from "../contract";
import { fetchHistory, type HistoryItem } from "./api";

/**
 * The player's own rounds, shared by every table's "My bets" and the live feed: read from the server's
 * history (the record of what was settled), refreshed after each round. Refreshes are spaced out so
 * that auto-bet never runs into the REST rate limit; the rounds of this visit are also kept locally for
 * a table opened without a session.
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
    if (session === current) emit({ items, loading: false, error: null });
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
  emit({ local: [round, ...state.local].slice(0, LOCAL_KEPT) });
  refreshHistory();
}

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
