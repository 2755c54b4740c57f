import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { openGame, sidewaysScroll } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";
import { shot } from "./support";

/**
 * Reactions between two players of one activity instance in the fake Discord host: one reacts on the
 * instance's crash round, the other sees the emoji float over the crash graph (a player of another
 * instance sees nothing of it); a watcher of the instance's blackjack table reacts on a seat, and its
 * player sees it there. Pictures of both go to test-artifacts/.
 */
// A player's budget refills once in 100 s here, so the fourth of a burst is refused however slow the machine.
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, env: { REACTIONS_PER_SECOND: "0.01" } });

async function openHost(players: string[], instanceId: string, viewport = { width: 1800, height: 1000 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(host.url(`${t.baseUrl}/`, { players, instanceId }));
  return page;
}

/** What a member's line of the strip says they do ("Blackjack table, seat 3"). */
const doing = (frame: Frame, name: string) =>
  frame.getByTestId("together-member").filter({ hasText: name }).getByTestId("together-member-game").textContent();

async function openSharedCrash(frame: Frame): Promise<void> {
  await openGame(frame, "crash");
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
    const picker = ann!.locator('[data-testid="reaction-picker"][data-target="crash-round"]');
    await picker.getByRole("button", { name: "React to the crash round" }).click();
    await picker.getByRole("button", { name: "Fire on the crash round" }).click();

    // Ben sees it over the crash graph, named by who sent it; Ann sees her own.
    const onBen = ben!.locator('[data-testid="reactions"][data-target="crash-round"] [data-testid="reaction"]');
    await onBen.first().waitFor({ state: "attached", timeout: 20_000 });
    expect(await onBen.first().getAttribute("data-reaction")).toBe("fire");
    expect(await onBen.first().getAttribute("data-from")).toBe("Ann");
    expect(await onBen.first().textContent()).toBe("🔥");
    await shot(page, "reactions-crash");
    await ann!
      .locator('[data-testid="reactions"][data-target="crash-round"] [data-reaction="fire"]')
      .first()
      .waitFor({ state: "attached" });

    // Cal, in another instance, also at his crash round: his reaction reaches only him, and Ann's never came.
    const calPicker = cal.locator('[data-testid="reaction-picker"][data-target="crash-round"]');
    await calPicker.getByRole("button", { name: "React to the crash round" }).click();
    await calPicker.getByRole("button", { name: "Party on the crash round" }).click();
    await cal.locator('[data-testid="reaction"][data-reaction="party"]').first().waitFor({ state: "attached", timeout: 20_000 });
    expect(await cal.locator('[data-testid="reaction"][data-from="Ann"]').count()).toBe(0);
    expect(await ben!.locator('[data-testid="reaction"][data-from="Cal"]').count()).toBe(0);

    // Ann's fourth reaction of a burst is refused: the server's reason in a toast, and Ben gets no fourth.
    for (const name of ["Applause", "Wow", "Fire"]) {
      await picker.getByRole("button", { name: "React to the crash round" }).click();
      await picker.getByRole("button", { name: `${name} on the crash round` }).click();
    }
    const toast = ann!.getByTestId("toast").filter({ hasText: "Reaction not sent" });
    await toast.waitFor({ timeout: 20_000 });
    expect(await toast.textContent()).toContain("Too many reactions; one a second");
    await page.close();
    await other.close();
  });

  it("float over a seat of the activity's blackjack table, sent by a member watching it", async () => {
    // Each frame 1280x800 (the host lays its frames side by side, 8 px apart).
    const page = await openHost(["300000000000000041:Ivy", "300000000000000042:Jon"], "i-reactions-table", {
      width: 2 * 1280 + 8,
      height: 800,
    });
    await Promise.all([0, 1].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [ivy, jon] = await Promise.all([0, 1].map((i) => frameOf(page, i)));

    // Ivy sits at seat 3; Jon joins the same table from the blackjack tile and watches.
    await ivy!.getByTestId("join-table-blackjack").click();
    await ivy!.getByTestId("table-sit-3").click();
    await expect.poll(() => ivy!.getByTestId("bj-table").getAttribute("data-my-seat"), { timeout: 15_000 }).toBe("3");
    // The server takes reactions on a seat someone reports sitting at, as Jon's strip shows it.
    await expect.poll(() => doing(jon!, "Ivy"), { timeout: 15_000 }).toBe("Blackjack table, seat 3");
    await jon!.getByTestId("join-table-blackjack").click();
    await expect.poll(() => jon!.getByTestId("table-seat-3").textContent(), { timeout: 15_000 }).toContain("Ivy");

    // A free seat takes no reactions, nor one's own seat from oneself; Ivy's takes Jon's.
    expect(await jon!.locator('[data-testid="table-seat-5"] [data-testid="reaction-picker"]').count()).toBe(0);
    expect(await ivy!.locator('[data-testid="table-seat-3"] [data-testid="reaction-picker"]').count()).toBe(0);
    const seat = jon!.getByTestId("table-seat-3");
    await seat.getByRole("button", { name: "React to Ivy, seat 3" }).click();
    await shot(page, "reactions-seat-picker");
    await seat.getByRole("button", { name: "Applause on Ivy, seat 3" }).click();

    const onIvy = ivy!.locator('[data-testid="table-seat-3"] [data-testid="reaction"]');
    await onIvy.first().waitFor({ state: "attached", timeout: 20_000 });
    expect(await onIvy.first().getAttribute("data-reaction")).toBe("clap");
    expect(await onIvy.first().getAttribute("data-from")).toBe("Jon");
    await shot(page, "reactions-seat");
    await page.close();
  });

  it("open on a 360 px phone's seat without scrolling the table sideways, every reaction 32 px or more", async () => {
    const page = await openHost(["300000000000000051:Kim", "300000000000000052:Lou"], "i-reactions-phone", {
      width: 2 * 360 + 8,
      height: 640,
    });
    await Promise.all([0, 1].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [kim, lou] = await Promise.all([0, 1].map((i) => frameOf(page, i)));
    await kim!.getByTestId("join-table-blackjack").click();
    await kim!.getByTestId("table-sit-2").click();
    await expect.poll(() => kim!.getByTestId("bj-table").getAttribute("data-my-seat"), { timeout: 15_000 }).toBe("2");
    await expect.poll(() => doing(lou!, "Kim"), { timeout: 15_000 }).toBe("Blackjack table, seat 2");
    await lou!.getByTestId("join-table-blackjack").click();
    const seat = lou!.getByTestId("table-seat-2");
    await expect.poll(() => seat.textContent(), { timeout: 15_000 }).toContain("Kim");

    await seat.getByRole("button", { name: "React to Kim, seat 2" }).click();
    const buttons = seat.getByTestId("reaction-picker").getByRole("button");
    expect(await buttons.count()).toBe(7);
    // Measured inside the frame (the host lays its frames side by side).
    const boxes = await buttons.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { width: r.width, height: r.height, right: r.right, viewport: document.documentElement.clientWidth };
      }),
    );
    for (const box of boxes) {
      expect(box.width).toBeGreaterThanOrEqual(32);
      expect(box.height).toBeGreaterThanOrEqual(32);
      expect(box.right).toBeLessThanOrEqual(box.viewport);
    }
    expect(await sidewaysScroll(lou!)).toEqual([]);
    await shot(page, "reactions-seat-picker-360");
    await seat.getByRole("button", { name: "Wow on Kim, seat 2" }).click();
    await kim!.locator('[data-testid="table-seat-2"] [data-reaction="wow"]').first().waitFor({ state: "attached", timeout: 20_000 });
    await page.close();
  });
});
