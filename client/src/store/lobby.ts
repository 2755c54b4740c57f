import { create } from "zustand";
import type { GameId } from "@casino/common/catalogue";
import { useGamePicks } from "./game-picks";
import { currentPlace, gamePath, go, isAboveLobby, tabPath, type LobbyTab } from "../app/address";

export type { LobbyTab } from "../app/address";

interface LobbyState {
  /** The lobby's tab: the address's while the lobby shows, the last one while a game or page does. */
  tab: LobbyTab;
  /** The game shown in place of the lobby, if any: the one the address names (`/games/<id>`). */
  activeGame: GameId | null;
  /** The game was opened at its shared table (the blackjack tile's "Join the table"), not solo. */
  startShared: boolean;
  /** How many times the shared table was asked for (a new ask moves a blackjack game already open to it). */
  sharedAsks: number;
  /** Shows the lobby at this tab: a tab of the lobby in place of the other, else a new history entry. */
  setTab(tab: LobbyTab): void;
  /** Opens a game: over the lobby as a new history entry, in place of a game already open. */
  openGame(id: GameId, shared?: boolean): void;
  /** Back to the lobby: the browser's Back when the game was opened over it, else the lobby in its place. */
  exitGame(): void;
}

/** The store's view of the address: tab and game follow it, never the other way round. */
function fromAddress(previousTab: LobbyTab): Pick<LobbyState, "tab" | "activeGame"> {
  const place = currentPlace();
  return { tab: place.page === "lobby" ? place.tab : previousTab, activeGame: place.page === "game" ? place.game : null };
}

export const useLobby = create<LobbyState>()((set, get) => ({
  ...(typeof location === "undefined" ? { tab: "games" as LobbyTab, activeGame: null } : fromAddress("games")),
  startShared: false,
  sharedAsks: 0,
  setTab: (tab) => {
    const inLobby = currentPlace().page === "lobby";
    if (inLobby && get().tab === tab) return;
    go(tabPath(tab), { replace: inLobby });
  },
  openGame: (id, shared = false) => {
    useGamePicks.getState().played(id);
    set((s) => ({ startShared: shared, sharedAsks: s.sharedAsks + (shared ? 1 : 0) }));
    const place = currentPlace();
    if (place.page === "game" && place.game === id) return;
    if (place.page === "game") go(gamePath(id), { replace: true, aboveLobby: isAboveLobby() });
    else go(gamePath(id), { aboveLobby: place.page === "lobby" });
  },
  exitGame: () => {
    if (currentPlace().page !== "game") return;
    if (isAboveLobby()) history.back();
    else go(tabPath(get().tab), { replace: true });
  },
}));

// Every move of the address (a link, the store's own, Back and Forward) is mirrored in the store; the
// router (wouter) announces pushState and replaceState as events of these names.
if (typeof window !== "undefined") {
  const follow = () => useLobby.setState((s) => fromAddress(s.tab));
  for (const event of ["popstate", "pushState", "replaceState"]) window.addEventListener(event, follow);
}
