import type { TableSession } from "../contract";
import { holdemHandVerifyHref, shoeVerifyHref, verifyHref as verifierHref } from "@casino/common/verifiers/verify-link";
import type { HistoryItem } from "@casino/common/api";

export type { HistoryItem };

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
 * Where a row can be checked once its server seed is revealed: the verifier page, pre-filled (the link
 * format is common's, the one the page reads). Null while the seed is still the active one, and for
 * rows not drawn from the player's seeds; a round at the shared table links to its shoe's round, a
 * Hold'em hand to the hand's record.
 */
export function verifyHref(item: HistoryItem): string | null {
  // A Hold'em hand is verified from its own record (its seed is revealed when the hand is over).
  const hand = item.kind === "holdem_hand" ? (item.params as { handId?: unknown } | null)?.handId : undefined;
  if (typeof hand === "string") return holdemHandVerifyHref(hand);
  const table = tableRoundOf(item);
  // A seat's round at the shared table is verified with its whole shoe, once the shoe's seed is revealed.
  if (table) return `${shoeVerifyHref(table.shoeId)}#round-${table.round}`;
  const f = item.fairness;
  if (!f.serverSeed || f.clientSeed === null || f.nonce === null) return null;
  return verifierHref({
    game: item.gameType,
    serverSeed: f.serverSeed,
    serverSeedHash: f.serverSeedHash,
    clientSeed: f.clientSeed,
    nonce: f.nonce,
    // older multi-step rounds did not record their opening bet: what they staked is the best guess
    amount: item.kind === "daily_spin" ? null : (item.amount ?? item.betAmount),
    params: item.params,
    actions: item.actions,
    rounding: item.rounding,
  });
}

/** Whether a row was drawn from the player's seeds (so it becomes verifiable once they rotate). */
export const drawnFromSeeds = (item: HistoryItem): boolean => item.fairness.serverSeedHash !== null;

/** The shoe and round of a seat's round at the shared blackjack table (its history row's params), or null. */
export function tableRoundOf(item: HistoryItem): { shoeId: string; round: number } | null {
  const p = item.params as { shoeId?: unknown; round?: unknown } | null;
  return p && typeof p.shoeId === "string" && typeof p.round === "number" ? { shoeId: p.shoeId, round: p.round } : null;
}
