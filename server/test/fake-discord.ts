import { createServer, type Server } from "node:http";
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP stand-in for Discord's OAuth endpoints. The code decides the behaviour:
 * "ok:<id>:<name>" succeeds, "rejected" answers 400, "no-token" answers 200 without a token,
 * "slow-down:<id>:<name>" answers 429 (Retry-After 0) once and then succeeds, "limited" always 429.
 * `GET /users/@me/guilds` lists what a test put in `guilds` for the user (paged by `limit` and
 * `after` like Discord); a user in `noGuildsScope` gets 403 as without the `guilds` scope.
 * `GET /applications/:app/activity-instances/:id` answers from `instances` with the bot token
 * `FAKE_BOT_TOKEN`, 404 for an unknown instance.
 */
export interface FakeDiscord {
  url: string;
  requests: { path: string; body: string; authorization?: string }[];
  guilds: Map<string, string[]>;
  noGuildsScope: Set<string>;
  instances: Map<string, { guildId: string | null; channelId: string | null; users: string[] }>;
  close(): Promise<void>;
}

export const FAKE_BOT_TOKEN = "fake-bot-token";

export async function startFakeDiscord(): Promise<FakeDiscord> {
  const requests: FakeDiscord["requests"] = [];
  const throttled = new Set<string>();
  const guilds = new Map<string, string[]>();
  const noGuildsScope = new Set<string>();
  const instances: FakeDiscord["instances"] = new Map();
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
      const url = new URL(req.url ?? "/", "http://fake");
      if (req.method === "GET" && url.pathname === "/users/@me") {
        const match = /^Bearer at-(\d+)-(.*)$/.exec(req.headers.authorization ?? "");
        if (!match) return json(401, { message: "401: Unauthorized" }, "Unauthorized");
        return json(200, { id: match[1], username: match[2].toLowerCase(), global_name: match[2], avatar: "abc123" });
      }
      if (req.method === "GET" && url.pathname === "/users/@me/guilds") {
        const match = /^Bearer at-(\d+)-/.exec(req.headers.authorization ?? "");
        if (!match) return json(401, { message: "401: Unauthorized" }, "Unauthorized");
        if (noGuildsScope.has(match[1]!)) return json(403, { message: "Missing Access", code: 50001 }, "Forbidden");
        const limit = Math.min(200, Number(url.searchParams.get("limit") ?? "200"));
        const after = url.searchParams.get("after");
        const all = [...(guilds.get(match[1]!) ?? [])].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
        const page = all.filter((id) => !after || BigInt(id) > BigInt(after)).slice(0, limit);
        return json(
          200,
          page.map((id) => ({ id, name: `Guild ${id}`, icon: null, owner: false, permissions: "0", features: [] })),
        );
      }
      const instance = /^\/applications\/([^/]+)\/activity-instances\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && instance) {
        if (req.headers.authorization !== `Bot ${FAKE_BOT_TOKEN}`)
          return json(401, { message: "401: Unauthorized", code: 0 }, "Unauthorized");
        const found = instances.get(decodeURIComponent(instance[2]!));
        if (!found) return json(404, { message: "404: Not Found", code: 0 }, "Not Found");
        return json(200, {
          application_id: instance[1],
          instance_id: decodeURIComponent(instance[2]!),
          launch_id: "1276580072400224306",
          location: {
            id: `gc-${found.guildId}-${found.channelId}`,
            kind: found.guildId ? "gc" : "pc",
            channel_id: found.channelId,
            guild_id: found.guildId,
          },
          users: found.users,
        });
      }
      json(404, { message: "404: Not Found" }, "Not Found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    guilds,
    noGuildsScope,
    instances,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Discord's activity proxy's signature headers for one request, made as Discord makes them: the JSON
 * payload's bytes signed with Ed25519 (base64), the payload in base64, its created_at as the timestamp.
 */
export function signProxyPayload(
  privateKey: KeyObject,
  payload: { application_id: string; user_id: string; created_at: number; expires_at: number; is_developer?: boolean },
): Record<string, string> {
  const bytes = Buffer.from(JSON.stringify(payload));
  return {
    "x-signature-ed25519": sign(null, bytes, privateKey).toString("base64"),
    "x-signature-timestamp": String(payload.created_at),
    "x-discord-proxy-payload": bytes.toString("base64"),
  };
}

/** A fresh Ed25519 key pair, the public half as the 64 hex characters the developer portal shows. */
export function proxyKeyPair(): { privateKey: KeyObject; publicKeyHex: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  return { privateKey, publicKeyHex: raw.toString("hex") };
}
