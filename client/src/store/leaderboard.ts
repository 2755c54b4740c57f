import { create } from "zustand";

interface LeaderboardState {
  /** Bumped whenever the boards are known to have changed (a push, a bet, a spin, a setting). */
  version: number;
  invalidate(): void;
}

/** The trigger the boards refetch on, besides their 5-second poll. */
export const useLeaderboardVersion = create<LeaderboardState>()((set) => ({
  version: 0,
  invalidate: () => set((s) => ({ version: s.version + 1 })),
}));

export const refreshLeaderboard = () => useLeaderboardVersion.getState().invalidate();
