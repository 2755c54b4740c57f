import { create } from "zustand";
import type { PlayerRecord } from "@casino/common/api";

/** The Discord context of a launch inside Discord, kept for the shared rooms of the instance. */
export interface DiscordContext {
  instanceId: string;
  /** The server accepted this player into the instance (its shared rooms); false when it refused. */
  instanceJoined: boolean;
  guildId: string | null;
  channelId: string | null;
  platform: string;
  user: { id: string; username: string; globalName: string | null; avatar: string | null };
}

interface SessionState {
  phase: "starting" | "ready" | "failed";
  /** The player record as signed in; its balance is the one of that moment: the room store (store/room.ts) keeps the balance. */
  player: PlayerRecord | null;
  token: string | null;
  /** Why Discord sign-in failed; play continues as a guest and the lobby says so. */
  authError: string | null;
  /** Why no player could be made at all (the Connection Error screen). */
  fatalError: string | null;
  discord: DiscordContext | null;
  /** True when the page was launched by Discord (even if sign-in then failed). */
  embedded: boolean;
  patchPlayer(fields: Partial<PlayerRecord>): void;
}

export const useSession = create<SessionState>()((set) => ({
  phase: "starting",
  player: null,
  token: null,
  authError: null,
  fatalError: null,
  discord: null,
  embedded: false,
  patchPlayer: (fields) => set((s) => (s.player ? { player: { ...s.player, ...fields } } : {})),
}));

/** A guest plays on this device only (id "guest-…"): no terms prompt, no suggestions, no server theme. */
export const isGuestPlayer = (player: PlayerRecord | null): boolean => !player || player.isGuest;
