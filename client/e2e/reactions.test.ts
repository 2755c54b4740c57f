import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { acceptTerms } from "./fake-discord-host";
import { openGame } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Reactions between two players of one activity instance in the fake Discord host: one reacts on the
 * instance's crash round, the other sees the emoji float over the crash graph; a player of another
 * instance sees nothing of it.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true });

async function openHost(players: string[], instanceId: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1800, height: 1000 } });
  await page.goto(host.url(`${t.baseUrl}/`, { players, instanceId }));
  return page;
}

const frameOf = async (page: Page, i: number): Promise<Frame> => (await (await page.$$("iframe"))[i]!.contentFrame())!;

async function openSharedCrash(frame: Frame): Promise<void> {
  await openGame(frame, "crash");
  await frame.getByRole("tab", { name: "Play together" }).click();
  await frame.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
}

describe("reactions", () => {
  it("float over the crash round on the other member's screen, and on nobody's in another instance", async () => {
    const page = await openHost(["300000000000000031:Ann", "300000000000000032:Ben"], "i-reactions-1");
    const other = await openHost(["300000000000000033:Cal"], "i-reactions-2");
    await Promise.all([0, 1].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    await acceptTerms(other.frameLocator("iframe").first());
    const [ann, ben] = await Promise.all([0, 1].map((i) => frameOf(page, i)));
    const cal = await frameOf(other, 0);
    await Promise.all([openSharedCrash(ann!), openSharedCrash(ben!), openSharedCrash(cal)]);

    // Ann opens the six reactions on the crash round and sends the fire.
    const picker = ann!.locator('[data-testid="reaction-picker"][data-target="crash"]');
    await picker.getByRole("button", { name: "React to the crash round" }).click();
    await picker.getByRole("button", { name: "Fire on the crash round" }).click();

    // Ben sees it over the crash graph, named by who sent it; Ann sees her own.
    const onBen = ben!.locator('[data-testid="reactions"][data-target="crash"] [data-testid="reaction"]');
    await onBen.first().waitFor({ state: "attached", timeout: 20_000 });
    expect(await onBen.first().getAttribute("data-reaction")).toBe("fire");
    expect(await onBen.first().getAttribute("data-from")).toBe("Ann");
    expect(await onBen.first().textContent()).toBe("🔥");
    await ann!.locator('[data-testid="reactions"][data-target="crash"] [data-reaction="fire"]').first().waitFor({ state: "attached" });

    // Cal, in another instance, also at his crash round: his reaction reaches only him, and Ann's never came.
    const calPicker = cal.locator('[data-testid="reaction-picker"][data-target="crash"]');
    await calPicker.getByRole("button", { name: "React to the crash round" }).click();
    await calPicker.getByRole("button", { name: "Party on the crash round" }).click();
    await cal.locator('[data-testid="reaction"][data-reaction="party"]').first().waitFor({ state: "attached", timeout: 20_000 });
    expect(await cal.locator('[data-testid="reaction"][data-from="Ann"]').count()).toBe(0);
    expect(await ben!.locator('[data-testid="reaction"][data-from="Cal"]').count()).toBe(0);
    await page.close();
    await other.close();
  });
});
