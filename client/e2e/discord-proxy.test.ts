import { describe, expect, it } from "vitest";
import { proxyKeyPair } from "../../server/test/fake-discord";
import { PHONE } from "./support";
import { acceptTerms, startFakeProxy } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";
import { openGame, press, setAmount } from "./games-helpers";

/**
 * Requests proven to come through Discord: the server knows the application's public key, and the
 * activity is reached through a stand-in for Discord's proxy that signs every request (and WebSocket
 * upgrade) with the private key, or forges the signature with another key.
 */
const keys = proxyKeyPair();
const {
  server: t,
  browser,
  host,
} = setupBrowserApp({
  discordHost: true,
  env: { BET_RATE_PER_SECOND: "1000", DISCORD_PUBLIC_KEY: keys.publicKeyHex },
});

const playerRow = async (discordId: string) =>
  (await t.app.services.db.run((em) => em.query(`SELECT * FROM players WHERE discord_id = $1`, [discordId])))[0];

describe("behind Discord's proxy, with DISCORD_PUBLIC_KEY set", () => {
  it("signs in and plays when the proxy signs each request for the player", async () => {
    const id = "500000000000000001";
    const proxy = await startFakeProxy(t.baseUrl, { privateKey: keys.privateKey, applicationId: "client-id", userId: id });
    try {
      const page = await browser.newPage({ viewport: PHONE });
      await page.goto(host.url(`${proxy.url}/`, { players: [`${id}:Signe`], instanceId: "i-proxy-ok" }));
      await acceptTerms(page.frameLocator("iframe").first());
      const app = (await (await page.$("iframe"))!.contentFrame())!;
      expect(await app.getByTestId("username").textContent()).toBe("Signe");
      expect((await playerRow(id)).tos_accepted_version).not.toBeNull();

      // A bet over the room's WebSocket, the connection upgraded through the proxy.
      await openGame(app, "limbo");
      await setAmount(app, 10);
      await app.getByTestId("limbo-target").fill("2");
      await press(app, "bet-button");
      const [bets] = await t.app.services.db.run((em) =>
        em.query(
          `SELECT count(*)::int AS n FROM ledger_entries l JOIN players p ON p.id = l.player_id WHERE p.discord_id = $1 AND l.delta < 0`,
          [id],
        ),
      );
      expect(bets.n).toBe(1);
      expect(proxy.forwarded.some((r) => r.method === "POST" && r.path === "/api/token")).toBe(true);
      expect(proxy.forwarded.some((r) => r.upgrade)).toBe(true);
      await page.close();
    } finally {
      await proxy.close();
    }
  });

  it("refuses a forged signature with a clear error, and the player continues as a guest", async () => {
    const id = "500000000000000002";
    const proxy = await startFakeProxy(t.baseUrl, { privateKey: proxyKeyPair().privateKey, applicationId: "client-id", userId: id });
    try {
      const page = await browser.newPage({ viewport: PHONE });
      await page.goto(host.url(`${proxy.url}/`, { players: [`${id}:Forger`], instanceId: "i-proxy-forged" }));
      const app = page.frameLocator("iframe").first();
      const alert = app.getByRole("alert").filter({ hasText: "Connection Error" });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toContain("Token exchange failed: Discord's proxy signature does not match");
      expect(await playerRow(id)).toBeUndefined();
      await page.close();
    } finally {
      await proxy.close();
    }
  });

  it("refuses a Discord sign-in that did not come through the proxy at all", async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(host.url(`${t.baseUrl}/`, { players: ["500000000000000003:Direct"], instanceId: "i-proxy-none" }));
    const alert = page.frameLocator("iframe").first().getByRole("alert").filter({ hasText: "Connection Error" });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toContain("signature headers are missing");
    expect(await playerRow("500000000000000003")).toBeUndefined();
    await page.close();
  });
});
