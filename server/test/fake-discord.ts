import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP stand-in for Discord's OAuth endpoints. The code decides the behaviour:
 * "ok:<id>:<name>" succeeds, "rejected" answers 400, "no-token" answers 200 without a token,
 * "slow-down:<id>:<name>" answers 429 (Retry-After 0) once and then succeeds, "limited" always 429.
 */
export interface FakeDiscord {
  url: string;
  requests: { path: string; body: string; authorization?: string }[];
  close(): Promise<void>;
}

export async function startFakeDiscord(): Promise<FakeDiscord> {
  const requests: FakeDiscord["requests"] = [];
  const throttled = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", body, authorization: req.headers.authorization });
      const json = (status: number, value: unknown, statusMessage?: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, statusMessage ?? "", { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(value));
      };
      if (req.method === "POST" && req.url === "/oauth2/token") {
        const form = new URLSearchParams(body);
        const code = form.get("code") ?? "";
        if (form.get("grant_type") !== "authorization_code" || !form.get("client_id") || !form.get("client_secret")) {
          return json(400, { error: "invalid_request" }, "Bad Request");
        }
        if (code === "rejected") return json(400, { error: "invalid_grant" }, "Bad Request");
        if (code === "no-token") return json(200, { token_type: "Bearer" });
        if (code === "limited") return json(429, { retry_after: 0 }, "Too Many Requests", { "retry-after": "0" });
        if (code.startsWith("slow-down:") && !throttled.has(code)) {
          throttled.add(code);
          return json(429, { retry_after: 0 }, "Too Many Requests", { "retry-after": "0" });
        }
        const [, id, name] = code.split(":");
        return json(200, { access_token: `at-${id}-${name}`, token_type: "Bearer", scope: "identify guilds", expires_in: 604800 });
      }
      if (req.method === "GET" && req.url === "/users/@me") {
        const match = /^Bearer at-(\d+)-(.*)$/.exec(req.headers.authorization ?? "");
        if (!match) return json(401, { message: "401: Unauthorized" }, "Unauthorized");
        return json(200, { id: match[1], username: match[2].toLowerCase(), global_name: match[2], avatar: "abc123" });
      }
      json(404, { message: "404: Not Found" }, "Not Found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
