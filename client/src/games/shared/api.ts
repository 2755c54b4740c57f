import type { TableSession } from "../contract";

/** One round of the player's history, as `GET /api/player/:id/history` lists it. */
export interface HistoryItem {
  id: string;
  gameType: string;
  /** everything the round staked (a double, a split, a raise included) */
  betAmount: number;
  result: "win" | "lose" | "push";
  payout: number;
  requestId: string;
  params: unknown;
  actions: unknown[];
  /** the engine's final view of the round */
  outcome: unknown;
  createdAt: string;
  fairness: { serverSeedHash: string; clientSeed: string; nonce: number; serverSeed: string | null };
}

export class HistoryError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HistoryError";
  }
}

/** The player's latest rounds of every game, newest first (the server allows up to 100 a page). */
export async function fetchHistory(session: TableSession, limit = 100, signal?: AbortSignal): Promise<HistoryItem[]> {
  const res = await fetch(`/api/player/${encodeURIComponent(session.playerId)}/history?limit=${limit}`, {
    headers: { authorization: `Bearer ${session.token}` },
    signal,
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new HistoryError(res.status, body?.error ?? `${res.status}: ${res.statusText}`);
  }
  return ((await res.json()) as { items: HistoryItem[] }).items;
}

/**
 * Where a round can be checked once its server seed is revealed: the verifier page, pre-filled. Built
 * here only, so it follows the verifier's query format in one place.
 */
export function verifyHref(item: HistoryItem): string | null {
  if (!item.fairness.serverSeed) return null;
  const q = new URLSearchParams({
    game: item.gameType,
    serverSeed: item.fairness.serverSeed,
    clientSeed: item.fairness.clientSeed,
    nonce: String(item.fairness.nonce),
    amount: String(item.betAmount),
    params: JSON.stringify(item.params ?? {}),
    actions: JSON.stringify(item.actions ?? []),
  });
  return `/verify?${q.toString()}`;
}
