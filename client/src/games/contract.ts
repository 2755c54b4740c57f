import type { ComponentType } from "react";
import type { GameDefinition } from "@casino/common/catalogue";
import type { TableAnswer, TableSnapshot } from "@casino/common/table";
import type { BlackjackAction } from "@casino/common/games/blackjack/engine";
import type { BetAnswer, OpenRoundView } from "@casino/common/protocol";
import type { CrashBetAnswer, CrashCashOutAnswer, CrashRoomSnapshot } from "@casino/common/crash-room";

/**
 * The one seam between the shell and the game tables: the shell owns the room connection, the balance
 * and the end-of-round feedback; a table owns its layout and animation. A table never computes a
 * balance or an outcome: it shows what the server answered.
 */

/** The room connection, narrowed to what a game table needs. */
export interface GameConnection {
  /**
   * Places a bet on this table's game. The request id is made once per call and kept, so a message sent
   * during a reconnect is resent with the same id. Resolves with the server's answer; rejects with a
   * RoomFailure (net/room-failure.ts: the room's `error` message, its code and the text to show the player;
   * code "disconnected" when the connection is lost for good).
   */
  bet(amount: number, params: unknown): Promise<BetAnswer>;
  /** Acts in the player's open round (same request-id rule). */
  act(action: unknown): Promise<BetAnswer>;
  /** The player's open round of any game, from the room state; null when none is open. */
  openRound: OpenRoundView | null;
  /** Whether the room connection is up; auto-bet stops when it drops. */
  connected: boolean;
}

/** Who is playing, for the table's own REST reads (its "My bets" list); null before a session exists. */
export interface TableSession {
  playerId: string;
  /** the session token, sent as `Authorization: Bearer` */
  token: string;
}

/** The shared crash room of the player's activity instance (or the public room), as the shell opens it. */
export interface SharedCrashRoom {
  /** The instance whose room this is; null for the public room. */
  instanceId: string | null;
  /** The player, to find their own bet among everyone's. */
  playerId: string | null;
  /**
   * Opens Discord's invite dialog for the activity; null where it is not offered (outside Discord, and
   * in a DM, where Discord refuses it), as for the strip's Invite button.
   */
  invite: (() => void) | null;
  /** Joins the room; the listener hears the connection's status and every state the server sends. */
  connect(listener: {
    status(status: "connecting" | "open" | "reconnecting" | "lost"): void;
    state(state: CrashRoomSnapshot): void;
  }): SharedCrashConnection;
}

/** Requests in the shared crash room; same request-id rule and RoomFailure rejections as GameConnection. */
export interface SharedCrashConnection {
  /** A bet for the round in its betting phase; `autoCashOut` a multiplier (2.5 for 2.50×) or null. */
  bet(amount: number, autoCashOut: number | null): Promise<CrashBetAnswer>;
  cashOut(): Promise<CrashCashOutAnswer>;
  close(): void;
}

/** The shared blackjack table of the player's activity instance (a public table outside Discord). */
export interface SharedTableRoom {
  /** The instance whose table this is; null for a public table. */
  instanceId: string | null;
  /** The player, to find their own seat. */
  playerId: string | null;
  /** Opens Discord's invite dialog for the activity; null where it is not offered (as for the crash room). */
  invite: (() => void) | null;
  /** Joins the table; the listener hears the connection's status and every snapshot the server sends. */
  connect(listener: {
    status(status: "connecting" | "open" | "reconnecting" | "lost"): void;
    state(state: TableSnapshot | null): void;
  }): SharedTableConnection;
}

/** Requests at the shared table; same request-id rule and RoomFailure rejections as GameConnection. */
export interface SharedTableConnection {
  sit(seat: number): Promise<TableAnswer>;
  leave(): Promise<TableAnswer>;
  bet(amount: number): Promise<TableAnswer>;
  ready(): Promise<TableAnswer>;
  act(action: BlackjackAction): Promise<TableAnswer>;
  close(): void;
}

export interface GameTableProps {
  game: GameDefinition;
  connection: GameConnection;
  /** The balance the server last pushed. */
  balance: number;
  /** Tells the shell a round ended, so it shows the spec's win/loss toast and sound. */
  onRoundEnd(answer: BetAnswer): void;
  onExit(): void;
  /** The player's session; without it "My bets" lists only the rounds played since the table opened. */
  session?: TableSession | null;
  /** The shared crash room (offered to the crash table). */
  sharedCrash?: SharedCrashRoom | null;
  /** The shared blackjack table (offered to the blackjack table). */
  sharedTable?: SharedTableRoom | null;
  /** Open the game at its shared table rather than solo (the lobby's "Join the table"). */
  startShared?: boolean;
  /** Counts the player's asks for the shared table (the strip's "Join"): a new one moves an open game to it. */
  sharedAsks?: number;
}

/** Each game folder's `index.tsx` default-exports one of these; the shell loads it lazily. */
export type GameTable = ComponentType<GameTableProps>;

/**
 * A game's view of a round another player is playing (the together dialog's watch view), default-exported
 * by the game's optional `watch.tsx`: `view` is the round's public view as the engine shows it.
 */
export interface WatchViewProps {
  view: unknown;
}
