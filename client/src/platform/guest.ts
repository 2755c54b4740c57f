import type { SessionAnswer, SignedInPlayer } from "@casino/common/api";
import { ApiError, api } from "../net/api";
import { STORAGE_KEYS, storage } from "./storage";

/**
 * The server read the stored token and will not take it (unknown, expired, archived). A network failure,
 * a server error or a rate limit says nothing of the token: the same guest is tried again next time.
 */
const tokenRefused = (error: unknown): boolean =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

/**
 * The guest of this device: the stored session when the server still accepts it, a new guest (the
 * server names it "Guest N") when the server refuses it, whose token is kept for the next visit. When
 * the server cannot be asked, the error is thrown and the stored guest kept, coins and history with it.
 */
export async function guestSession(): Promise<SessionAnswer> {
  const stored = storage.get(STORAGE_KEYS.guestToken);
  if (stored) {
    try {
      const kept = await api<SignedInPlayer>("/session", { token: stored });
      return { session_token: stored, ...kept };
    } catch (error) {
      if (!tokenRefused(error)) throw error;
      storage.remove(STORAGE_KEYS.guestToken);
    }
  }
  const created = await api<SessionAnswer>("/guest", { method: "POST", body: {}, token: null });
  storage.set(STORAGE_KEYS.guestToken, created.session_token);
  return created;
}

export const guestNoticeDismissed = () => storage.get(STORAGE_KEYS.guestNoticeDismissed) === "true";
export const dismissGuestNotice = () => storage.set(STORAGE_KEYS.guestNoticeDismissed, "true");
