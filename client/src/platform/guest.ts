import type { SessionAnswer, SignedInPlayer } from "@casino/common/api";
import { api } from "../net/api";
import { STORAGE_KEYS, storage } from "./storage";

/**
 * The guest of this device: the stored session when the server still accepts it, otherwise a new guest
 * (the server names it "Guest N") whose token is kept for the next visit.
 */
export async function guestSession(): Promise<SessionAnswer> {
  const stored = storage.get(STORAGE_KEYS.guestToken);
  if (stored) {
    try {
      const kept = await api<SignedInPlayer>("/session", { token: stored });
      return { session_token: stored, ...kept };
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
