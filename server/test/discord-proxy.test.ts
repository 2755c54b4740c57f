import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscordProxyCheck, discordPublicKey, verifyProxyHeaders } from "../src/core/auth/discord-proxy";
import { loadConfig } from "../src/platform/config";
import { proxyKeyPair, signProxyPayload } from "./fake-discord";
import { startTestApp, type TestApp } from "./harness";

const APP = "client-id";
const now = () => Math.floor(Date.now() / 1000);
const keys = proxyKeyPair();
const key = discordPublicKey(keys.publicKeyHex);
const payload = (userId: string, over: Partial<{ created_at: number; expires_at: number; application_id: string }> = {}) => ({
  application_id: APP,
  user_id: userId,
  is_developer: false,
  created_at: now() - 10,
  expires_at: now() + 600,
  ...over,
});
const signed = (userId: string, over: Parameters<typeof payload>[1] = {}) => signProxyPayload(keys.privateKey, payload(userId, over));

describe("verifyProxyHeaders (the documented scheme, a real Ed25519 key pair)", () => {
  it("accepts a payload signed with the application's key and returns what it vouches for", () => {
    const headers = signed("100000000000000001");
    expect(verifyProxyHeaders(headers, key, { applicationId: APP })).toMatchObject({ applicationId: APP, userId: "100000000000000001" });
  });

  it("accepts the signature spelled in hex as well as base64", () => {
    const headers = signed("100000000000000001");
    const hex = Buffer.from(headers["x-signature-ed25519"], "base64").toString("hex");
    expect(verifyProxyHeaders({ ...headers, "x-signature-ed25519": hex }, key).userId).toBe("100000000000000001");
  });

  it("refuses a payload signed with another key", () => {
    const forged = signProxyPayload(proxyKeyPair().privateKey, payload("100000000000000001"));
    expect(() => verifyProxyHeaders(forged, key)).toThrow(expect.objectContaining({ status: 401, code: "proxy_signature_invalid" }));
  });

  it("refuses a payload changed after signing (another user put in)", () => {
    const headers = signed("100000000000000001");
    const changed = Buffer.from(JSON.stringify(payload("100000000000000002"))).toString("base64");
    expect(() => verifyProxyHeaders({ ...headers, "x-discord-proxy-payload": changed }, key)).toThrow(
      expect.objectContaining({ code: "proxy_signature_invalid" }),
    );
  });

  it("refuses a timestamp header that is not the payload's created_at", () => {
    const headers = signed("100000000000000001");
    const other = String(Number(headers["x-signature-timestamp"]) + 1);
    expect(() => verifyProxyHeaders({ ...headers, "x-signature-timestamp": other }, key)).toThrow(
      expect.objectContaining({ code: "proxy_signature_invalid", message: expect.stringMatching(/timestamp/) }),
    );
  });

  it("refuses a stale payload (expired) and one dated in the future", () => {
    const stale = signed("100000000000000001", { created_at: now() - 7200, expires_at: now() - 1 });
    expect(() => verifyProxyHeaders(stale, key)).toThrow(expect.objectContaining({ code: "proxy_signature_stale" }));
    const future = signed("100000000000000001", { created_at: now() + 3600, expires_at: now() + 7200 });
    expect(() => verifyProxyHeaders(future, key)).toThrow(expect.objectContaining({ code: "proxy_signature_stale" }));
  });

  it("refuses missing headers, unreadable ones, and a payload for another application", () => {
    const headers = signed("100000000000000001");
    for (const name of Object.keys(headers)) {
      const without = { ...headers, [name]: undefined };
      expect(() => verifyProxyHeaders(without, key)).toThrow(expect.objectContaining({ code: "proxy_signature_missing" }));
    }
    expect(() => verifyProxyHeaders({ ...headers, "x-signature-ed25519": "not a signature" }, key)).toThrow(
      expect.objectContaining({ code: "proxy_signature_invalid" }),
    );
    expect(() => verifyProxyHeaders(signed("1", { application_id: "another-app" }), key, { applicationId: APP })).toThrow(
      expect.objectContaining({ code: "proxy_signature_invalid" }),
    );
  });

  it("is off without a public key, and the configuration refuses a key that is not 64 hex characters", () => {
    expect(new DiscordProxyCheck({}).verify({})).toBeNull();
    expect(() => new DiscordProxyCheck({ publicKey: keys.publicKeyHex }).verify({})).toThrow(
      expect.objectContaining({ code: "proxy_signature_missing" }),
    );
    expect(() => loadConfig({ DATA_DIR: "memory://", DISCORD_PUBLIC_KEY: "abc" })).toThrow(/DISCORD_PUBLIC_KEY/);
    expect(loadConfig({ DATA_DIR: "memory://", DISCORD_PUBLIC_KEY: keys.publicKeyHex.toUpperCase() }).discord.publicKey).toBe(
      keys.publicKeyHex,
    );
  });
});

