/**
 * The rooms' names and the casino room's state as it crosses the wire: typed once here, with no zod
 * (the client's entry imports this module alone, `@casino/common/rooms`). The messages' schemas are in
 * each room's protocol module (protocol.ts for the casino room).
 */
export const ROOMS = {
  casino: "casino",
  crash: "crash",
  leaderboard: "leaderboard",
  table: "blackjack-table",
  holdem: "holdem-table",
  together: "together",
} as const;

export type RoomName = (typeof ROOMS)[keyof typeof ROOMS];

/**
 * What the casino room's state holds for its player (the server's `CasinoState` schema implements it):
 * the balance and the active seed pair as its commitment. The open round is a message of its own
 * (`CASINO_PUSH.openRound`): its view differs from game to game, which a schema cannot type.
 */
export interface CasinoRoomState {
  balance: number;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  /** SHA-256 of the next server seed, committed before the player picks the client seed it will serve. */
  nextServerSeedHash: string;
}

/** The player's open round, as the casino room tells it: the public view of its game (no secret of the round). */
export interface OpenRoundView {
  roundId: string;
  game: string;
  totalStake: number;
  totalPayout: number;
  view: unknown;
}

/** Server → client messages of the casino room besides the answers to requests (`SERVER_MESSAGES` in protocol.ts). */
export const CASINO_PUSH = { openRound: "open-round" } as const;

/**
 * The `open-round` message: sent on every join and reconnection (after the first state), then whenever
 * the round opens, moves or closes. `round` null: no round is open.
 */
export interface OpenRoundMessage {
  round: OpenRoundView | null;
}
