import type { SessionAnswer } from "@casino/common";

const TOKEN_KEY = "casino-session-token";

/** The spec's error shape: "{status}: {body text or status text}". */
async function failure(res: Response): Promise<Error> {
  const text = await res.text().catch(() => "");
  return new Error(`${res.status}: ${text || res.statusText}`);
}

export async function api<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.body) headers.set("content-type", "application/json");
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  const res = await fetch(path, { ...init, headers, credentials: "include" });
  if (!res.ok) throw await failure(res);
  return res.json() as Promise<T>;
}

/** The stored guest session if it is still valid, otherwise a new guest. */
export async function guestSession(): Promise<SessionAnswer> {
  const stored = localStorage.getItem(TOKEN_KEY);
  if (stored) {
    try {
      const claims = JSON.parse(atob(stored.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { sub: string };
      const player = await api<SessionAnswer["player"]>(`/api/player/${claims.sub}`, { token: stored });
      return { session_token: stored, player };
    } catch {
      localStorage.removeItem(TOKEN_KEY);
    }
  }
  const created = await api<SessionAnswer>("/api/guest", { method: "POST", body: "{}" });
  localStorage.setItem(TOKEN_KEY, created.session_token);
  return created;
}
