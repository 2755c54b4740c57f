/**
 * localStorage that never throws: inside some embedded webviews storage access is refused, and the
 * product must still start (the values are conveniences: a guest token, a dismissed notice, a theme).
 */
export const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* storage refused: the value lives for this visit only */
    }
  },
  remove(key: string): void {
    try {
      localStorage.removeItem(key);
    } catch {
      /* nothing stored */
    }
  },
};

/** Every key the client stores, in one place. */
export const STORAGE_KEYS = {
  guestToken: "casino-session-token",
  guestNoticeDismissed: "guest-notice-dismissed",
  /** the lobby's first-run guide was closed on this device (features/first-run) */
  firstRunGuideDone: "first-run-guide-done",
  themeMode: "theme-mode",
  themeColor: "theme-color",
  clientSeed: "client-seed",
  favouriteGames: "favourite-games",
  recentGames: "recent-games",
  playSettings: "play-settings",
  turbo: "turbo",
} as const;
