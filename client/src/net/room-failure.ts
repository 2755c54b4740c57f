/**
 * The room connection's outcomes, apart from the connection itself (which carries the Colyseus SDK and
 * is loaded after the lobby's first paint).
 */
export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "lost" | "closed";

/** A refusal answered by the room's `error` message, or "disconnected" when the room is gone for good. */
export class RoomFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "RoomFailure";
  }
}
