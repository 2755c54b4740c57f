/**
 * The REST client (spec section 7): JSON bodies, credentials sent, the session token as a bearer
 * token, and a non-ok answer turned into an error whose message is "{status}: {body text or status text}".
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The parsed JSON body when there was one ({ error, code, ... } from this server). */
    readonly body: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The server's own words for the player, when it sent some. */
  get reason(): string | undefined {
    const error = (this.body as { error?: unknown } | null)?.error;
    return typeof error === "string" ? error : undefined;
  }

  get code(): string | undefined {
    const code = (this.body as { code?: unknown } | null)?.code;
    return typeof code === "string" ? code : undefined;
  }
}

let sessionToken: string | null = null;

/** The token every later call carries; set once start-up has a session. */
export const setSessionToken = (token: string | null) => {
  sessionToken = token;
};

export async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string | null } = {}): Promise<T> {
  const headers = new Headers({ accept: "application/json" });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const token = init.token === undefined ? sessionToken : init.token;
  if (token) headers.set("authorization", `Bearer ${token}`);
  const res = await fetch(`/api${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "include",
  });
  const text = await res.text().catch(() => "");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) throw new ApiError(res.status, `${res.status}: ${text || res.statusText}`, body);
  return body as T;
}

/** The path segment of a player id or any other key part. */
export const seg = (part: string | number) => encodeURIComponent(String(part));

/** A human message for any failure: the server's words, else the error's message. */
export const messageOf = (error: unknown): string =>
  error instanceof ApiError
    ? (error.reason ?? error.message)
    : error instanceof Error
      ? error.message
      : typeof error === "object" && error && "message" in error
        ? String((error as { message: unknown }).message)
        : String(error);
