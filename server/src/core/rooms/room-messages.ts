import type { Client, Room } from "@colyseus/core";
import type { z } from "zod";
import { NOT_AN_OBJECT, SERVER_MESSAGES, describeZodError, isPlainObject, type RoomErrorMessage } from "@casino/common";
import { AppError } from "../../platform/errors";
import { SHUTTING_DOWN, publicFailure } from "../../platform/failures";
import { timeRoomRequest } from "../metrics";
import type { CoreServices } from "../services";
import type { RoomLimit } from "./rate-limit";
import type { DatabaseBreaker, DatabaseUnavailable } from "../../platform/db/breaker";

/** What one request message needs: its schema, the work, and the budget it is charged to. */
export interface RequestHandler<T extends { requestId: string }, C extends Client> {
  schema: z.ZodType<T>;
  work: (client: C, msg: T) => Promise<unknown>;
  /** The per-player budget the message is charged to; none for messages that cost nothing new. */
  limit?: RoomLimit;
  /** The message type of the answer (default `result`). */
  answer?: string;
}

/**
 * The one way a room registers messages that carry a request id (the casino room and the crash room).
 * Each body is validated inside, whole, before anything else reads it (a failed validation answers an
 * `invalid_message` error, never a disconnect; values msgpack carries and JSON does not are refused by
 * the schemas, see `plainData` in common/protocol.ts), charged
 * to the player's budget (shared by all of the player's connections on every process), and answered
 * with the request id. A player's money messages run one after another, in the order they arrived.
 * While the process drains for a shutdown, new messages are refused and the ones running are counted,
 * so the shutdown waits for them. An unexpected failure is logged once (with the request id, the
 * message type and the player) and answered with a generic text; the room keeps running. Each answer
 * is timed (`casino_room_request_duration_seconds`), and written to the log at the debug level.
 */
export class RoomRequests<C extends Client> {
  /** Per player: the tail of the work that player's messages queued in this room. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly room: Room,
    private readonly services: Pick<CoreServices, "lifecycle" | "roomLimits" | "log" | "db">,
    private readonly playerOf: (client: C) => string,
  ) {}

  handle<T extends { requestId: string }>(type: string, handler: RequestHandler<T, C>): void {
    const s = this.services;
    this.room.onMessage(type, async (client: C, raw: unknown) => {
      const requestId =
        typeof (raw as { requestId?: unknown })?.requestId === "string" ? (raw as { requestId: string }).requestId : undefined;
      if (!s.lifecycle.accepting) return sendError(client, { requestId, code: SHUTTING_DOWN.code, message: SHUTTING_DOWN.message });
      await s.lifecycle.track(async () => {
        if (!isPlainObject(raw)) return sendError(client, { requestId, code: "invalid_message", message: NOT_AN_OBJECT });
        const parsed = handler.schema.safeParse(raw);
        if (!parsed.success) return sendError(client, { requestId, code: "invalid_message", message: describeZodError(parsed.error) });
        // The clock runs from here (the budget's check included); a refused message is not timed.
        const answered = timeRoomRequest(type);
        const playerId = this.playerOf(client);
        if (handler.limit) {
          const budget = await s.roomLimits.take(handler.limit, playerId);
          if (!budget.allowed) {
            return sendError(client, {
              requestId,
              code: "rate_limited",
              message: budget.message,
              details: { retryAfterMs: budget.retryAfterMs },
            });
          }
        }
        let outcome = "ok";
        try {
          const result = await this.inOrder(playerId, () => handler.work(client, parsed.data));
          (client as Client).send(handler.answer ?? SERVER_MESSAGES.result, { type, ...(result as object), requestId });
        } catch (error) {
          if (error instanceof AppError) {
            outcome = error.code;
            return sendError(client, { requestId, code: error.code, message: error.message, details: error.details });
          }
          const failure = publicFailure(s.log.child({ requestId, messageType: type, playerId }), `room message ${type}`, error);
          outcome = failure.code;
          sendError(client, { requestId, code: failure.code, message: failure.message });
        } finally {
          const seconds = answered();
          if (s.log.debugEnabled)
            s.log.debug("room request answered", {
              requestId,
              messageType: type,
              playerId,
              outcome,
              ms: Math.round(seconds * 10_000) / 10,
            });
        }
      });
    });
  }

  /**
   * Runs a player's work after the work that player sent before it (whether that succeeded or not).
   * Work that waits for its turn is refused as soon as the database breaker opens (or at once while it
   * is open): the work before it may be waiting out a database that does not answer, and this one would
   * be refused when its turn came anyway.
   */
  private inOrder<T>(playerId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(playerId);
    const breaker = this.services.db.breaker;
    const result = (previous ? turnOrTrip(previous, breaker) : Promise.resolve(null)).then((refusal) =>
      refusal ? Promise.reject(refusal) : work(),
    );
    const tail = result.catch(() => undefined);
    this.queues.set(playerId, tail);
    void tail.then(() => {
      if (this.queues.get(playerId) === tail) this.queues.delete(playerId);
    });
    return result;
  }
}

/** Settles with null when `previous` settles, or with the breaker's refusal if it opens (or is open) first. */
function turnOrTrip(previous: Promise<unknown>, breaker: DatabaseBreaker): Promise<DatabaseUnavailable | null> {
  if (breaker.open) return Promise.resolve(breaker.refusal());
  return new Promise((settle) => {
    const off = breaker.onTrip((error) => {
      off();
      settle(error);
    });
    const turn = () => {
      off();
      settle(null);
    };
    previous.then(turn, turn);
  });
}

function sendError(client: Client, error: RoomErrorMessage): void {
  client.send(SERVER_MESSAGES.error, error);
}
