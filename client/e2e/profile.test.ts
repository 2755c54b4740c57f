import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { formatCoins, formatNet } from "@casino/common/format";
import { api, backToLobby, history, openAsGuest, openGame, press, revealed, setAmount } from "./games-helpers";
import { DESKTOP, PHONE, shot, storedPlayerId, storedToken } from "./support";
import { setupBrowserApp } from "./browser-app";
import { axeViolations } from "./axe";

/**
 * The profile, in real Chromium against the real server: a guest plays two rounds of dice, then nine
 * of coin flip (so the history runs to a second page of ten). The avatar opens the profile, whose totals are the server's
 * record summed, under the history's filters; its history pages by ten and filters by game; "Rotate seeds to reveal" opens the
 * seeds panel, and once rotated the dice rounds link to the verifier.
 */
const { server: t, browser } = setupBrowserApp();

const FLIPS = 9;

interface Summary {
  rounds: number;
  wagered: number;
  net: number;
  biggestWin: { id: string } | null;
  favouriteGame: { gameType: string; rounds: number } | null;
}

const rows = (page: Page) => page.getByRole("dialog", { name: "Profile" }).getByTestId("my-bet-row");

async function openProfile(page: Page) {
  await page.getByRole("button", { name: "Profile" }).click();
  const dialog = page.getByRole("dialog", { name: "Profile" });
  await dialog.getByTestId("profile-history").or(dialog.getByTestId("profile-history-empty")).waitFor({ timeout: 20_000 });
  return dialog;
}

