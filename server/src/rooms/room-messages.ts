import type { Client, Room } from "@colyseus/core";
import type { z } from "zod";
import { SERVER_MESSAGES, describeZodError, type RoomErrorMessage } from "@casino/common";
import { AppError } from "../errors";

/**
 * Registers a room message whose body carries a request id: the body is validated inside the handler
 * (a failed validation answers an `error`, never a disconnect), `allow` may refuse it (rate limits),
 * and the answer or the error carries the request id. An unexpected failure is logged and answered
 * with a generic error; the room keeps running.
 */
export function onRequest<T extends { requestId: string }, C extends Client>(
  room: Room,
  type: string,
  schema: z.ZodType<T>,
  work: (client: C, msg: T) => Promise<object>,
  allow?: (client: C) => Promise<RoomErrorMessage | null> | RoomErrorMessage | null,
): void {
  room.onMessage(type, async (client: C, raw: unknown) => {
    const requestId = typeof (raw as { requestId?: unknown })?.requestId === "string" ? (raw as { requestId: string }).requestId : undefined;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return sendError(client, { requestId, code: "invalid_message", message: describeZodError(parsed.error) });
    const refusal = await allow?.(client);
    if (refusal) return sendError(client, { requestId, ...refusal });
    try {
      const result = await work(client, parsed.data);
      (client as Client).send(SERVER_MESSAGES.result, { type, ...result, requestId });
    } catch (error) {
      if (error instanceof AppError) return sendError(client, { requestId, code: error.code, message: error.message, details: error.details });
      console.error(`room message ${type} failed`, error);
      sendError(client, { requestId, code: "internal", message: "Something went wrong; please try again" });
    }
  });
}

function sendError(client: Client, error: RoomErrorMessage): void {
  client.send(SERVER_MESSAGES.error, error);
}
