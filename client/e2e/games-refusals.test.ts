import { describe, expect, it } from "vitest";
import { STARTING_BALANCE } from "@casino/common/constants";
import { history, openAsGuest, openGame, press, revealed, serverBalance, setAmount, settled, shownBalance } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Refusals as a player sees them: what the bet panel refuses before sending (with the reason under the
 * field) and what the server refuses (its message, shown the same way). The rate limit is reached on a
 * server of its own that allows one bet a second (bursts of two); the others bet at the usual rate, so
 * bets in a row are never refused however fast the page places them.
 */
describe("refusals shown in the bet panel", () => {
  const { server: t, browser } = setupBrowserApp();

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
      // every bet takes any stake from 1 coin
      await refused("5000", "Insufficient balance");
      await refused("0", "The minimum bet is 1 coin");
      await refused("2.5", "Bets are whole coins");
      await refused("", "Enter a bet amount in coins");
      await refused("abc", "Enter a bet amount in coins");

      // the dice target the issue found offered: 99.5 % under is refused by the engine itself
      await setAmount(page, 1);
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
    "every bet starts at 1 coin: the panel opens at 10, never shows a minimum above 1, and the server takes and pays 1 coin",
    { timeout: 60_000 },
    async () => {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      try {
        await openGame(page, "dice");
        const error = page.getByTestId("bet-error");
        const shownMinimum = async () => Number(await page.getByTestId("bet-min").getAttribute("data-value"));
        expect(await page.getByTestId("bet-amount").inputValue()).toBe("10");
        // the targets that used to need the largest minimums (98 coins and more) take 1 coin
        for (const target of ["50", "0.01", "1", "98"]) {
          await page.getByTestId("dice-target").fill(target);
          await expect.poll(shownMinimum).toBe(1);
        }
        await page.getByTestId("dice-target").fill("50");
        await setAmount(page, 1);
        await expect.poll(() => error.textContent()).toBe("");
        // ½ stays at 1
        await page.getByTestId("bet-half").click();
        expect(await page.getByTestId("bet-amount").inputValue()).toBe("1");
        for (let i = 0; i < 3; i++) {
          await press(page, "bet-button");
          await settled(page);
          await revealed(page);
        }
        const s = await session();
        const rounds = await history(t.baseUrl, s);
        expect(rounds.map((r) => [r.betAmount, r.params.target, r.params.direction])).toEqual([
          [1, 50, "under"],
          [1, 50, "under"],
          [1, 50, "under"],
        ]);
        // a 1-coin win at 1.98× pays 1 or 2 coins, never nothing
        for (const r of rounds) expect(r.result === "lose" ? r.payout === 0 : [1, 2].includes(r.payout)).toBe(true);
        expect(await serverBalance(t.baseUrl, s)).toBe(STARTING_BALANCE + rounds.reduce((sum, r) => sum + r.payout - r.betAmount, 0));
        await page.screenshot({ path: "test-artifacts/games-one-coin.png" });
      } finally {
        await context.close();
      }
      await t.expectLedgerInvariant();
    },
  );
});

describe("the server's rate limit", () => {
  const { server: t, browser } = setupBrowserApp({ env: { BET_RATE_PER_SECOND: "1" } });

  it("is shown with its message, and nothing moves for a refused bet", { timeout: 60_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "dice");
      // the smallest stake, 1 coin, on a 98 % chance: the balance outlasts the burst
      await setAmount(page, 1);
      await page.getByTestId("dice-target").fill("98");
      const error = page.getByTestId("bet-error");
      // bets until the server refuses one: how many it takes depends on how fast they go, so only the
      // server's record of them is checked
      let accepted = 0;
      for (;;) {
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

      // auto-bet (with no count: until it is stopped) stops at the first refusal; the table's count is the server's
      await page.getByTestId("mode-auto").click();
      await page.getByTestId("auto-count").fill("0");
      await page.getByTestId("auto-start").click();
      await page.getByTestId("auto-status").waitFor({ timeout: 30_000 });
      await settled(page);
      expect(await page.getByTestId("auto-status").textContent()).toBe("Stopped: the bet was refused");
      expect(await error.textContent()).toBe("Too many bets; slow down a little");
      const played = Number((await page.getByTestId("auto-played").count()) ? await page.getByTestId("auto-played").textContent() : 0);
      expect(await history(t.baseUrl, s)).toHaveLength(accepted + played);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});
