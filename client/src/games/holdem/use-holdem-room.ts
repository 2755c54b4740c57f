import { useEffect, useMemo } from "react";
import type { HoldemPrivateView, HoldemSeatPlayer, HoldemTableSnapshot } from "@casino/common/holdem-table";
import type { HoldemAction } from "@casino/common/games/holdem/hand-machine";
import { HoldemConnection, type HoldemState } from "../../net/holdem-room";
import { useSharedRoom, type SharedRoomStatus } from "../shared/use-shared-room";
import { serverClockOffset } from "../shared/server-clock";
import type { SharedRoomHost } from "../../features/game-host/shared-room-host";
import { useTogether } from "../../store/together";

export interface HoldemRoomControls {
  status: SharedRoomStatus;
  /** The table as the server last sent it; null before the first snapshot. */
  table: HoldemTableSnapshot | null;
  /** Milliseconds to add to `Date.now()` for the server's clock, measured when the last snapshot arrived. */
  clockOffset: number;
  /** This player's seat, or null while watching. */
  me: HoldemSeatPlayer | null;
  /** This player's own cards and choices, for the seat they hold now; null while watching. */
  own: HoldemPrivateView | null;
  pending: boolean;
  error: string | null;
  sit(seat: number, buyIn: number): Promise<void>;
  act(action: HoldemAction): Promise<void>;
  sitOut(): Promise<void>;
  comeBack(postNow: boolean): Promise<void>;
  leave(): Promise<void>;
}

interface Received extends HoldemState {
  clockOffset: number;
}

/**
 * The Hold'em table as the UI sees it: the server's snapshot, this player's private view and their
 * requests. Nothing here decides a turn, a card or an outcome; the table draws what the room says.
 */
export function useHoldemRoom({ token, playerId, instanceId }: SharedRoomHost): HoldemRoomControls {
  const room = useMemo(
    () => ({
      connect: (listener: { status(status: SharedRoomStatus): void; state(state: Received | null): void }) => {
        const connection = new HoldemConnection(
          token,
          instanceId,
          {
            status: (status) => listener.status(status === "closed" ? "lost" : status),
            // Each snapshot is paired with the server clock's offset as it arrives, not when React draws it.
            state: (state) => listener.state(state && { ...state, clockOffset: serverClockOffset(state.table, Date.now()) }),
            push: () => undefined,
          },
          playerId,
        );
        void connection.start();
        return connection;
      },
    }),
    [token, instanceId, playerId],
  );
  const { status, state, pending, error, send } = useSharedRoom<Received | null, HoldemConnection>(room);
  const table = state?.table ?? null;
  const me = (table && playerId && table.seats.find((s) => s.playerId === playerId)) || null;
  // A private view of a seat this player no longer holds is stale.
  const own = me && state?.own?.seat === me.seat ? state.own : null;
  usePlaceInStrip(instanceId !== null && table !== null, me?.seat ?? null);
  return {
    status,
    table,
    clockOffset: state?.clockOffset ?? 0,
    me,
    own,
    pending,
    error,
    sit: (seat, buyIn) => send((c) => c.sit(seat, buyIn)),
    act: (action) => send((c) => c.act(action)),
    sitOut: () => send((c) => c.sitOut()),
    comeBack: (postNow) => send((c) => c.comeBack(postNow)),
    leave: () => send((c) => c.leave()),
  };
}

/**
 * While the activity instance's table is open, the player's place at it (a seat, or watching) is the
 * strip's to show to the others of the instance and the rich presence's to tell ("At the Hold'em
 * table"); a public table has no strip. Cleared when the page closes.
 */
function usePlaceInStrip(shown: boolean, seat: number | null): void {
  useEffect(() => {
    if (!shown) return;
    if (useTogether.getState().holdemTable?.seat !== seat) useTogether.setState({ holdemTable: { seat } });
  }, [shown, seat]);
  useEffect(() => () => useTogether.setState({ holdemTable: null }), []);
}
