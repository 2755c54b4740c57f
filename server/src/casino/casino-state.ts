import { Encoder, Schema, type } from "@colyseus/schema";
import type { CasinoRoomState } from "@casino/common";

/**
 * The encoder of every room keeps two buffers of this size (patches, and the full state for joins).
 * The library's 16 KB default cost 32 KB per connected player; this state is a few hundred bytes
 * (the open round travels as a message of its own), and a buffer grows by itself when a state outgrows it.
 * Process-wide: a room with a large state (a shared table) pays one growth, once.
 */
Encoder.BUFFER_SIZE = 2 * 1024;

/** What the client mirrors of its player: balance and fairness (the open round is a message, `CASINO_PUSH.openRound`). */
export class CasinoState extends Schema implements CasinoRoomState {
  @type("number") balance = 0;
  @type("string") serverSeedHash = "";
  @type("string") clientSeed = "";
  @type("number") nonce = 0;
  /** SHA-256 of the next server seed, committed before the player picks the client seed it will serve. */
  @type("string") nextServerSeedHash = "";
}
