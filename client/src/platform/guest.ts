import type { PlayerRecord, SessionAnswer } from "@casino/common/api";
import { api, seg } from "../net/api";
import { STORAGE_KEYS, storage } from "./storage";

/** The player id inside a stored session token (its `sub` claim), without verifying it: the server does. */
function subject(token: string): string | null {
  try {
    const payload = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
    const sub = (JSON.parse(atob(payload)) as { sub?: unknown }).sub;
    return typeof sub === "string" ? sub : null;
  } catch {
    return null;
  }
}

/**
 * The guest of this device: the stored session when the server still accepts it, otherwise a new guest
 * (the server names it "Guest N") whose token is kept for the next visit.
 */
export async function guestSession(): Promise<SessionAnswer> {
  const stored = storage.get(STORAGE_KEYS.guestToken);
  const id = stored ? subject(stored) : null;
  if (stored && id) {
    try {
      const player = await api<PlayerRecord>(`/player/${seg(id)}`, { token: stored });
      return { session_token: stored, player };
    } catch {
      storage.remove(STORAGE_KEYS.guestToken);
    }
  }
  const created = await api<SessionAnswer>("/guest", { method: "POST", body: {}, token: null });
  storage.set(STORAGE_KEYS.guestToken, created.session_token);
  return created;
}

export const guestNoticeDismissed = () => storage.get(STORAGE_KEYS.guestNoticeDismissed) === "true";
export const dismissGuestNotice = () => storage.set(STORAGE_KEYS.guestNoticeDismissed, "true");
