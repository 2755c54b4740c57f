import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, IN_MEMORY, loadConfig } from "../src/platform/config";
import { startTestApp, type TestApp } from "./harness";

/** What the browser client needs from the server before it signs in, and who may frame it. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ FRAME_ANCESTORS: "http://localhost:3333" }, { redis: false });
});
afterAll(async () => {
  await t?.close();
});

describe("client support", () => {
  it("tells the browser the Discord application id, without a session", async () => {
    const res = await t.request("GET", "/api/client-config");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ discordClientId: "client-id" });
  });

  it("lets the configured origins frame the client, besides Discord", async () => {
    const res = await fetch(`${t.baseUrl}/api/client-config`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1]?.split(" ") ?? [];
    expect(ancestors).toContain("https://discord.com");
    expect(ancestors).toContain("http://localhost:3333");
    expect(ancestors).not.toContain("*");
  });

  it("refuses a frame ancestor that is not an origin", () => {
    expect(loadConfig({ DATA_DIR: IN_MEMORY, FRAME_ANCESTORS: "http://a.example https://b.example:8443" }).frameAncestors).toEqual([
      "http://a.example",
      "https://b.example:8443",
    ]);
    expect(() => loadConfig({ DATA_DIR: IN_MEMORY, FRAME_ANCESTORS: "*" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: IN_MEMORY, FRAME_ANCESTORS: "https://a.example/path" })).toThrow(/FRAME_ANCESTORS/);
  });
});
