import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, layoutShifts, shot } from "./support";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";

/**
 * The Discord path in real Chromium: a fake Discord host page on http://localhost:3333 iframes the
 * built client served by the real server, whose DISCORD_API_BASE points at the fake OAuth server.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true });

const playerRow = async (discordId: string) =>
  (await t.app.services.db.run((em) => em.query(`SELECT * FROM players WHERE discord_id = $1`, [discordId])))[0];

const hostLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { fakeDiscord: { log: { player: string; cmd: string; args: any }[] } }).fakeDiscord.log);

async function openHost(
  players: string[],
  options: { viewport?: { width: number; height: number }; code?: string; instanceId?: string } = {},
) {
  const page = await browser.newPage({ viewport: options.viewport ?? DESKTOP });
  await page.goto(host.url(`${t.baseUrl}/`, { players, code: options.code, instanceId: options.instanceId }));
  return page;
}

describe("inside Discord", () => {
  it("signs in as the Discord user, blocks on the terms until both boxes are ticked, and remembers the acceptance", async () => {
    const page = await openHost(["100000000000000001:Alice"]);
    const app = page.frameLocator("iframe").first();

    const dialog = app.getByRole("dialog", { name: "Updated Terms & Privacy Policy" });
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.getByText("Welcome, Alice!").isVisible()).toBe(true);
    const accept = dialog.getByRole("button", { name: "Accept and Continue" });
    expect(await accept.isDisabled()).toBe(true);
    await dialog.getByRole("checkbox", { name: /Terms of Service/ }).click();
    expect(await accept.isDisabled()).toBe(true);
    // Not closable: Escape leaves it open.
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole("checkbox", { name: /Privacy Policy/ }).click();
    expect(await accept.isEnabled()).toBe(true);
    await shot(page, "discord-terms-1280");
    await accept.click();
    await app.getByTestId("toast").filter({ hasText: "Thank you!" }).waitFor();
    await dialog.waitFor({ state: "detached" });

    const row = await playerRow("100000000000000001");
    expect(row.username).toBe("Alice");
    expect(row.tos_accepted_version).toBe("2025-10-30");
    expect(await app.getByTestId("username").textContent()).toBe("Alice");
    expect(await app.getByTestId("balance").textContent()).toBe("1,000");

    // The start-up talked to Discord as the spec says.
    const log = await hostLog(page);
    const authorize = log.find((l) => l.cmd === "AUTHORIZE");
    expect(authorize?.args).toMatchObject({
      client_id: "client-id",
      response_type: "code",
      prompt: "none",
      scope: ["identify", "guilds", "rpc.activities.write"],
    });
    expect(log.some((l) => l.cmd === "AUTHENTICATE" && l.args.access_token === "at-100000000000000001-Alice")).toBe(true);

    // Reloaded by the host (as Discord does), the player goes straight to the lobby.
    await page.evaluate(() => (window as unknown as { fakeDiscord: { reload(i: number): void } }).fakeDiscord.reload(0));
    await app.getByTestId("lobby-heading").waitFor({ timeout: 30_000 });
    await app.getByTestId("username").waitFor({ state: "attached" });
    expect(await app.getByRole("dialog").count()).toBe(0);
    await shot(page, "discord-lobby-1280");
    await page.close();
    await t.expectLedgerInvariant();
  });

  it("gives a signed-in player the suggestion box and the anonymous switch", async () => {
    const page = await openHost(["100000000000000002:Bob"]);
    const app = page.frameLocator("iframe").first();
    await acceptTerms(app);

    await app.getByRole("button", { name: "Suggestions?" }).click();
    const box = app.getByRole("dialog", { name: "Share Your Suggestions" });
    const text = box.getByRole("textbox");
    await text.fill("More roulette tables");
    expect(await box.getByText("20/2000").isVisible()).toBe(true);
    await text.press("Shift+Enter");
    await text.pressSequentially("please");
    expect(await text.inputValue()).toBe("More roulette tables\nplease");
    await text.press("Enter");
    await box.waitFor({ state: "detached" });
    const [suggestion] = await t.app.services.db.run((em) =>
      em.query(`SELECT s.text FROM suggestions s JOIN players p ON p.id = s.player_id WHERE p.discord_id = $1`, ["100000000000000002"]),
    );
    expect(suggestion.text).toBe("More roulette tables\nplease");

    await app.getByRole("tab", { name: "Leaderboard" }).click();
    const anonymous = app.getByRole("switch", { name: "Anonymous" });
    expect(await anonymous.getAttribute("aria-checked")).toBe("false");
    await anonymous.click();
    await expect.poll(async () => (await playerRow("100000000000000002")).anonymous_mode).toBe(true);
    // the switch shows the server's answer, which may reach the page after the row is written
    await expect.poll(() => anonymous.getAttribute("aria-checked")).toBe("true");

    // The legal pages offer a way back to a signed-in player.
    await app.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Privacy Policy" }).click();
    await app.getByRole("heading", { name: "Privacy Policy", level: 1 }).waitFor();
    await app.getByRole("button", { name: "Back to Lobby" }).click();
    await app.getByTestId("lobby-heading").waitFor();
    await page.close();
  });

  it("runs two players in one instance, each as themselves", async () => {
    const page = await openHost(["100000000000000003:Carol", "100000000000000004:Dave"], {
      viewport: { width: 1400, height: 900 },
      instanceId: "i-shared-1",
    });
    const [carol, dave] = [page.frameLocator("iframe").nth(0), page.frameLocator("iframe").nth(1)];
    await Promise.all([acceptTerms(carol), acceptTerms(dave)]);
    await expect.poll(() => carol.getByTestId("user").textContent()).toContain("Carol");
    await expect.poll(() => dave.getByTestId("user").textContent()).toContain("Dave");
    expect((await playerRow("100000000000000003")).username).toBe("Carol");
    expect((await playerRow("100000000000000004")).username).toBe("Dave");

    const frames = page.frames().filter((f) => f !== page.mainFrame());
    expect(frames.map((f) => new URL(f.url()).searchParams.get("instance_id"))).toEqual(["i-shared-1", "i-shared-1"]);
    const log = await hostLog(page);
    for (const id of ["100000000000000003", "100000000000000004"]) {
      expect(log.filter((l) => l.player === id).map((l) => l.cmd)).toEqual(
        expect.arrayContaining(["HANDSHAKE", "AUTHORIZE", "AUTHENTICATE"]),
      );
    }
    await shot(page, "discord-two-players");

    // Carol's frame reloads: her lobby does not move as the activity's strip arrives (its place is kept
    // from the first paint), so a tap on a tile meanwhile lands where it was aimed.
    const before = await frameOf(page, 0);
    await before.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await page.evaluate(() => (window as unknown as { fakeDiscord: { reload(i: number): void } }).fakeDiscord.reload(0));
    const again = await frameOf(page, 0);
    await again.waitForFunction(
      () => !(window as unknown as { beforeReload?: boolean }).beforeReload && document.querySelector('[data-testid="lobby-heading"]'),
      undefined,
      { timeout: 20_000 },
    );
    await expect.poll(() => again.getByTestId("together-member").count(), { timeout: 20_000 }).toBe(2);
    // (Inside the strip the Invite button narrows to "Invite" once Dave is there.)
    expect(await layoutShifts(again, '[data-testid="together-strip"]')).toEqual([]);
    await page.close();
  });

  it("falls back to a guest with the Connection Error notice when Discord sign-in fails", async () => {
    const page = await openHost(["100000000000000005:Erin"], { code: "rejected", viewport: PHONE });
    const app = page.frameLocator("iframe").first();
    const alert = app.getByRole("alert").filter({ hasText: "Connection Error" });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.textContent()).toContain("Token exchange failed: Bad Gateway");
    expect(await alert.textContent()).toContain("Running in standalone mode for development");
    expect(await app.getByTestId("balance").textContent()).toBe("1,000");
    // A guest inside Discord is not shown the "launch it in Discord" notice.
    expect(await app.getByRole("dialog").count()).toBe(0);
    expect(await playerRow("100000000000000005")).toBeUndefined();
    await shot(page, "discord-fallback-390");
    await page.close();
  });
});
