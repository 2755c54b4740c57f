import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { STARTING_BALANCE } from "@casino/common/constants";
import { minBetFor } from "@casino/common/games/min-bet";
import { startTestApp, type TestApp } from "../../server/test/harness";
import { history, launchChromium, openAsGuest, openGame, press, serverBalance, setAmount, settled, shownBalance } from "./games-helpers";

/**
 * Refusals as a player sees them: what the bet panel refuses before sending (with the reason under the
 * field) and what the server refuses (its message, shown the same way). The server here allows one bet
 * a second (bursts of two), so its rate limit can be reached by clicking.
 */
let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp({ CLIENT_DIST: "client/dist", BET_RATE_PER_SECOND: "1" });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("refusals shown in the bet panel", () => {
  it("insufficient funds, amounts below the minimum and targets the engine refuses never leave the page", { timeout: 60_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "dice");
      const error = page.getByTestId("bet-error");
      const bet = page.getByTestId("bet-button");
      const refused = async (amount: string, message: string) => {
        await page.getByTestId("bet-amount").fill(amount);
        await expect.poll(() => error.textContent()).toBe(message);
        expect(await bet.isDisabled()).toBe(true);
        // neither the button nor the Space hotkey sends it
        await page.locator("body").press("Space");
      };
      // the table opens on under 50: the minimum is that bet's
      const atHalf = minBetFor("dice", { target: 50, direction: "under" });
      await refused("5000", "Insufficient balance");
      await refused("0", `The minimum bet is ${atHalf} coins`);
      await refused(String(atHalf - 1), `The minimum bet is ${atHalf} coins`);
      await refused("2.5", "Bets are whole coins");
      await refused("", "Enter a bet amount in coins");
      await refused("abc", "Enter a bet amount in coins");

      // the dice target the issue found offered: 99.5 % under is refused by the engine itself
      await setAmount(page, atHalf);
      await page.getByTestId("dice-target").fill("99.5");
      await expect.poll(() => error.textContent()).toBe("win chance must be between 0.01 % and 98 %");
      expect(await bet.isDisabled()).toBe(true);
      await page.getByTestId("dice-target").fill("50");
      await expect.poll(() => error.textContent()).toBe("");

      // ½ / 2x / Max and their hotkeys stay within the balance
      await page.getByTestId("bet-max").click();
      expect(await page.getByTestId("bet-amount").inputValue()).toBe(String(STARTING_BALANCE));
      await page.getByTestId("bet-half").click();
      expect(await page.getByTestId("bet-amount").inputValue()).toBe(String(STARTING_BALANCE / 2));
      await page.getByTestId("bet-double").click();
      await page.getByTestId("bet-double").click();
      expect(await page.getByTestId("bet-amount").inputValue()).toBe(String(STARTING_BALANCE));
      await page.locator("body").press("s");
      expect(await page.getByTestId("bet-amount").inputValue()).toBe(String(STARTING_BALANCE / 2));
      await page.locator("body").press("d");
      expect(await page.getByTestId("bet-amount").inputValue()).toBe(String(STARTING_BALANCE));
      await page.locator("body").press("?");
      await page.getByTestId("hotkeys-overlay").waitFor();
      await page.keyboard.press("Escape");
      await page.getByTestId("hotkeys-overlay").waitFor({ state: "detached" });

      const s = await session();
      expect(await history(t.baseUrl, s)).toEqual([]);
      expect(await serverBalance(t.baseUrl, s)).toBe(STARTING_BALANCE);
    } finally {
      await context.close();
    }
  });

  it(
    "the minimum is the configured bet's: it follows the target, and the server takes what the panel offers",
    { timeout: 60_000 },
    async () => {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      try {
        await openGame(page, "dice");
        const error = page.getByTestId("bet-error");
        const bet = page.getByTestId("bet-button");
        const shownMinimum = async () => Number(await page.getByTestId("bet-min").getAttribute("data-value"));
        const half = minBetFor("dice", { target: 50, direction: "under" });
        // the target where the game's strictest minimum applies, and one whose minimum is 1
        const strictTarget = Array.from({ length: 9800 }, (_, i) => (i + 1) / 100).find(
          (target) => minBetFor("dice", { target, direction: "under" }) === minBetFor("dice"),
        )!;
        expect(half).toBeLessThan(minBetFor("dice"));

        await page.getByTestId("dice-target").fill("50");
        await expect.poll(shownMinimum).toBe(half);
        await page.getByTestId("bet-amount").fill(String(half - 1));
        await expect.poll(() => error.textContent()).toBe(`The minimum bet is ${half} coins`);
        expect(await bet.isDisabled()).toBe(true);

        // 50 coins at 50 %: above this bet's minimum, below the game's strictest one, taken by the server
        await setAmount(page, 50);
        await expect.poll(() => error.textContent()).toBe("");
        await press(page, "bet-button");
        // and the minimum itself
        await setAmount(page, half);
        await expect.poll(() => error.textContent()).toBe("");
        await press(page, "bet-button");
        const s = await session();
        const rounds = await history(t.baseUrl, s);
        expect(rounds.map((r) => [r.betAmount, r.params.target, r.params.direction])).toEqual([
          [half, 50, "under"],
          [50, 50, "under"],
        ]);
        expect(await serverBalance(t.baseUrl, s)).toBe(STARTING_BALANCE + rounds.reduce((sum, r) => sum + r.payout - r.betAmount, 0));

        // a target with a stricter minimum: the shown minimum and the error follow it, and the bet is held back
        await page.getByTestId("dice-target").fill(String(strictTarget));
        await expect.poll(shownMinimum).toBe(minBetFor("dice"));
        await expect.poll(() => error.textContent()).toBe(`The minimum bet is ${minBetFor("dice")} coins`);
        expect(await bet.isDisabled()).toBe(true);
        await page.screenshot({ path: "test-artifacts/games-refusal-minimum.png" });
        // ½ stays at this bet's minimum
        await page.getByTestId("bet-half").click();
        expect(await page.getByTestId("bet-amount").inputValue()).toBe(String(minBetFor("dice")));
        await page.getByTestId("dice-target").fill("50");
        await expect.poll(() => error.textContent()).toBe("");
        expect(await history(t.baseUrl, s)).toHaveLength(2);
      } finally {
        await context.close();
      }
      await t.expectLedgerInvariant();
    },
  );

  it("the server's rate limit is shown with its message, and nothing moves for a refused bet", { timeout: 60_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "dice");
      // the smallest stake the table takes, on a 98 % chance: the balance outlasts the burst
      await setAmount(page, minBetFor("dice"));
      await page.getByTestId("dice-target").fill("98");
      const error = page.getByTestId("bet-error");
      let accepted = 0;
      for (let i = 0; i < 20; i++) {
        await press(page, "bet-button");
        if ((await error.textContent()) === "Too many bets; slow down a little") break;
        accepted += 1;
      }
      expect(await error.textContent()).toBe("Too many bets; slow down a little");
      const s = await session();
      const rounds = await history(t.baseUrl, s);
      expect(rounds).toHaveLength(accepted);
      const balance = await serverBalance(t.baseUrl, s);
      expect(balance).toBe(STARTING_BALANCE + rounds.reduce((sum, r) => sum + r.payout - r.betAmount, 0));
      await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
      await page.screenshot({ path: "test-artifacts/games-refusal-rate-limit.png" });

      // auto-bet stops at the first refusal; the table's count is the server's
      await page.getByTestId("mode-auto").click();
      await page.getByTestId("auto-count").fill("20");
      await page.getByTestId("auto-start").click();
      await page.getByTestId("auto-status").waitFor({ timeout: 30_000 });
      await settled(page);
      expect(await page.getByTestId("auto-status").textContent()).toBe("Stopped: the bet was refused");
      expect(await error.textContent()).toBe("Too many bets; slow down a little");
      const played = Number((await page.getByTestId("auto-played").count()) ? await page.getByTestId("auto-played").textContent() : 0);
      expect(played).toBeLessThan(20);
      expect(await history(t.baseUrl, s)).toHaveLength(accepted + played);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});
