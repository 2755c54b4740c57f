import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { formatCoins } from "@casino/common/format";
import { STARTING_BALANCE } from "@casino/common/constants";
import { openAsGuest, serverBalance } from "./games-helpers";
import { DESKTOP, shot } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * A new player's first lobby, in real Chromium against the real server: the first-run guide (coins, the
 * daily spin, where to start) is a card in the page's flow from the first render, overlapping nothing;
 * its buttons lead where they say; "Got it" closes it for good on the device. The header's gift and
 * the Spin tab are marked while the day's spin is unclaimed, and not once the server has paid it.
 */
const { server: t, browser } = setupBrowserApp();

const PHONE = { width: 390, height: 844 };

const boxOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right };
    });
const overlap = (a: { top: number; bottom: number; left: number; right: number }, b: typeof a) =>
  a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;

describe("the first-run guide", () => {
  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(
      `is there from the first render, covers nothing, leads where it says and never returns once done (${name})`,
      { timeout: 90_000 },
      async () => {
        const { context, page, session } = await openAsGuest(browser, t.baseUrl, viewport);
        try {
          const guide = page.getByTestId("first-run-guide");
          expect(await guide.isVisible()).toBe(true);
          expect(await guide.innerText()).toContain(`Coins are play money: ${formatCoins(STARTING_BALANCE)} to start`);
          // in the flow: neither on the search field nor on the catalogue
          const box = await boxOf(page, '[data-testid="first-run-guide"]');
          for (const other of ['[role="search"]', '[data-testid="category"]']) {
            expect(overlap(box, await boxOf(page, other)), `the guide over ${other}`).toBe(false);
          }
          await shot(page, `first-run-guide-${name}`);

          // where to start: the quick games, scrolled to
          await page.getByTestId("first-run-start").click();
          await expect
            .poll(() => page.getByRole("heading", { name: "Quick Games" }).evaluate((el) => Math.round(el.getBoundingClientRect().top)))
            .toBeLessThan(80);
          // the daily spin: its tab
          await page.getByTestId("first-run-spin").click();
          await page.getByTestId("wheel").waitFor();
          await page.getByRole("tab", { name: /Games|Play/ }).click();
          expect(await guide.isVisible(), "still there until it is closed").toBe(true);

          await page.getByTestId("first-run-done").click();
          await guide.waitFor({ state: "detached" });
          await page.reload();
          await page.getByTestId("category").first().waitFor({ timeout: 20_000 });
          expect(await guide.count(), "closed for good on this device").toBe(0);
          expect(await serverBalance(t.baseUrl, await session())).toBe(STARTING_BALANCE);
        } finally {
          await context.close();
        }
      },
    );
  }

  it(
    "is drawn with the lobby's first render: the catalogue does not move when the lobby's answers arrive",
    { timeout: 60_000 },
    async () => {
      const context = await browser.newContext({ viewport: PHONE });
      try {
        const page = await context.newPage();
        // the play counts held until the lobby has been measured
        const held: (() => void)[] = [];
        await page.route(
          (url) => url.pathname === "/api/game-stats",
          async (route) => {
            await new Promise<void>((resolve) => held.push(resolve));
            await route.continue();
          },
        );
        await page.goto(t.baseUrl);
        await page.getByTestId("category").first().waitFor({ timeout: 20_000 });
        expect(await page.getByTestId("first-run-guide").count()).toBe(1);
        const tileTop = () =>
          page
            .locator('[data-testid^="game-tile-"]')
            .first()
            .evaluate((el) => Math.round(el.getBoundingClientRect().top + scrollY));
        const drawn = await tileTop();
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/game-stats");
        await expect.poll(() => held.length).toBeGreaterThan(0);
        held.splice(0).forEach((letThrough) => letThrough());
        await answered;
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        expect(await tileTop()).toBe(drawn);
      } finally {
        await context.close();
      }
    },
  );
});

describe("the unclaimed daily spin", () => {
  it("marks the header's gift and the Spin tab until the server has paid the spin", { timeout: 60_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      const gift = page.getByTestId("spin-ready");
      const spinTab = page.getByRole("tab", { name: /Spin/ });
      await gift.waitFor({ timeout: 20_000 });
      expect(await spinTab.textContent()).toContain("(ready)");
      const before = await serverBalance(t.baseUrl, await session());

      await gift.click();
      await page.getByRole("button", { name: "Spin for Free Coins" }).click();
      await expect.poll(() => page.getByTestId("spin-result").textContent(), { timeout: 20_000 }).toMatch(/\d/);
      await gift.waitFor({ state: "detached", timeout: 20_000 });
      expect(await spinTab.textContent()).not.toContain("(ready)");
      expect(await serverBalance(t.baseUrl, await session())).toBeGreaterThan(before);
    } finally {
      await context.close();
    }
  });
});
