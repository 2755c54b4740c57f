import { create } from "zustand";
import { GAME_IDS, type GameId } from "@casino/common/catalogue";
import { storage, STORAGE_KEYS } from "../platform/storage";

/** How many games "Recently played" lists. */
export const RECENT_SHOWN = 4;

/** Game ids stored as a JSON list; anything unknown or malformed is dropped. */
function readIds(key: string): GameId[] {
  try {
    const value: unknown = JSON.parse(storage.get(key) ?? "[]");
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter((id): id is GameId => (GAME_IDS as readonly unknown[]).includes(id)))];
  } catch {
    return [];
  }
}

interface GamePicksState {
  /** The player's favourite games on this device, in the order they were starred. */
  favourites: GameId[];
  /** Games opened on this device, the latest first. */
  recent: GameId[];
  toggleFavourite(id: GameId): void;
  played(id: GameId): void;
}

/** Favourites and recently played games: conveniences kept on this device (localStorage). */
export const useGamePicks = create<GamePicksState>()((set, get) => ({
  favourites: readIds(STORAGE_KEYS.favouriteGames),
  recent: readIds(STORAGE_KEYS.recentGames),
  toggleFavourite(id) {
    const now = get().favourites;
    const favourites = now.includes(id) ? now.filter((g) => g !== id) : [...now, id];
    storage.set(STORAGE_KEYS.favouriteGames, JSON.stringify(favourites));
    set({ favourites });
  },
  played(id) {
    const recent = [id, ...get().recent.filter((g) => g !== id)].slice(0, RECENT_SHOWN);
    storage.set(STORAGE_KEYS.recentGames, JSON.stringify(recent));
    set({ recent });
  },
}));
