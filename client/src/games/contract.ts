import type { ComponentType } from "react";
import type { GameDefinition } from "@casino/common/catalogue";
import type { BetAnswer, OpenRoundView } from "@casino/common/protocol";

/**
 * The one seam between the shell and the game tables: the shell owns the room connection, the balance
 * and the end-of-round feedback; a table owns its layout and animation. A table never computes a
 * balance or an outcome: it shows what the server answered.
 */

/** A refusal from the server (a room `error` message): a stable code and the text to show the player. */
export class RoomRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "RoomRequestError";
  }
}

/** The room connection, narrowed to what a game table needs. */
export interface GameConnection {
  /**
   * Places a bet on this table's game. The request id is made once per call and kept, so a message sent
   * during a reconnect is resent with the same id. Resolves with the server's answer; rejects with a
   * RoomRequestError (or one with code "disconnected" when the connection is lost for good).
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
}

/** Each game folder's `index.tsx` default-exports one of these; the shell loads it lazily. */
export type GameTable = ComponentType<GameTableProps>;
