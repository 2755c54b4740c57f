/**
 * The rooms' names and the casino room's state as it crosses the wire: typed once here, with no zod
 * (the client's entry imports this module alone, `@casino/common/rooms`). The messages' schemas are in
 * protocol.ts.
 */
export const ROOMS = { casino: "casino", crash: "crash", leaderboard: "leaderboard", table: "blackjack-table" } as const;

export type RoomName = (typeof ROOMS)[keyof typeof ROOMS];

/**
 * What the casino room's state holds for its player (the server's `CasinoState` schema implements it):
 * the balance, the active seed pair as its commitment, and the open round as JSON of its public view
 * ("" when none).
 */
export interface CasinoRoomState {
  balance: number;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
  /** SHA-256 of the next server seed, committed before the player picks the client seed it will serve. */
  nextServerSeedHash: string;
  openRound: string;
}
