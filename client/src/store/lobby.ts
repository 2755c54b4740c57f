import { create } from "zustand";
import type { GameId } from "@casino/common/catalogue";
import { useGamePicks } from "./game-picks";

export type LobbyTab = "games" | "daily" | "leaderboard";

interface LobbyState {
  tab: LobbyTab;
  /** The game shown in place of the lobby, if any. */
  activeGame: GameId | null;
  setTab(tab: LobbyTab): void;
  openGame(id: GameId): void;
  exitGame(): void;
}

export const useLobby = create<LobbyState>()((set) => ({
  tab: "games",
  activeGame: null,
  setTab: (tab) => set({ tab }),
  openGame: (id) => {
    useGamePicks.getState().played(id);
    set({ activeGame: id });
  },
  exitGame: () => set({ activeGame: null }),
}));
