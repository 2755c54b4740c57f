/**
 * The server's log, built to stay readable during an outage: a failure of one kind (its key) is printed
 * at most once per window, and the next print of that kind says how many were left out in between.
 * A database or Redis that is down therefore costs a few lines a minute, not one per request.
 */
export interface LogSink {
  log(line: string): void;
  error(line: string): void;
}

const MAX_KINDS = 1_000;

export class Log {
  private readonly kinds = new Map<string, { until: number; suppressed: number }>();

  constructor(
    private readonly windowMs = 10_000,
    private readonly sink: LogSink = { log: (line) => console.log(line), error: (line) => console.error(line) },
    private readonly now: () => number = Date.now,
  ) {}

  info(message: string): void {
    this.sink.log(message);
  }

  /** A warning of kind `key`, printed once per window. */
  warn(key: string, message: string): void {
    this.limited(key, () => `warning: ${message}`);
  }

  /**
   * An error of kind `key`, printed once per window: one line for an outage (the error's code and
   * message), the stack for anything else, which is a bug worth reading in full once.
   */
  error(key: string, message: string, error?: unknown): void {
    this.limited(key, () => `error: ${message}${error === undefined ? "" : `: ${describeError(error)}`}`);
  }

  private limited(key: string, line: () => string): void {
    const now = this.now();
    const kind = this.kinds.get(key);
    if (kind && now < kind.until) {
      kind.suppressed++;
      return;
    }
    const left = kind?.suppressed ? ` (${kind.suppressed} more like this left out)` : "";
    this.sink.error(line() + left);
    if (this.kinds.size >= MAX_KINDS) this.forgetExpired(now);
    this.kinds.set(key, { until: now + this.windowMs, suppressed: 0 });
  }

  private forgetExpired(now: number): void {
    for (const [key, kind] of this.kinds) if (now >= kind.until) this.kinds.delete(key);
    if (this.kinds.size >= MAX_KINDS) this.kinds.clear();
  }
}

/** An error as one readable string: outages as `CODE message`, other errors with their stack. */
export function describeError(error: unknown): string {
  if (isOutage(error)) return outageSummary(error);
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Error codes and messages that mean "a backing service is unreachable", not "the code is wrong". */
const OUTAGE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);
const OUTAGE_MESSAGES =
  /Connection terminated|Connection is closed|connection error|timeout exceeded when trying to connect|Stream isn't writeable|max retries per request|Reached the max retries|Client was closed and is not queryable|Cannot use a pool after calling end/i;

/** Whether an error (or anything in its cause chain) says a database or Redis is unreachable. */
export function isOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; driverError?: unknown };
  if (typeof e.code === "string" && OUTAGE_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && OUTAGE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isOutage(inner, depth + 1))) return true;
  return isOutage(e.cause, depth + 1) || isOutage(e.driverError, depth + 1);
}

function outageSummary(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; errors?: { message?: unknown }[] };
  const message =
    typeof e.message === "string" && e.message ? e.message : ((e.errors?.[0]?.message as string | undefined) ?? "unreachable");
  return `${typeof e.code === "string" ? `${e.code} ` : ""}${message.split("\n")[0]}`;
}
