import type { ErrorRequestHandler, RequestHandler } from "express";
import type { z } from "zod";
import { describeZodError } from "@casino/common";
import { AppError, badRequest } from "../../platform/errors";
import { publicFailure } from "../../platform/failures";
import type { Log } from "../../platform/log";

/** Parses a body, query or params object; a failure is a 400 with the precise reason. */
export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}

/** Any path the app does not serve (outside the client's pages). */
export const unknownRoute: RequestHandler = (_req, res) => {
  res.status(404).json({ error: "Not found", code: "not_found" });
};

export const unknownApiRoute: RequestHandler = (req, res) => {
  res.status(404).json({ error: `No such endpoint: ${req.method} ${req.baseUrl}${req.path}`, code: "not_found" });
};

/**
 * Every error becomes JSON { error, code }. Unexpected ones are logged once per kind and answered with a
 * stable code and a human text: 503 "unavailable" when the database or Redis is unreachable, else 500.
 */
export const errorHandler =
  (log: Log): ErrorRequestHandler =>
  (error, req, res, _next) => {
    if (error instanceof AppError) {
      res.status(error.status).json({ error: error.message, code: error.code, ...error.details });
      return;
    }
    const e = error as { type?: string; status?: number; message?: string };
    if (e.type === "entity.parse.failed") {
      res.status(400).json({ error: "Malformed JSON body", code: "malformed_json" });
      return;
    }
    if (e.type === "entity.too.large") {
      res.status(413).json({ error: "Request body too large", code: "body_too_large" });
      return;
    }
    if (typeof e.status === "number" && e.status >= 400 && e.status < 500) {
      res.status(e.status).json({ error: e.message ?? "Bad request", code: "bad_request" });
      return;
    }
    // A failed money call's line carries its request id, like a failed room message's.
    const requestId = (req.body as { requestId?: unknown } | undefined)?.requestId;
    const where = `${req.method} ${req.baseUrl}${req.route?.path ?? ""}`;
    const failure = publicFailure(typeof requestId === "string" ? log.child({ requestId }) : log, where, error);
    res.status(failure.status).json({ error: failure.message, code: failure.code });
  };
