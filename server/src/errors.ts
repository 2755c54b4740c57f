/**
 * Errors with a stable code, an HTTP status and the human message a player sees. Mapped once to REST
 * responses (http/errors.ts) and to room error messages (rooms/casino-room.ts).
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
export const notFound = (message = "Not found") => new AppError("not_found", 404, message);
export const conflict = (message: string, code = "conflict") => new AppError(code, 409, message);
export const insufficientFunds = () => new AppError("insufficient_funds", 409, "Insufficient balance");
