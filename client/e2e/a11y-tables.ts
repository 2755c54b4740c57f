import { describe, expect, it } from "vitest";
import { GAMES } from "@casino/common/catalogue";
import { closesWithEscape, expectAxeClean, guestIn, MODES, MULTIPLIER_FORMAT, multipliersIn, tabWalk } from "./a11y-helpers";
import { caseOf, stakeOf } from "./games-cases";
import { openGame, revealed, setAmount, settled } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Accessibility of every game's table in real Chromium against the real server, in the dark and the
 * light theme: axe-clean idle, in its dialogs and after a round (every rule in the dark theme, the colour
 * rules in the light one); Tab reaches every control in order; Escape closes its dialogs; a settled round
 * is told in words and an icon, not colour alone; one multiplier format. The catalogue is dealt into
 * `parts` parts, game i to part i mod parts + 1, one test file each (`a11y-tables-1..3.test.ts`), so the
 * parts run side by side and together check every game.
 */
export function describeEveryTable(part: number, parts: number): void {
  const app = setupBrowserApp();

  describe(`every table, part ${part} of ${parts}`, () => {
    it.each(GAMES.filter((_, i) => i % parts === part - 1).map((g) => ({ id: g.id, kind: g.kind })))(
      "$id: axe-clean idle, in its dialogs and after a round in both themes; Tab in order; Escape closes its dialogs; one multiplier format",
      { timeout: 180_000 },
      async ({ id, kind }) => {
        for (const theme of MODES) {
          const { context, page, notice } = await guestIn(app, theme);
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
}
