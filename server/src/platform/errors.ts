/**
 * Errors with a stable code, an HTTP status and the human message a player sees. Mapped once to REST
 * responses (core/http/errors.ts) and to room error messages (casino/casino-room.ts).
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, code = "invalid_request") => new AppError(code, 400, message);
export const unauthorized = (message = "Authentication required") => new AppError("unauthorized", 401, message);
export const forbidden = (message = "You may only act for yourself") => new AppError("forbidden", 403, message);
export const notFound = (message = "Not found", code = "not_found") => new AppError(code, 404, message);
export const conflict = (message: string, code = "conflict") => new AppError(code, 409, message);
export const insufficientFunds = () => new AppError("insufficient_funds", 409, "Insufficient balance");

/** The same request id was already used for a request of another kind or with other contents. */
export const requestIdReused = () =>
  new AppError("request_id_reused", 409, "This requestId was already used for a different request; send a new requestId");

/**
 * The database did not confirm the work in time (or the connection to it broke), so whether it happened
 * is not known here. Every money request is idempotent by its id, so sending it again is safe.
 */
export const outcomeUnknown = () =>
  new AppError(
    "outcome_unknown",
    503,
    "We could not confirm this in time, so its outcome is unknown. Send it again with the same requestId: that is safe and never charges twice",
  );

/** An archived guest (idle past the retention period) can no longer use its session. */
export const accountArchived = () =>
  new AppError("account_archived", 401, "This guest account was archived after a long time without play; start a new guest session");

/** An operator suspended the account: every request, room join and open connection is refused until it is restored. */
export const accountSuspended = () =>
  new AppError("account_suspended", 403, "This account is suspended and cannot play until an operator restores it");

/** The account was erased at its owner's request: its session no longer works. */
export const accountErased = () => new AppError("account_erased", 401, "This account was deleted; its data has been erased");
