import { matchMaker, type Client } from "@colyseus/core";
import { ACCOUNT_CLOSED_CLOSE_CODE, SERVER_MESSAGES, type RoomErrorMessage } from "@casino/common";
import type { SessionClaims } from "../auth/session";
import type { AppError } from "../../platform/errors";
import type { Log } from "../../platform/log";

/**
 * Ends every connection of `playerId` to a room of this process (casino, crash, leaderboard alike):
 * each first gets an `error` message with the refusal's code and text, then is closed with
 * ACCOUNT_CLOSED_CLOSE_CODE and the text as the close reason. The rooms keep no seat for it (their
 * `onDrop` lets such a connection go), and a new join is refused by the session check.
 */
export async function closeConnectionsOf(playerId: string, refusal: AppError, log: Log): Promise<number> {
  let closed = 0;
  try {
    const caches = await matchMaker.query({ processId: matchMaker.processId });
    for (const cache of caches) {
      const room = matchMaker.getLocalRoomById(cache.roomId);
      if (!room) continue;
      for (const client of [...room.clients] as Client<{ auth: SessionClaims }>[]) {
        if (client.auth?.playerId !== playerId) continue;
        const message: RoomErrorMessage = { code: refusal.code, message: refusal.message };
        client.send(SERVER_MESSAGES.error, message);
        room.kickClient(client.sessionId, ACCOUNT_CLOSED_CLOSE_CODE, refusal.message);
        closed++;
      }
    }
  } catch (error) {
    log.error("closed-accounts:connections", "a closed account's connections could not all be closed", error);
  }
  return closed;
}
