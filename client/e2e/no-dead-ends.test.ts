import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { Adjustments } from "../../server/src/admin/adjustments";
import { openAsGuest, openGame, shownBalance } from "./games-helpers";
import { shot } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * No dead ends: a player with no coins is pointed to the daily spin (or told when it comes back) and
 * to the games that take no stake; a guest is told why the boards do not rank them, how to be ranked,
 * and sees their own bests.
 */
const { server: t, browser } = setupBrowserApp();

/** An operator's claw-back of the whole balance, then a reload so the page reads it. */
async function emptyBalance(page: Page, playerId: string, requestId: string): Promise<void> {
  await new Adjustments(t.app.services.db, t.app.services.announcements).adjust({
    playerId,
    requestId,
    kind: "claw_back",
    amount: 1_000_000,
    reason: "test: a player with no coins",
    operator: "test",
    upToBalance: true,
  });
  await page.reload();
  await expect.poll(() => shownBalance(page), { timeout: 20_000 }).toBe(0);
}

describe("at zero coins", () => {
  it("the lobby and a chance table point to the daily spin and the no-stake games", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, { width: 390, height: 844 });
    try {
      expect(await page.getByTestId("out-of-coins").count()).toBe(0);
      const { playerId } = await session();
      await emptyBalance(page, playerId, `empty-1-${playerId}`);

      const card = page.getByTestId("out-of-coins");
      await card.waitFor({ timeout: 20_000 });
      expect(await card.getByTestId("out-of-coins-spin").textContent()).toContain("Ready now");
      expect(await card.getByRole("button", { name: "Play Connect the Dots" }).isVisible()).toBe(true);
      expect(await card.getByRole("button", { name: "Play Dot Battle" }).isVisible()).toBe(true);
      await shot(page, "out-of-coins-390");

      // inside a chance game too, and its pointer leads to a no-stake game
      await openGame(page, "dice");
      await page.getByTestId("out-of-coins").waitFor();
      await page.getByTestId("out-of-coins").getByRole("button", { name: "Play Connect the Dots" }).click();
      await page.getByTestId("table-dots").waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("out-of-coins").count()).toBe(0); // a no-stake game needs no pointer
      await page.getByRole("button", { name: "Back to Lobby" }).click();

      // the spin, taken from the pointer, brings coins back and the pointer goes
      await page.getByTestId("out-of-coins").getByRole("button", { name: "Spin now" }).click();
      await page.getByRole("button", { name: "Spin for Free Coins" }).click();
      await page
        .getByTestId("spin-result")
        .filter({ hasText: /Coins!/ })
        .waitFor({ timeout: 20_000 });
      await page.getByRole("tab", { name: /Play|Games/ }).click();
      await expect.poll(() => shownBalance(page), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await page.getByTestId("out-of-coins").count()).toBe(0);

      // at zero again, with the spin taken: its countdown instead of a button
      await emptyBalance(page, playerId, `empty-2-${playerId}`);
      const again = page.getByTestId("out-of-coins-spin");
      await again.waitFor({ timeout: 20_000 });
      expect(await again.textContent()).toMatch(/Next spin in \d+h \d+m/);
      expect(await again.getByRole("button").count()).toBe(0);
      await shot(page, "out-of-coins-countdown-390");
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});

describe("a guest at the leaderboard", () => {
  it("is told why they are not ranked and how to be, and sees their own best time and kills", { timeout: 60_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await page.getByRole("tab", { name: "Leaderboard" }).click();
      const standing = page.getByTestId("guest-standing");
      await standing.waitFor({ timeout: 20_000 });
      expect(await standing.textContent()).toContain("Guests are not ranked");
      expect(await standing.textContent()).toContain("Launch the casino as an Activity in Discord");
      await expect.poll(() => page.getByTestId("own-best-kills").textContent(), { timeout: 15_000 }).toBe("None yet");
      expect(await page.getByTestId("own-best-time").textContent()).toBe("None yet");

      // results the replay accepted, as the skill rounds store them
      const { playerId } = await session();
      await t.app.services.db.run((em) => em.query(`INSERT INTO dot_battle_scores (player_id, kills) VALUES ($1, 9), ($1, 4)`, [playerId]));
      await t.app.services.db.run((em) =>
        em.query(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, 38120)`, [playerId]),
      );
      await page.reload();
      await page.getByRole("tab", { name: "Leaderboard" }).click();
      await expect.poll(() => page.getByTestId("own-best-kills").textContent(), { timeout: 15_000 }).toBe("9 kills");
      expect(await page.getByTestId("own-best-time").textContent()).toMatch(/38/);
    } finally {
      await context.close();
    }
  });
});
