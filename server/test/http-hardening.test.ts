import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { Client as SdkClient } from "@colyseus/sdk";
import { startTestApp, type TestApp } from "./harness";

let t: TestApp;
const EXTRA_ORIGIN = "https://casino.example.org";
beforeAll(async () => {
  t = await startTestApp({ CORS_ORIGINS: `${EXTRA_ORIGIN}, https://other.example.org` });
});
afterAll(async () => t?.close());

/**
 * Sends a request by hand on a raw socket, writing `body` after the head, and resolves with the status
 * line the server answers and whether it closed the connection. Nothing more is sent after `body`.
 */
function rawRequest(head: string, body: Buffer): Promise<{ status: number; text: string; closed: boolean }> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let text = "";
    let status = 0;
    socket.on("error", (error) => (status ? undefined : reject(error)));
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      status ||= Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
    });
    socket.on("close", () => (status ? resolve({ status, text, closed: true }) : reject(new Error(`no answer: ${text}`))));
    socket.write(head);
    socket.write(body, () => socket.end());
  });
}

async function preflight(path: string, origin: string) {
  return fetch(`${t.baseUrl}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization" },
  });
}

describe("matchmaking bodies", () => {
  it("refuses a declared 200 MB body with 413 after reading none of it", async () => {
    const roomsBefore = (await matchMaker.query({ name: "casino" })).length;
    const head =
      `POST /matchmake/create/casino HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${200 * 1024 * 1024}\r\n\r\n`;
    // Only 4 kB of the 200 MB are ever sent: the answer cannot be waiting for the rest.
    const answer = await rawRequest(head, Buffer.alloc(4096, "a"));
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("body_too_large");
    expect(answer.closed).toBe(true);
    expect((await matchMaker.query({ name: "casino" })).length).toBe(roomsBefore);
  });

  it("stops reading a chunked body as soon as it passes 16 kB", async () => {
    const head = `POST /matchmake/create/casino HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = Buffer.alloc(8 * 1024, "b");
    const chunked = Buffer.concat([0, 1, 2].flatMap(() => [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]));
    // 24 kB in three chunks and no terminating chunk: the server must answer without the end of the body.
    const answer = await rawRequest(head, chunked);
    expect(answer.status).toBe(413);
  });

  it("still takes an ordinary join", async () => {
    const { token } = await t.guest();
    const room = await t.sdk(token).create("casino");
    expect(room.roomId).toBeTruthy();
    await room.leave();
  });
});

describe("idle connections", () => {
  it("keeps an idle connection 65 s, past what clients keep theirs, so the client is the one to close it", async () => {
    // undici keeps an idle connection for the announced time less one second; browsers and proxies keep
    // theirs shorter still. With Node's 5 s the server closed connections clients were picking up.
    const res = await fetch(`${t.baseUrl}/api/health`);
    expect(res.headers.get("keep-alive")).toBe("timeout=65");
    await res.body?.cancel();
  });
});

