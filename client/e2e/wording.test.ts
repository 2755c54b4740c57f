import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { CHANCE_GAMES, stakeOf } from "./games-cases";
import { backToLobby, openAsGuest, openGame, press, roundDone, setAmount } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * What a new player reads at the tables, in real Chromium against the real server: craps and slots
 * explain themselves in plain words (no dealer's shorthand such as "staged" chips, "d.come" or "bar
 * 12"), and no bet panel says a figure "depends on play" where the true one is known.
 */
const { server: t, browser } = setupBrowserApp();

const PHONE = { width: 390, height: 844 };
/** Dealer's shorthand a new player does not know, once on the craps and slots tables. */
const JARGON = [/\bstaged\b/i, /\bd\.come\b/i, /\bbar 12\b/i, /≤/, /\bstops\b/i, /pays for 1/i];

const shownText = (page: Page) => page.locator("main").innerText();
const jargonIn = (text: string) => JARGON.filter((word) => word.test(text)).map(String);

async function rulesText(page: Page): Promise<string> {
  await page.getByTestId("help-button").click();
  const help = page.getByTestId("help-dialog");
  await help.waitFor();
  const text = await help.innerText();
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "detached" });
  return text;
}

describe("plain words at the tables", () => {
  it("craps names its bets, buttons and point in plain words, in its rules too", { timeout: 120_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      await openGame(page, "craps");
      await setAmount(page, stakeOf({ id: "craps", amount: 5 }));
      expect(await page.getByTestId("craps-point").textContent()).toBe("No point yet");
      expect(await page.getByTestId("craps-dontPass").innerText()).toMatch(/DON.T PASS\s+12 pushes/);
      const rules = await rulesText(page);
      expect(rules).toContain("Tap a bet on the table to put a chip on it");
      expect(rules).toContain("12 is a push: your bet comes back");
      expect(jargonIn(rules), "shorthand in the rules").toEqual([]);

      // a round that stays open: a chip staged mid-round, and the buttons that send or take it back
      for (let round = 0; round < 20 && (await page.getByTestId("bet-panel").getAttribute("data-locked")) !== "true"; round++) {
        await page.getByTestId("craps-place-6").click();
        await press(page, "bet-button");
        if (!(await roundDone(page))) break;
      }
      expect(await page.getByTestId("bet-panel").getAttribute("data-locked")).toBe("true");
      const point = await page.getByTestId("craps-puck").getAttribute("data-point");
      expect(await page.getByTestId("craps-point").textContent()).toBe(point ? `The point is ${point}` : "No point yet");
      await page.getByTestId("craps-field").click();
      expect(await page.getByTestId("craps-place").textContent()).toBe("Bet without rolling");
      expect(await page.getByTestId("craps-clear").textContent()).toBe("Take back new chips");
      expect(await page.getByTestId("craps-field").locator("[title]").getAttribute("title")).toBe(
        "your new chip: it goes on the table with your next roll",
      );
      expect(jargonIn(await shownText(page)), "shorthand on the table").toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("slots says which row pays and how much, in its rules and pay table", { timeout: 60_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      await openGame(page, "slots");
      const rules = await rulesText(page);
      expect(rules).toContain("Only the middle row counts");
      expect(rules).toContain("two cherries pay 4.00×, so a 10-coin bet gives back 40 coins");
      expect(rules).toContain("Bet times");
      expect(jargonIn(rules), "shorthand in the rules").toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("no chance game's bet panel says a figure depends on play", { timeout: 180_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl);
    try {
      for (const id of CHANCE_GAMES) {
        await openGame(page, id);
        await page.getByTestId("bet-panel").waitFor();
        expect(await shownText(page), id).not.toMatch(/depends on play/i);
        await backToLobby(page);
      }
    } finally {
      await context.close();
    }
  });
});
