import { describe, expect, it } from "vitest";
import { closesWithEscape, expectAxeClean, guestIn, MODES, tabWalk, textContrasts } from "./a11y-helpers";
import { openGame } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Accessibility of the screens around the tables, Dot Battle while it plays and the shared blackjack
 * table, in real Chromium against the real server, in the dark and the light theme: axe-core (injected
 * into the page) finds no serious or critical violation (every rule in the dark theme, the colour rules in
 * the light one), colour contrast included; Tab reaches every control in document order; Escape closes
 * every dialog. Every game's table is checked by `a11y-tables-*.test.ts` (a third of the catalogue each,
 * so the three run side by side).
 */
const app = setupBrowserApp();
const { server: t } = app;

describe("the screens around the tables", () => {
  it.each(MODES)(
    "$mode: notice, lobby tabs, tags, settings, legal pages and the verifier are axe-clean; Escape closes their dialogs",
    { timeout: 120_000 },
    async (theme) => {
      const { context, page, notice } = await guestIn(app, theme);
      try {
        await expectAxeClean(page, "guest notice", theme);
        await closesWithEscape(page, notice);
        await page.getByTestId("lobby-heading").waitFor();
        await expectAxeClean(page, "lobby: games", theme);

        const walk = await tabWalk(page);
        expect(walk.reached, "Tab order of the lobby").toEqual(walk.expected);

        await page.getByRole("tab", { name: /Daily Spin|Spin/ }).click();
        await page.getByTestId("wheel").waitFor();
        await expectAxeClean(page, "lobby: daily spin", theme);

        await page.getByRole("tab", { name: /Leaderboard|Ranks/ }).click();
        await page.getByRole("button", { name: "My Tags" }).click();
        const tags = page.getByRole("dialog", { name: "Your Tags" });
        // the dialog loads its tags after it opens: checked once they are there, objective numbers with
        // thousands separators
        await tags.getByText("Reach 5,000 coins").first().waitFor({ timeout: 20_000 });
        await expectAxeClean(page, "tags dialog", theme);
        await closesWithEscape(page, tags);
        await expectAxeClean(page, "lobby: leaderboard", theme);

        for (const path of ["/settings", "/terms", "/privacy", "/verify"]) {
          await page.goto(`${t.baseUrl}${path}`);
          await page.locator("h1").first().waitFor({ timeout: 20_000 });
          await expectAxeClean(page, path, theme);
        }
      } finally {
        await context.close();
      }
    },
  );
});

describe("Dot Battle while a round plays", () => {
  it.each(MODES)("$mode: the HUD's figures read at 4.5:1 or more, and the screen is axe-clean", { timeout: 120_000 }, async (theme) => {
    const { context, page, notice } = await guestIn(app, theme);
    try {
      await closesWithEscape(page, notice);
      await openGame(page, "dot-battle");
      await page.getByTestId("skill-start").click();
      const canvas = page.getByTestId("battle-canvas");
      await expect.poll(() => canvas.getAttribute("data-tick").then(Number), { timeout: 20_000 }).toBeGreaterThan(10);
      // the figures, and their labels: axe leaves a one-digit figure unjudged
      const contrasts = await textContrasts(
        page,
        '[data-testid="skill-stats"] [data-testid^="stat-"], [data-testid="skill-stats"] .uppercase',
      );
      expect(contrasts).toHaveLength(6);
      expect(
        contrasts.filter((c) => c.ratio < 4.5),
        `${theme.mode}: ${JSON.stringify(contrasts)}`,
      ).toEqual([]);
      await expectAxeClean(page, `dot-battle ${theme.mode}, playing`, theme);
    } finally {
      await context.close();
    }
  });
});

describe("the shared blackjack table", () => {
  it.each(MODES)("$mode: watching and seated, the table is axe-clean; its rules close with Escape", { timeout: 120_000 }, async (theme) => {
    const { context, page, notice } = await guestIn(app, theme);
    try {
      await closesWithEscape(page, notice);
      await page.getByTestId("join-table-blackjack").click();
      await page.locator('[data-testid="bj-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
      await expectAxeClean(page, "blackjack table, watching", theme);
      await page.locator('[data-testid^="table-sit-"]').first().click();
      await page.getByTestId("table-seat-panel").waitFor();
      await page.getByTestId("table-fairness").locator("summary").click();
      await expectAxeClean(page, "blackjack table, seated", theme);
      await page.getByTestId("help-button").click();
      const rules = page.getByRole("dialog");
      await rules.waitFor();
      await closesWithEscape(page, rules);
    } finally {
      await context.close();
    }
  });
});
