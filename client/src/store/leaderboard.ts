import { useMemo } from "react";
import { create } from "zustand";
import type { LeaderboardScope, LeaderboardWindow } from "@casino/common/api";
import { api } from "../net/api";
import { useSession } from "./session";

interface LeaderboardState {
  /** Bumped whenever the boards are known to have changed (a bet, a spin, a setting): polled boards refetch. */
  version: number;
  /**
   * Bumped when a player's own name, tag or anonymous mode changed: live boards ask for a fresh page,
   * since the room pushes coin changes but not settings.
   */
  profileVersion: number;
  invalidate(profile?: boolean): void;
  /** Which players the boards rank: everyone, this Discord server (guild) or this voice channel (instance). */
  scope: LeaderboardScope;
  /** The balance board's period: all-time balances, or today's / this week's net winnings. */
  window: LeaderboardWindow;
  /** The activity instance the server accepted this player in (`POST /api/instances/join`), if any. */
  joinedInstance: string | null;
  setScope(scope: LeaderboardScope): void;
  setWindow(window: LeaderboardWindow): void;
}

/** The boards' shared choices, and the trigger they refresh on besides their live room. */
export const useLeaderboard = create<LeaderboardState>()((set) => ({
  version: 0,
  profileVersion: 0,
  invalidate: (profile = false) => set((s) => ({ version: s.version + 1, profileVersion: s.profileVersion + (profile ? 1 : 0) })),
  scope: "global",
  window: "all",
  joinedInstance: null,
  setScope: (scope) => set({ scope }),
  setWindow: (window) => set({ window }),
}));

/** After a coin movement of this player (a bet, a spin). */
export const refreshLeaderboard = () => useLeaderboard.getState().invalidate();
/** After a change of this player's name, tag or anonymous mode. */
export const refreshLeaderboardProfile = () => useLeaderboard.getState().invalidate(true);

/** The scope's query fields as the server wants them (its guild or instance id), or null when it does not apply. */
export interface ScopeParams {
  scope: LeaderboardScope;
  guildId?: string;
  instanceId?: string;
}

/**
 * The scopes this player can look at: the guild and the instance only inside Discord, for a signed-in
 * player, and the instance once the server has accepted the player in it.
 */
export function useAvailableScopes(): Record<LeaderboardScope, ScopeParams | null> {
  const player = useSession((s) => s.player);
  const discord = useSession((s) => s.discord);
  const joinedInstance = useLeaderboard((s) => s.joinedInstance);
  const signedIn = Boolean(player && !player.isGuest && discord);
  const guildId = signedIn ? (discord?.guildId ?? null) : null;
  const instanceId = signedIn && joinedInstance && discord?.instanceId === joinedInstance ? joinedInstance : null;
  return useMemo(
    () => ({
      global: { scope: "global" },
      guild: guildId ? { scope: "guild", guildId } : null,
      instance: instanceId ? { scope: "instance", instanceId } : null,
    }),
    [guildId, instanceId],
  );
}

let joining: string | null = null;

/** Tells the server this player is in the activity instance it was launched in, once per instance. */
export async function joinActivityInstance(instanceId: string): Promise<void> {
  if (joining === instanceId || useLeaderboard.getState().joinedInstance === instanceId) return;
  joining = instanceId;
  try {
    await api("/instances/join", { method: "POST", body: { instanceId } });
    useLeaderboard.setState({ joinedInstance: instanceId });
  } catch (error) {
    console.warn("Could not join the activity instance's leaderboard", error);
    joining = null;
  }
}
