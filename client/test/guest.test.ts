import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The device's guest: a stored token the server refuses makes a new guest; one the server could not be
 * asked about is kept, so a failed network does not cost the player their coins and history. REST is a
 * fake `fetch` answering by path.
 */
type Answer = { status: number; body: unknown } | "network down";

let calls: { path: string; method: string; token: string | null }[];
let answers: Record<string, Answer>;

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
  calls = [];
  answers = {};
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.replace(/^\/api/, "");
      calls.push({ path, method: init.method ?? "GET", token: new Headers(init.headers).get("authorization") });
      const answer = answers[path];
      if (answer === undefined) throw new Error(`unexpected call to ${path}`);
      if (answer === "network down") throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const TOKEN_KEY = "casino-session-token";
const player = (id: string) => ({ player: { id, isGuest: true, balance: 500 }, openRound: null });
const guestSession = async () => (await import("../src/platform/guest")).guestSession();

describe("the device's guest", () => {
  it("keeps the stored guest the server accepts", async () => {
    localStorage.setItem(TOKEN_KEY, "kept-token");
    answers["/session"] = { status: 200, body: player("p-kept") };
    const session = await guestSession();
    expect(session.session_token).toBe("kept-token");
    expect(session.player.id).toBe("p-kept");
    expect(calls.map((c) => `${c.method} ${c.path} ${c.token}`)).toEqual(["GET /session Bearer kept-token"]);
  });

  it("makes a new guest when the server refuses the stored token", async () => {
    localStorage.setItem(TOKEN_KEY, "old-token");
    answers["/session"] = { status: 401, body: { error: "This guest account was archived", code: "account_archived" } };
    answers["/guest"] = { status: 200, body: { session_token: "new-token", ...player("p-new") } };
    const session = await guestSession();
    expect(session.player.id).toBe("p-new");
    expect(localStorage.getItem(TOKEN_KEY)).toBe("new-token");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /session", "POST /guest"]);
  });

  for (const [what, answer] of [
    ["the network is down", "network down"],
    ["the server fails", { status: 503, body: { error: "Service unavailable" } }],
    ["the rate limit answers", { status: 429, body: { error: "Too many requests" } }],
  ] as [string, Answer][]) {
    it(`keeps the stored guest and makes none when ${what}`, async () => {
      localStorage.setItem(TOKEN_KEY, "kept-token");
      answers["/session"] = answer;
      answers["/guest"] = { status: 200, body: { session_token: "new-token", ...player("p-new") } };
      await expect(guestSession()).rejects.toThrow();
      expect(localStorage.getItem(TOKEN_KEY)).toBe("kept-token");
      expect(calls.map((c) => c.path)).toEqual(["/session"]);
    });
  }

  it("makes a guest on a device that has none", async () => {
    answers["/guest"] = { status: 200, body: { session_token: "first-token", ...player("p-first") } };
    const session = await guestSession();
    expect(session.player.id).toBe("p-first");
    expect(localStorage.getItem(TOKEN_KEY)).toBe("first-token");
  });
});
