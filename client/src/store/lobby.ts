import { create } from "zustand";
import type { GameId } from "@casino/common/catalogue";
import { useGamePicks } from "./game-picks";

export type LobbyTab = "games" | "daily" | "leaderboard";

interface LobbyState {
  tab: LobbyTab;
  /** The game shown in place of the lobby, if any. */
  activeGame: GameId | null;
  /** The game was opened at its shared table (the blackjack tile's "Join the table"), not solo. */
  startShared: boolean;
  /** How many times the shared table was asked for (a new ask moves a blackjack game already open to it). */
  sharedAsks: number;
  setTab(tab: LobbyTab): void;
  openGame(id: GameId, shared?: boolean): void;
  exitGame(): void;
}

export const useLobby = create<LobbyState>()((set) => ({
  tab: "games",
  activeGame: null,
  startShared: false,
  sharedAsks: 0,
  setTab: (tab) => set({ tab }),
  openGame: (id, shared = false) => {
    useGamePicks.getState().played(id);
    set((s) => ({ activeGame: id, startShared: shared, sharedAsks: s.sharedAsks + (shared ? 1 : 0) }));
  },
  exitGame: () => set({ activeGame: null }),
}));
