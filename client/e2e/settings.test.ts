import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { caseOf, stakeOf } from "./games-cases";
import { backToLobby, openAsGuest, openGame, setAmount, settled } from "./games-helpers";
import { axeViolations, describeFindings } from "./axe";
import { ARTIFACTS, DESKTOP, PHONE, shot } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * The Settings page in real Chromium against the real server: the page follows the device's light/dark
 * preference until the player picks a mode, every switch is named (axe's rules for names, and each
 * switch found by its role and name), Animations, Turbo, Result toasts and Show reactions each say in one
 * line what they do, and the colour grid names its swatches in words, never numbers. Screenshots of the page and of a
 * game's result toast at 390×844 and 1280×800 in both modes go to test-artifacts/.
 */
const { server: t, browser } = setupBrowserApp();

const dark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

/**
 * Emulates the device's preference and waits until the page has been told of it: the media query
 * matches, then a frame passes (a browser reports media query changes before a frame's callbacks).
 */
async function preferColorScheme(page: Page, scheme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((s) => matchMedia(`(prefers-color-scheme: ${s})`).matches, scheme);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("heading", { name: "Theme Color" }).waitFor();
}

describe("settings", () => {
  it("follow the device's light/dark preference until the player picks a mode, then keep the pick", { timeout: 90_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE, undefined, { colorScheme: "light" });
    try {
      expect(await dark(page), "a light device, nothing chosen").toBe(false);
      await preferColorScheme(page, "dark");
      expect(await dark(page), "the device turned dark").toBe(true);

      await openSettings(page);
      expect(await page.getByTestId("theme-mode-hint").textContent()).toBe("Following your device (dark now) until you choose.");
      // a colour is no choice of mode
      await page.getByRole("radio", { name: "Soft green" }).click();
      await preferColorScheme(page, "light");
      expect(await dark(page), "the device turned light again").toBe(false);

      // the pick holds whatever the device says, across a reload
      await page.getByRole("radio", { name: "Dark", exact: true }).click();
      expect(await dark(page)).toBe(true);
      expect(await page.getByTestId("theme-mode-hint").textContent()).toBe("Choose a light or dark casino.");
      await preferColorScheme(page, "dark");
      await preferColorScheme(page, "light");
      expect(await dark(page), "chosen dark on a light device").toBe(true);
      await page.reload();
      await page.getByRole("heading", { name: "Theme Color" }).waitFor({ timeout: 20_000 });
      expect(await dark(page), "after a reload").toBe(true);
    } finally {
      await context.close();
    }
  });

  it("a tap on the mode the page follows makes it the player's choice", { timeout: 60_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE, undefined, { colorScheme: "dark" });
    try {
      await openSettings(page);
      expect(await page.getByTestId("theme-mode-hint").textContent()).toBe("Following your device (dark now) until you choose.");
      await page.getByRole("radio", { name: "Dark", exact: true }).click();
      expect(await page.getByTestId("theme-mode-hint").textContent()).toBe("Choose a light or dark casino.");
      await preferColorScheme(page, "light");
      expect(await dark(page)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it(
    "name every switch, say what Animations, Turbo, Result toasts and Show reactions do, and name the swatches in words",
    { timeout: 60_000 },
    async () => {
      const { context, page } = await openAsGuest(browser, t.baseUrl, DESKTOP);
      try {
        await openSettings(page);
        const names = ["Sound", "Animations", "Turbo (this device)", "Result toasts", "Show reactions"];
        expect(await page.getByRole("switch").count()).toBe(names.length);
        for (const name of names) expect(await page.getByRole("switch", { name, exact: true }).count(), name).toBe(1);
        const findings = await axeViolations(page, { only: ["button-name", "aria-toggle-field-name", "label", "aria-command-name"] });
        expect(findings, describeFindings("settings", findings)).toEqual([]);

        const described = (name: string) =>
          page
            .getByRole("switch", { name, exact: true })
            .evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent ?? "");
        expect(await described("Animations")).toBe("Cards, dice and wheels move into place; off, everything appears at once.");
        expect(await described("Turbo (this device)")).toBe(
          "Results show at once, without their animation. Auto-bet always plays in turbo.",
        );
        expect(await described("Result toasts")).toMatch(/after each round/);
        expect(await described("Show reactions")).toMatch(/^The emoji people in your activity send/);

        const swatches = await page
          .getByRole("radiogroup", { name: "Theme color" })
          .getByRole("radio")
          .evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? ""));
        expect(swatches).toHaveLength(100);
        expect(new Set(swatches).size).toBe(100);
        for (const name of swatches) expect(name).toMatch(/^[A-Z][a-z]+ [a-z ]+$/);
        expect(await page.locator("main").textContent(), "raw H S% L% text").not.toMatch(/\d+ \d+% \d+%/);
      } finally {
        await context.close();
      }
    },
  );

  it.each([
    { viewport: PHONE, mode: "light" as const },
    { viewport: PHONE, mode: "dark" as const },
    { viewport: DESKTOP, mode: "light" as const },
    { viewport: DESKTOP, mode: "dark" as const },
  ])("$viewport.width px, $mode: the page and a round's toast as a player sees them", { timeout: 60_000 }, async ({ viewport, mode }) => {
    // the palest swatch: its buttons keep their outline on a light page
    const { context, page } = await openAsGuest(browser, t.baseUrl, viewport, { mode, color: "200 20% 90%" });
    try {
      await openSettings(page);
      expect(await dark(page)).toBe(mode === "dark");
      // the whole page: the switches and their lines are below the colour grid
      await page.screenshot({ path: `${ARTIFACTS}/settings-${mode}-${viewport.width}.png`, fullPage: true });
      await page.getByRole("button", { name: "Back" }).click();
      await openGame(page, "dice");
      await setAmount(page, stakeOf(caseOf("dice")));
      const toast = page.getByTestId("toast").waitFor();
      await caseOf("dice").play(page);
      await settled(page);
      await toast;
      await shot(page, `dice-toast-${mode}-${viewport.width}`);
      await backToLobby(page);
    } finally {
      await context.close();
    }
  });
});
