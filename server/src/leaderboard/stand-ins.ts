import { createHmac } from "node:crypto";
import { ANONYMOUS_ID_PREFIX } from "@casino/common";
import type { BoardSpec } from "./types";

/**
 * The `playerId` a board entry masked as anonymous carries instead of the player's id: an HMAC, keyed
 * by a key derived from the server's token-signing secret, of the board, its window and scope, the UTC day
 * and the player id, truncated to 128 bits (22 base64url characters after `ANONYMOUS_ID_PREFIX`).
 *
 * Every process derives the same key, so a page reads the same on any of them, and the stand-in stays
 * put while the player keeps their place on the board that day (React keys, the room's deltas). Two
 * players never share one (short of a 128-bit collision). Without the secret it cannot be matched
 * with the player's id, nor with their stand-in on another board or scope, or on another day.
 * One HMAC per masked entry: a few microseconds, paid once per cached page (see PageCache).
 */
export class StandIns {
  private readonly key: Buffer;

  constructor(
    secret: string,
    /** The clock that says the UTC day (a test's clock moves it). */
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac("sha256", secret).update("leaderboard anonymous stand-in").digest();
  }

  /** The stand-in of `playerId` on the board `spec`, today (UTC). */
  of(spec: BoardSpec, playerId: string): string {
    const day = Math.floor(this.now() / 86_400_000); // days since the epoch: the UTC day
    const mac = createHmac("sha256", this.key)
      .update(`${spec.board}\n${spec.window}\n${spec.scope}\n${spec.scopeId ?? ""}\n${day}\n${playerId}`)
      .digest("base64url");
    return ANONYMOUS_ID_PREFIX + mac.slice(0, 22);
  }
}