describe("room authentication", () => {
  it("answers a refused token with HTTP 401, and the SDK reports 401 with the reason", async () => {
    const res = await fetch(`${t.baseUrl}/matchmake/create/casino`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer forged.token.here" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe("Invalid session token");

    const noToken = await fetch(`${t.baseUrl}/matchmake/create/casino`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(noToken.status).toBe(401);

    const failure = await new SdkClient(t.wsUrl).create("casino").catch((error: { code?: number; message?: string }) => error);
    expect(failure).toMatchObject({ code: 401, message: "Authentication required" });

    const expired = await t.app.services.tokens.issue({ playerId: "p-expired", discordId: "guest-1", guest: true }, -10);
    const sdk = new SdkClient(t.wsUrl);
    sdk.auth.token = expired;
    expect(await sdk.create("casino").catch((error: { code?: number; message?: string }) => error)).toMatchObject({
      code: 401,
      message: "Session expired",
    });
  });
});

describe("CORS", () => {
  const discordActivity = "https://client-id.discordsays.com";

  it("allows the activity's Discord origin, Discord's own, configured extras and the app's own origin, without credentials", async () => {
    for (const origin of [discordActivity, "https://discord.com", "https://canary.discord.com", EXTRA_ORIGIN, t.baseUrl]) {
      for (const path of ["/api/guest", "/matchmake/create/casino"]) {
        const res = await preflight(path, origin);
        expect(res.status, `${origin} ${path}`).toBe(204);
        expect(res.headers.get("access-control-allow-origin")).toBe(origin);
        expect(res.headers.get("access-control-allow-credentials")).toBeNull();
        expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
      }
      const res = await fetch(`${t.baseUrl}/api/health`, { headers: { origin } });
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("vary")).toMatch(/origin/i);
    }
  });

  it("gives any other origin no CORS headers, on REST and matchmaking, and refuses its preflight", async () => {
    for (const origin of [
      "https://evil.example.com",
      "https://client-id.discordsays.com.evil.example",
      "null",
      "https://other-app.discordsays.com",
    ]) {
      for (const path of ["/api/guest", "/matchmake/create/casino"]) {
        const res = await preflight(path, origin);
        expect(res.status, `${origin} ${path}`).toBe(403);
        expect(res.headers.get("access-control-allow-origin")).toBeNull();
        expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      }
      for (const [method, path] of [
        ["GET", "/api/health"],
        ["POST", "/matchmake/create/casino"],
        ["GET", "/api/nowhere"],
      ] as const) {
        const res = await fetch(`${t.baseUrl}${path}`, {
          method,
          headers: { origin, "content-type": "application/json" },
          body: method === "POST" ? "{}" : undefined,
        });
        expect(res.headers.get("access-control-allow-origin"), `${origin} ${path}`).toBeNull();
        expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      }
    }
  });
});

describe("theme colour", () => {
  it("refuses a colour that is not H S% L% with 400 and a precise message", async () => {
    const { token, player } = await t.guest();
    for (const [color, message] of [
      ["red", 'color must look like "200 60% 55%"'],
      ["", 'color must look like "200 60% 55%"'],
      ["400 10% 10%", "color must have hue 0–360 and saturation/lightness 0–100%"],
      ["200 101% 10%", "color must have hue 0–360 and saturation/lightness 0–100%"],
    ]) {
      const res = await t.request("PATCH", "/api/player/theme", { token, body: { playerId: player.id, mode: "dark", color } });
      expect(res.status, color).toBe(400);
      expect(res.body.error).toContain(message);
      expect(res.body.code).toBe("invalid_request");
    }
  });
});

describe("routes and authentication", () => {
  it("answers unknown routes 404 with or without a token, and known ones 401 without", async () => {
    const { token, player } = await t.guest();
    for (const path of ["/api/player/nothing/here", "/api/player/x/y/z", "/api/suggestions/all", "/api/daily-spin/history"]) {
      expect((await t.request("GET", path)).status, path).toBe(404);
      expect((await t.request("GET", path, { token })).status, path).toBe(404);
    }
    for (const [method, path] of [
      ["GET", `/api/player/${player.id}`],
      ["GET", `/api/player/${player.id}/history`],
      ["GET", `/api/player/${player.id}/seeds`],
      ["GET", `/api/player/${player.id}/tags`],
      ["PATCH", "/api/player/anonymous"],
      ["POST", "/api/suggestions"],
      ["POST", "/api/daily-spin"],
    ] as const) {
      const res = await t.request(method, path, { body: method === "GET" ? undefined : { playerId: player.id } });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("unauthorized");
    }
    const forged = await t.request("GET", `/api/player/${player.id}`, { token: `${token}x` });
    expect(forged.body).toMatchObject({ code: "unauthorized", error: "Invalid session token" });
  });

  it("answers API reads without an ETag (per-player and changing: nothing to revalidate)", async () => {
    const { token, player } = await t.guest();
    for (const path of [`/api/player/${player.id}`, "/api/leaderboard?page=1&limit=5"]) {
      const res = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("etag"), path).toBeNull();
    }
  });
});

describe("deployment defaults", () => {
  it("docker-compose.yml requires SESSION_SECRET instead of shipping one", () => {
    const compose = readFileSync(new URL("../../docker-compose.yml", import.meta.url), "utf8");
    const line = compose.split("\n").find((l) => /^\s*SESSION_SECRET:/.test(l));
    expect(line).toBeDefined();
    expect(line).toMatch(/SESSION_SECRET:\s*\$\{SESSION_SECRET:\?[^}]+\}\s*$/);
  });

  it("docker-compose.yml's replicas trust one proxy hop by default: nginx in front appends the client's address", () => {
    const compose = readFileSync(new URL("../../docker-compose.yml", import.meta.url), "utf8");
    expect(compose.split("\n").find((l) => /^\s*TRUST_PROXY:/.test(l))).toMatch(/TRUST_PROXY:\s*\$\{TRUST_PROXY:-1\}\s*$/);
    const nginx = readFileSync(new URL("../../deploy/nginx.conf", import.meta.url), "utf8");
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});