describe("the profile", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`opens from the avatar with the server's totals, pages and filters its history (${name})`, { timeout: 180_000 }, async () => {
      const { context, page } = await openAsGuest(browser, t.baseUrl, viewport, { mode: "dark" });
      try {
        const s = { playerId: await storedPlayerId(page), token: await storedToken(page) };
        await openGame(page, "dice");
        await setAmount(page, 10);
        await page.getByTestId("dice-target").fill("50");
        for (let round = 0; round < 2; round++) {
          await press(page, "bet-button");
          await revealed(page);
        }
        await backToLobby(page);
        // and more rounds of another game, so that the history runs to a second page
        await openGame(page, "coin-flip");
        await setAmount(page, 5);
        for (let round = 0; round < FLIPS; round++) {
          await press(page, "bet-button");
          await revealed(page);
        }
        await backToLobby(page);

        // the server's record, and its sums
        const record = await history(t.baseUrl, s);
        expect(record).toHaveLength(FLIPS + 2);
        const wagered = record.reduce((sum, r) => sum + r.betAmount, 0);
        const net = record.reduce((sum, r) => sum + r.payout - r.betAmount, 0);
        const summary = await api<Summary>(t.baseUrl, `/api/player/${s.playerId}/summary`, s.token);
        expect(summary).toMatchObject({ rounds: FLIPS + 2, wagered, net, favouriteGame: { gameType: "coin-flip", rounds: FLIPS } });

        const dialog = await openProfile(page);
        await expect.poll(() => dialog.getByTestId("profile-rounds").textContent()).toBe(String(FLIPS + 2));
        expect(await dialog.getByTestId("profile-wagered").textContent()).toBe(formatCoins(wagered));
        expect(await dialog.getByTestId("profile-net").textContent()).toBe(formatNet(net));
        expect(await dialog.getByTestId("profile-favourite").textContent()).toContain("Coin Flip");
        const bestRow = record.find((r) => r.id === summary.biggestWin?.id);
        expect(await dialog.getByTestId("profile-biggest-win").textContent()).toBe(
          bestRow
            ? `${formatNet(bestRow.payout - bestRow.betAmount)} ${bestRow.gameType === "dice" ? "Dice" : "Coin Flip"} not yet revealed`
            : "—",
        );
        await expect.poll(() => dialog.getByTestId("profile-tags-count").textContent()).toMatch(/^\d+ of \d+ unlocked$/);
        expect(await dialog.getByText("The server seed of your current pair is revealed when you rotate your seeds").count()).toBe(1);

        // newest first, ten a page: the flips, then the dice rounds, the older on the second page
        expect(await rows(page).count()).toBe(10);
        expect(await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-game")))).toEqual([
          ...Array<string>(FLIPS).fill("coin-flip"),
          "dice",
        ]);
        // unrevealed yet: each dice row says so, and the dialog says what that means
        expect(await dialog.getByTestId("my-bet-unrevealed").count()).toBe(summary.biggestWin ? 11 : 10);
        // every rule, in the dark theme as the accessibility suite checks them
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `profile-${name}`);
        await dialog.getByTestId("profile-older").click();
        await expect.poll(() => dialog.getByTestId("profile-page").textContent()).toBe("Page 2");
        await expect.poll(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-game")))).toEqual(["dice"]);
        expect(await dialog.getByTestId("profile-older").isDisabled()).toBe(true);
        await dialog.getByTestId("profile-newer").click();
        await expect.poll(() => rows(page).count()).toBe(10);

        // by game: only the dice rounds, on one page
        await dialog.getByTestId("profile-game").selectOption("dice");
        await expect.poll(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-game")))).toEqual(["dice", "dice"]);
        expect(await rows(page).evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-stake"))))).toEqual([10, 10]);
        // and the totals are the dice rounds' alone, as the server sums them under the same filter
        const dice = record.filter((r) => r.gameType === "dice");
        const diceNet = dice.reduce((sum, r) => sum + r.payout - r.betAmount, 0);
        expect(await api<Summary>(t.baseUrl, `/api/player/${s.playerId}/summary?game=dice`, s.token)).toMatchObject({
          rounds: 2,
          wagered: 20,
          net: diceNet,
          favouriteGame: { gameType: "dice", rounds: 2 },
        });
        await expect.poll(() => dialog.getByTestId("profile-rounds").textContent()).toBe("2");
        expect(await dialog.getByTestId("profile-wagered").textContent()).toBe(formatCoins(20));
        expect(await dialog.getByTestId("profile-net").textContent()).toBe(formatNet(diceNet));
        expect(await dialog.getByTestId("profile-favourite").textContent()).toContain("Dice");
        expect(await dialog.getByTestId("profile-totals-scope").textContent()).toContain("match the history's filters");
        await shot(page, `profile-dice-${name}`);
        expect(await dialog.getByTestId("profile-older").isDisabled()).toBe(true);
        await dialog.getByTestId("profile-result").selectOption("push");
        await dialog.getByTestId("profile-history-empty").waitFor();
        await expect.poll(() => dialog.getByTestId("profile-rounds").textContent()).toBe("0");
        expect(await dialog.getByTestId("profile-biggest-win").textContent()).toBe("—");
        await dialog.getByTestId("profile-result").selectOption("");
        await dialog.getByTestId("profile-game").selectOption("");
        // without a filter, every round again: the totals, and the history's first page drawn (the rows
        // arriving after the totals push the button below down, and a press meant for it landed elsewhere)
        await expect.poll(() => dialog.getByTestId("profile-rounds").textContent()).toBe(String(FLIPS + 2));
        expect(await dialog.getByTestId("profile-totals-scope").textContent()).toBe("All your rounds.");
        await expect.poll(() => rows(page).count()).toBe(10);

        // the button that reveals: the seeds panel, rotated; then the dice rounds link to the verifier
        await dialog.getByTestId("profile-rotate").click();
        const seeds = page.getByRole("dialog", { name: "Provably fair seeds" });
        await seeds.getByTestId("seeds-rotate").click();
        await seeds.getByTestId("seeds-revealed").waitFor({ timeout: 20_000 });
        await seeds.getByRole("button", { name: "Close" }).click();
        await seeds.waitFor({ state: "detached" });
        const again = await openProfile(page);
        await again.getByTestId("profile-game").selectOption("dice");
        // the two dice rows, and the biggest dice win's if a dice round won (the totals follow the filter)
        const diceWon = dice.some((r) => r.payout > r.betAmount);
        await expect.poll(() => again.getByTestId("my-bet-verify").count()).toBe(diceWon ? 3 : 2);
        expect(await again.getByTestId("my-bet-unrevealed").count()).toBe(0);
        expect(await again.getByTestId("profile-biggest-win").getByTestId("my-bet-verify").count()).toBe(diceWon ? 1 : 0);
      } finally {
        await context.close();
      }
    });
  }
});
