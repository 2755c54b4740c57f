import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { DESKTOP, PHONE, shot } from "./support";
import { acceptTerms } from "./fake-discord-host";
import { backToLobby, openGame, press, setAmount } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Phones inside Discord: the orientation lock each screen asks for (SET_ORIENTATION_LOCK_STATE, sent on
 * a mobile launch only) and the compact picture-in-picture view on ACTIVITY_LAYOUT_MODE_UPDATE.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, env: { BET_RATE_PER_SECOND: "1000" } });

type HostLog = { player: string; cmd: string; args: any }[];
const locks = async (page: Page) =>
  (await page.evaluate(() => (window as unknown as { fakeDiscord: { log: HostLog } }).fakeDiscord.log))
    .filter((l) => l.cmd === "SET_ORIENTATION_LOCK_STATE")
    .map((l) => l.args);
const layout = (page: Page, mode: number) =>
  page.evaluate((m) => (window as unknown as { fakeDiscord: { layout(mode: number): void } }).fakeDiscord.layout(m), mode);

async function openHost(player: string, instanceId: string, platform: string, viewport = PHONE) {
  const page = await browser.newPage({ viewport });
  await page.goto(host.url(`${t.baseUrl}/`, { players: [player], instanceId, platform }));
  return page;
}

describe("a phone inside Discord", () => {
  it("unlocks the orientation in the lobby and locks a table to portrait", async () => {
    const page = await openHost("400000000000000001:Pia", "i-phone-lock", "mobile");
    await acceptTerms(page.frameLocator("iframe").first());
    const app = (await (await page.$("iframe"))!.contentFrame())!;
    await expect.poll(() => locks(page)).toEqual([{ lock_state: 1, picture_in_picture_lock_state: 1 }]);

    await openGame(app, "limbo");
    await expect.poll(() => locks(page)).toHaveLength(2);
    expect((await locks(page))[1]).toEqual({ lock_state: 2, picture_in_picture_lock_state: 1 });

    await backToLobby(app);
    await app.getByTestId("lobby-heading").waitFor();
    await expect.poll(() => locks(page)).toHaveLength(3);
    expect((await locks(page))[2]).toEqual({ lock_state: 1, picture_in_picture_lock_state: 1 });
    await page.close();
  });

  it("sends no orientation lock on a desktop launch (the command exists on phones only)", async () => {
    const page = await openHost("400000000000000002:Dora", "i-desktop-lock", "desktop", DESKTOP);
    await acceptTerms(page.frameLocator("iframe").first());
    const app = (await (await page.$("iframe"))!.contentFrame())!;
    await openGame(app, "limbo");
    // The presence (sent by the same service, on the same table change) says "Playing Limbo": the lock's
    // turn has come and gone, and no lock was sent.
    const log = () => page.evaluate(() => (window as unknown as { fakeDiscord: { log: HostLog } }).fakeDiscord.log);
    await expect
      .poll(async () => (await log()).some((l) => l.cmd === "SET_ACTIVITY" && l.args.activity.details === "Playing Limbo"), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await locks(page)).toEqual([]);
    await page.close();
  });

  it("shows only the balance and the current round in picture-in-picture, and the table again as it was", async () => {
    const page = await openHost("400000000000000003:Pip", "i-phone-pip", "mobile");
    await acceptTerms(page.frameLocator("iframe").first());
    const app = (await (await page.$("iframe"))!.contentFrame())!;
    await openGame(app, "mines");
    await setAmount(app, 10);
    await app.getByTestId("mines-count").selectOption("3");
    await press(app, "bet-button");
    await app.getByTestId("mines-cashout").waitFor();

    await layout(page, 1);
    const pip = app.getByTestId("pip");
    await pip.waitFor();
    expect(await app.getByTestId("pip-balance").textContent()).toBe("990");
    expect(await app.getByTestId("pip-round").textContent()).toBe("Mines: round in play, stake 10");
    expect(await app.getByTestId("table-mines").isVisible()).toBe(false);
    expect(await app.getByTestId("balance").isVisible()).toBe(false);
    await page.setViewportSize({ width: 320, height: 180 });
    await shot(page, "discord-pip-320");

    // Back to the full view: the same round, still open, on the same table.
    await page.setViewportSize(PHONE);
    await layout(page, 0);
    await pip.waitFor({ state: "detached" });
    await app.getByTestId("table-mines").waitFor();
    expect(await app.getByTestId("mines-cashout").isVisible()).toBe(true);
    // the header counts to a changed balance (0.7 s): wait for where it settles
    await expect.poll(() => app.getByTestId("balance").textContent(), { timeout: 5_000 }).toBe("990");
    await page.close();
  });
});
