/** The one REST call of the server tests, against an app in the test's process or a server in another. */

export interface ApiAnswer {
  status: number;
  /** the body read as JSON, or its text when it is not JSON */
  body: any;
}

export interface RequestOptions {
  /** sent as `Authorization: Bearer <token>` */
  token?: string;
  /** sent as JSON */
  body?: unknown;
  /** sent as it is, as a JSON body (a malformed one, say) */
  raw?: string;
  headers?: Record<string, string>;
}

export async function requestAt(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined || options.raw !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}
