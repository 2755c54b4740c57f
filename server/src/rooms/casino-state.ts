import { Schema, type } from "@colyseus/schema";

/** What the client mirrors of its player: balance, fairness, and the open round (as JSON of its public view). */
export class CasinoState extends Schema {
  @type("number") balance = 0;
  @type("string") serverSeedHash = "";
  @type("string") clientSeed = "";
  @type("number") nonce = 0;
  /** SHA-256 of the next server seed, committed before the player picks the client seed it will serve. */
  @type("string") nextServerSeedHash = "";
  @type("string") openRound = "";
}
