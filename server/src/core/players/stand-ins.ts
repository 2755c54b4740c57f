import { createHmac } from "node:crypto";
import { ANONYMOUS_ID_PREFIX } from "@casino/common";

/**
 * The `playerId` an anonymous player is shown under instead of their id: on a board's masked entry
 * (the place is the board, its window and scope) and on a shared room's bet or seat (the place is the
 * room). An HMAC, keyed by a key derived from the server's token-signing secret, of the place, the UTC
 * day and the player id, truncated to 128 bits (22 base64url characters after `ANONYMOUS_ID_PREFIX`).
 *
 * Every process derives the same key, so a page reads the same on any of them, and the stand-in stays
 * put in one place for the day (React keys, the room's deltas). Two players never share one (short of
 * a 128-bit collision). Without the secret it cannot be matched with the player's id, nor with their
 * stand-in in another place, or on another day. One HMAC: a few microseconds.
 */
export class StandIns {
  private readonly key: Buffer;

  constructor(
    secret: string,
    /** The clock that says the UTC day (a test's clock moves it). */
    private readonly now: () => number = Date.now,
  ) {
    // The label dates from the boards, the first place with stand-ins; the rooms' places differ from theirs.
    this.key = createHmac("sha256", secret).update("leaderboard anonymous stand-in").digest();
  }

  /**
   * The stand-in of `playerId` in `place` (its parts, none with a line break), today (UTC). A board's
   * place has four parts and a room's three, so no board and room can share a stand-in.
   */
  of(place: readonly string[], playerId: string): string {
    const day = Math.floor(this.now() / 86_400_000); // days since the epoch: the UTC day
    const mac = createHmac("sha256", this.key)
      .update(`${place.join("\n")}\n${day}\n${playerId}`)
      .digest("base64url");
    return ANONYMOUS_ID_PREFIX + mac.slice(0, 22);
  }
}