async function post(t: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function get(t: TestApp, path: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, body: (await res.json()) as any };
}

describe("with DISCORD_PUBLIC_KEY configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DISCORD_PUBLIC_KEY: keys.publicKeyHex });
  });
  afterAll(async () => t?.close());

  it("signs in a Discord player whose request the proxy signed, and their later calls need the signature too", async () => {
    const id = "200000000000000001";
    const res = await post(t, "/api/token", { code: `ok:${id}:Signed` }, signed(id));
    expect(res.status).toBe(200);
    expect(res.body.player.username).toBe("Signed");
    const token = res.body.session_token as string;

    expect((await get(t, "/api/player/" + res.body.player.id, token, signed(id))).status).toBe(200);
    const unsigned = await get(t, "/api/player/" + res.body.player.id, token);
    expect(unsigned).toMatchObject({ status: 401, body: { code: "proxy_signature_missing" } });
    const otherUser = await get(t, "/api/player/" + res.body.player.id, token, signed("200000000000000099"));
    expect(otherUser).toMatchObject({ status: 401, body: { code: "proxy_user_mismatch" } });
  });

  it("refuses a forged, stale or missing signature before the code is spent", async () => {
    const id = "200000000000000002";
    const before = t.discord.requests.length;
    const forged = await post(t, "/api/token", { code: `ok:${id}:Forged` }, signProxyPayload(proxyKeyPair().privateKey, payload(id)));
    expect(forged).toMatchObject({ status: 401, body: { code: "proxy_signature_invalid", error: expect.stringMatching(/signature/) } });
    const stale = await post(t, "/api/token", { code: `ok:${id}:Stale` }, signed(id, { created_at: now() - 900, expires_at: now() - 300 }));
    expect(stale).toMatchObject({ status: 401, body: { code: "proxy_signature_stale" } });
    const missing = await post(t, "/api/token", { code: `ok:${id}:Missing` });
    expect(missing).toMatchObject({ status: 401, body: { code: "proxy_signature_missing" } });
    // Discord's OAuth endpoint was never asked.
    expect(t.discord.requests.length).toBe(before);
    const rows = await t.app.services.db.run((em) => em.query(`SELECT 1 FROM players WHERE discord_id = $1`, [id]));
    expect(rows).toHaveLength(0);
  });

  it("refuses a signature that vouches for another Discord user than the code's", async () => {
    const res = await post(t, "/api/token", { code: "ok:200000000000000003:Mallory" }, signed("200000000000000004"));
    expect(res).toMatchObject({ status: 401, body: { code: "proxy_user_mismatch" } });
  });

  it("leaves guests alone: no signature needed to play as a guest", async () => {
    const guest = await post(t, "/api/guest", {});
    expect(guest.status).toBe(201);
    expect((await get(t, "/api/player/" + guest.body.player.id, guest.body.session_token)).status).toBe(200);
  });
});

describe("without DISCORD_PUBLIC_KEY", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it("signs Discord players in with no signature headers, as before", async () => {
    const res = await post(t, "/api/token", { code: "ok:200000000000000005:Plain" });
    expect(res.status).toBe(200);
    expect((await get(t, "/api/player/" + res.body.player.id, res.body.session_token)).status).toBe(200);
  });
});
