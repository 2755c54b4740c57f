import { pino, type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";

/**
 * The server's one log (pino): one JSON object per line in production, one readable line per event in
 * development. Built to stay readable during an outage: a failure of one kind (its key) is written at
 * most once per window, and the next line of that kind says how many were left out in between, so a
 * database or Redis that is down costs a few lines a minute, not one per request.
 *
 * Lines about one request carry its fields (`child({ requestId, ... })`). Nothing secret reaches the
 * output: fields named like a credential are censored, and every line is scrubbed of the configured
 * secrets and of anything shaped like a token (a JWT, a bearer token, a token in a URL's query, a
 * password in a URL) before it is written.
 */
export type LogFormat = "json" | "pretty";
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogOptions {
  /** `json` (production) or `pretty` (development: colours on a terminal, one line per event). */
  format?: LogFormat;
  level?: LogLevel;
  /** Values never to be written (the session secret, API tokens, database passwords). */
  secrets?: readonly (string | undefined)[];
  /** The window of the per-kind limit on warnings and errors. */
  windowMs?: number;
  /** Where lines go (default: standard output, or standard error with `stderr`). */
  destination?: DestinationStream;
  /** Write to standard error: a command-line tool whose standard output is its answer. */
  stderr?: boolean;
  now?: () => number;
}

/**
 * A command-line tool's answer (the admin CLI, the audit, the guest tokens): written as is, one line,
 * on standard output, or on standard error for a refusal. Not a log line: no level, no per-kind limit.
 * Nothing else in server/src writes to the terminal but the log.
 */
export function printAnswer(text: string, to: "stdout" | "stderr" = "stdout"): void {
  (to === "stderr" ? process.stderr : process.stdout).write(`${text}\n`);
}

const MAX_KINDS = 1_000;
const REDACTED = "[redacted]";

/** Field names whose values are credentials, at the top level and one level down. */
const SECRET_FIELDS = ["token", "accessToken", "access_token", "authorization", "password", "secret", "clientSecret"];

/** The per-kind windows, shared by a log and every child of it. */
interface Kinds {
  readonly windowMs: number;
  readonly now: () => number;
  readonly seen: Map<string, { until: number; suppressed: number }>;
}

export class Log {
  private readonly logger: Logger;
  private readonly kinds: Kinds;

  constructor(options: LogOptions = {}, parent?: { logger: Logger; kinds: Kinds }) {
    if (parent) {
      this.logger = parent.logger;
      this.kinds = parent.kinds;
      return;
    }
    this.kinds = { windowMs: options.windowMs ?? 10_000, now: options.now ?? Date.now, seen: new Map() };
    this.logger = createLogger(options);
  }

  /** A log whose lines all carry `fields` (a request id, a player id); it shares this log's limits. */
  child(fields: Record<string, unknown>): Log {
    return new Log({}, { logger: this.logger.child(fields), kinds: this.kinds });
  }

  /** Whether debug lines are written: check before building an expensive one. */
  get debugEnabled(): boolean {
    return this.logger.isLevelEnabled("debug");
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.logger.debug(fields ?? {}, message);
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.logger.info(fields ?? {}, message);
  }

  /** A warning of kind `key`, written once per window. */
  warn(key: string, message: string, fields?: Record<string, unknown>): void {
    this.limited(key, (leftOut) => this.logger.warn({ ...fields, kind: key, ...leftOut }, message));
  }

  /**
   * An error of kind `key`, written once per window: one line for an outage (the error's code and
   * message), the stack for anything else, which is a bug worth reading in full once.
   */
  error(key: string, message: string, error?: unknown, fields?: Record<string, unknown>): void {
    this.limited(key, (leftOut) => this.logger.error({ ...fields, kind: key, ...leftOut, ...errorFields(error) }, message));
  }

  /** Writes what is buffered (before the process exits). */
  flush(): void {
    this.logger.flush();
  }

  private limited(key: string, write: (leftOut: { leftOut?: number }) => void): void {
    const { seen, windowMs } = this.kinds;
    const now = this.kinds.now();
    const kind = seen.get(key);
    if (kind && now < kind.until) {
      kind.suppressed++;
      return;
    }
    write(kind?.suppressed ? { leftOut: kind.suppressed } : {});
    if (seen.size >= MAX_KINDS) forgetExpired(seen, now);
    seen.set(key, { until: now + windowMs, suppressed: 0 });
  }
}

function forgetExpired(seen: Kinds["seen"], now: number): void {
  for (const [key, kind] of seen) if (now >= kind.until) seen.delete(key);
  if (seen.size >= MAX_KINDS) seen.clear();
}

function createLogger(options: LogOptions): Logger {
  const scrub = scrubber(options.secrets ?? []);
  const format = options.format ?? "json";
  const fd = options.stderr ? 2 : 1;
  const destination =
    options.destination ??
    (format === "pretty"
      ? pretty({
          sync: true,
          destination: fd,
          colorize: (options.stderr ? process.stderr : process.stdout).isTTY === true,
          singleLine: true,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname",
        })
      : pino.destination({ dest: fd, sync: true }));
  return pino(
    {
      level: options.level ?? "info",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]), censor: REDACTED },
      hooks: { streamWrite: scrub },
    },
    destination,
  );
}

/**
 * Removes from a serialised line every configured secret and anything shaped like a credential. Runs
 * on the final text, so it also covers what a library put in an error message.
 */
export function scrubber(secrets: readonly (string | undefined)[]): (line: string) => string {
  // Secrets as they appear in a JSON string (escaped) and as they are; the longest first.
  const values = [...new Set(secrets.filter((s): s is string => typeof s === "string" && s.length >= 8))]
    .flatMap((s) => [s, JSON.stringify(s).slice(1, -1)])
    .sort((a, b) => b.length - a.length);
  return (line) => {
    let out = line;
    for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    return out
      .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, REDACTED)
      .replace(/\b(bearer|basic)\s+[\w.~+/=-]+/gi, `$1 ${REDACTED}`)
      .replace(/([?&](?:_authToken|authToken|token|access_token|reconnectionToken|code)=)[^&\s"'\\]+/gi, `$1${REDACTED}`)
      .replace(/(\b[a-z][\w+.-]*:\/\/[^\s"'/:@]*:)[^\s"'@/]+@/gi, `$1${REDACTED}@`);
  };
}

/** An error as log fields: an outage as one `outage` text (`CODE message`), anything else with its stack. */
function errorFields(error: unknown): Record<string, unknown> {
  if (error === undefined) return {};
  if (isOutage(error)) return { outage: outageSummary(error) };
  // pino's error serializer writes its type, message, stack, cause and own fields (a code).
  return { err: error instanceof Error ? error : new Error(String(error)) };
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
  "DB_BREAKER_OPEN", // platform/db/breaker.ts: refused at once while the database does not answer
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
  /Connection terminated|Connection is closed|connection error|timeout exceeded when trying to connect|Stream isn't writeable|max retries per request|Reached the max retries|Client was closed and is not queryable|Cannot use a pool after calling end|Query read timeout|Command timed out/i;

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
