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
  setTab(tab: LobbyTab): void;
  openGame(id: GameId, shared?: boolean): void;
  exitGame(): void;
}

export const useLobby = create<LobbyState>()((set) => ({
  tab: "games",
  activeGame: null,
  startShared: false,
  setTab: (tab) => set({ tab }),
  openGame: (id, shared = false) => {
    useGamePicks.getState().played(id);
    set({ activeGame: id, startShared: shared });
  },
  exitGame: () => set({ activeGame: null }),
}));
