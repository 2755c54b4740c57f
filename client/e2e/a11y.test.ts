import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { GAMES } from "@casino/common/catalogue";
import { axeViolations, describeFindings } from "./axe";
import { MULTIPLIER_FORMAT, multipliersIn, tabWalk, textContrasts } from "./a11y-helpers";
import { caseOf, stakeOf } from "./games-cases";
import { openGame, revealed, setAmount, settled, storeTheme, type ThemeChoice } from "./games-helpers";
import { DESKTOP } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * Accessibility of every screen and table in real Chromium against the real server, in the dark and the
 * light theme: axe-core (injected into the page) finds no serious or critical violation (every rule in
 * the dark theme, the colour rules in the light one), colour contrast included; Tab reaches every
 * control in document order; Escape closes every dialog; a settled round is told in words and icons,
 * not colour alone.
 */
const { server: t, browser } = setupBrowserApp();

const MODES: ThemeChoice[] = [{ mode: "dark" }, { mode: "light" }];

/**
 * The rules whose answer depends on the colours: all a theme changes. A screen is checked against every
 * rule in the dark theme, and against these in the light one (its names, roles, order and structure are
 * the same in both).
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

async function expectAxeClean(page: Page, where: string, theme: ThemeChoice = { mode: "dark" }): Promise<void> {
  const findings = await axeViolations(page, theme.mode === "light" ? { only: COLOUR_RULES } : {});
  expect(findings, describeFindings(where, findings)).toEqual([]);
}

/** A new guest in `theme`, the guest notice checked and closed with Escape, the lobby on screen. */
async function guestIn(theme: ThemeChoice, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(storeTheme, theme);
  const page = await context.newPage();
  await page.goto(t.baseUrl);
  const notice = page.getByRole("dialog", { name: "You're Playing as a Guest" });
  await notice.waitFor({ timeout: 20_000 });
  return { context, page, notice };
}

async function closesWithEscape(page: Page, dialog: ReturnType<Page["getByRole"]>): Promise<void> {
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached", timeout: 5_000 });
}

describe("the screens around the tables", () => {
  it.each(MODES)(
    "$mode: notice, lobby tabs, tags, settings, legal pages and the verifier are axe-clean; Escape closes their dialogs",
    { timeout: 120_000 },
    async (theme) => {
      const { context, page, notice } = await guestIn(theme);
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

describe("every table", () => {
  it.each(GAMES.map((g) => ({ id: g.id, kind: g.kind })))(
    "$id: axe-clean idle, in its dialogs and after a round in both themes; Tab in order; Escape closes its dialogs; one multiplier format",
    { timeout: 180_000 },
    async ({ id, kind }) => {
      for (const theme of MODES) {
        const { context, page, notice } = await guestIn(theme);
        try {
          await page.getByRole("button", { name: "Got it, Continue as Guest" }).click();
          await notice.waitFor({ state: "detached" });
          await openGame(page, id);
          await expectAxeClean(page, `${id} ${theme.mode}, idle`, theme);

          if (theme.mode === "dark") {
            const walk = await tabWalk(page);
            expect(walk.reached, `Tab order of ${id}`).toEqual(walk.expected);

            await page.getByTestId("seeds-button").click();
            const seeds = page.getByRole("dialog");
            await seeds.waitFor();
            await expectAxeClean(page, `${id}: seeds panel`);
            await closesWithEscape(page, seeds);
          }

          await page.getByTestId("help-button").click();
          const help = page.getByTestId("help-dialog");
          await help.waitFor();
          await expectAxeClean(page, `${id} ${theme.mode}: rules`, theme);
          await closesWithEscape(page, help);

          if (kind === "skill") continue;
          await page.getByTestId("hotkeys-button").click();
          const keys = page.getByTestId("hotkeys-overlay");
          await keys.waitFor();
          await closesWithEscape(page, keys);

          const game = caseOf(id);
          await setAmount(page, stakeOf(game));
          await game.play(page);
          await settled(page);
          await revealed(page);
          await expectAxeClean(page, `${id} ${theme.mode}, after a round`, theme);

          // the outcome in words and an icon, not colour alone
          const result = page.getByTestId("round-result");
          expect(await result.innerText()).toMatch(
            /^(You won: \+[\d,]+ coins?|You lost: -[\d,]+ coins?|No win: 0 coins|Push: 0 coins, your bet is returned|Break even: 0 coins|Win at [\d,.]+×: 0 coins)/,
          );
          expect(await result.locator("svg").count()).toBe(1);

          // one multiplier format on the table, its panel and the bet lists
          const multipliers = await multipliersIn(page, `[data-testid="table-${id}"]`);
          expect(
            multipliers.filter((m) => !MULTIPLIER_FORMAT.test(m.replace(/\s/g, ""))),
            `${id}: ${multipliers.join(" ")}`,
          ).toEqual([]);
        } finally {
          await context.close();
        }
      }
    },
  );
});

describe("Dot Battle while a round plays", () => {
  it.each(MODES)("$mode: the HUD's figures read at 4.5:1 or more, and the screen is axe-clean", { timeout: 120_000 }, async (theme) => {
    const { context, page, notice } = await guestIn(theme);
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
    const { context, page, notice } = await guestIn(theme);
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
