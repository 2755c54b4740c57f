import { create } from "zustand";
import type { ActiveSeedView, OpenRoundView } from "@casino/common/protocol";
import type { CasinoConnection } from "../net/room";
import type { ConnectionStatus } from "../net/room-failure";

interface RoomState {
  connection: CasinoConnection | null;
  status: ConnectionStatus | "idle";
  /** Why the server closed the connection for good (status "closed": the account was suspended or erased). */
  closedReason: string | null;
  /** The balance the server last pushed (or the player record's, before the room answers). */
  balance: number | null;
  openRound: OpenRoundView | null;
  /** The player's seeds as the room mirrors them: active pair (server seed as its hash), nonce, next seed's hash. */
  seeds: ActiveSeedView | null;
  /**
   * While true the header keeps showing the balance from before, so a prize is not given away
   * before the wheel lands (the daily spin holds it for its animation).
   */
  balanceHeld: boolean;
  holdBalance(held: boolean): void;
}

export const useRoom = create<RoomState>()((set) => ({
  connection: null,
  status: "idle",
  closedReason: null,
  balance: null,
  openRound: null,
  seeds: null,
  balanceHeld: false,
  holdBalance: (held) => set({ balanceHeld: held }),
}));

/** The open round mirrored as JSON in the room state; "" means none. */
export function parseOpenRound(json: string): OpenRoundView | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as OpenRoundView;
  } catch {
    return null;
  }
}
