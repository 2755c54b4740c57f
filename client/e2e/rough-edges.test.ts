import { describe, expect, it } from "vitest";
import { coveredNumbers, type RouletteBet } from "@casino/common/games/roulette/engine";
import { winningOdds, type SicBoBet } from "@casino/common/games/sic-bo/engine";
import { RTP_TABLE } from "@casino/common/rtp-table";
import { caseOf, playFirstRound, stakeOf } from "./games-cases";
import { attr, openAsGuest, openGame, press, revealed, setAmount, shownResult } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * What a settled round shows, against the server's outcome: every mine and gem of a mines round, the
 * areas of sic bo and roulette that the outcome won (bet on or not), the words for a multi-bet round
 * that breaks even, and a max payout that names the table limit instead of an absurd multiplier.
 */
const { server: t, browser } = setupBrowserApp();

/** A layout spot's bet, read back from its test id ("sicbo-total-10", "roulette-dozen-2"). */
function spotOf(testId: string, prefix: string): { type: string; value?: number; numbers?: number[] } {
  const [type, ...rest] = testId.slice(prefix.length).split("-");
  const nums = rest.map(Number);
  if (type === "combination" || type === "straight" || (nums.length > 1 && type !== "dozen" && type !== "column"))
    return { type: type!, numbers: nums };
  return nums.length === 1 ? { type: type!, value: nums[0] } : { type: type! };
}

describe("a settled round shows what happened", () => {
  it("mines: every mine and every gem is shown, fully opaque, once the round is over", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      const round = await playFirstRound(page, caseOf("mines"), t.baseUrl, await session());
      await revealed(page);
      const tiles = await page.locator('[data-testid^="mines-tile-"]').evaluateAll((els) =>
        els.map((el) => {
          let opacity = 1;
          const icon = el.querySelector("svg");
          for (let node: Element | null = icon; node && node !== el.parentElement; node = node.parentElement)
            opacity *= Number(getComputedStyle(node).opacity);
          return { tile: Number(el.getAttribute("data-testid")!.slice(11)), state: el.getAttribute("data-state"), icon: !!icon, opacity };
        }),
      );
      const mines: number[] = round.outcome.mines;
      expect(tiles).toHaveLength(25);
      for (const t of tiles) {
        const expected = mines.includes(t.tile) ? "mine" : round.outcome.revealed.includes(t.tile) ? "gem" : "gem-missed";
        expect(t, `tile ${t.tile}`).toMatchObject({ state: expected, icon: true, opacity: 1 });
      }
    } finally {
      await context.close();
    }
  });

  it("sic bo: every area the dice won lights up with a tick, and no other", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      const round = await playFirstRound(page, caseOf("sic-bo"), t.baseUrl, await session());
      await revealed(page);
      const dice: number[] = round.outcome.dice;
      const spots = await page.locator('button[data-testid^="sicbo-"][data-won]').evaluateAll((els) =>
        els.map((e) => ({
          id: e.getAttribute("data-testid")!,
          won: e.getAttribute("data-won") === "true",
          ticks: e.querySelectorAll('[data-testid="won-mark"]').length,
        })),
      );
      expect(spots).toHaveLength(50);
      for (const s of spots) {
        const expected = winningOdds({ ...spotOf(s.id, "sicbo-"), amount: 1 } as SicBoBet, dice) !== undefined;
        expect({ id: s.id, won: s.won, ticks: s.ticks }).toEqual({ id: s.id, won: expected, ticks: expected ? 1 : 0 });
      }
      expect(spots.some((s) => s.won)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("roulette: the pocket's number and every outside area it wins light up, and no other", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      const round = await playFirstRound(page, caseOf("roulette"), t.baseUrl, await session());
      await revealed(page);
      const pocket: number = round.outcome.pocket;
      const spots = await page
        .locator('button[data-testid^="roulette-"][data-won]')
        .evaluateAll((els) => els.map((e) => ({ id: e.getAttribute("data-testid")!, won: e.getAttribute("data-won") === "true" })));
      // 37 numbers, 3 columns, 3 dozens, 6 even-money areas
      expect(spots).toHaveLength(49);
      for (const s of spots) {
        const expected = coveredNumbers({ ...spotOf(s.id, "roulette-"), amount: 1 } as RouletteBet).includes(pocket);
        expect(s).toEqual({ id: s.id, won: expected });
      }
      expect(await attr(page, `roulette-straight-${pocket}`, "data-won")).toBe("true");
    } finally {
      await context.close();
    }
  });

  it("roulette: red and black on one spin that misses zero is a break-even, not a push of one bet", { timeout: 120_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "roulette");
      await setAmount(page, stakeOf({ id: "roulette", amount: 1 }));
      await page.getByTestId("roulette-red").click();
      await page.getByTestId("roulette-black").click();
      // zero takes both (1 in 37): spin again until a pocket pays one of the two
      for (let spin = 0; spin < 6; spin++) {
        await press(page, "bet-button");
        const shown = await shownResult(page);
        if ((await attr(page, "roulette-pocket", "data-value")) === "0") continue;
        expect(shown.result).toBe("push");
        expect(shown.payout).toBe(shown.stake);
        expect(shown.text).toMatch(/^Break even: 0 coins, your bets paid back the [\d,]+ staked/);
        expect(shown.text).not.toContain("Push");
        return;
      }
      throw new Error("six spins in a row landed on zero");
    } finally {
      await context.close();
    }
  });

  it(
    "hi-lo: a max payout at the table limit says so, without a multiplier, and its exact return stands for a win chance; an ordinary one keeps it",
    { timeout: 60_000 },
    async () => {
      const { context, page } = await openAsGuest(browser, t.baseUrl);
      try {
        await openGame(page, "hi-lo");
        await setAmount(page, stakeOf({ id: "hi-lo", amount: 10 }));
        await expect.poll(() => page.getByTestId("bet-payout").textContent()).toBe("100,000,000 (the table limit)");
        // its chance of a win depends on when the player cashes out: the panel gives its exact return instead
        expect(await page.getByTestId("bet-chance").textContent()).toBe(`${(RTP_TABLE["hi-lo"]![0]!.rtp * 100).toFixed(2)} %`);
        await page.getByRole("button", { name: "Back to Lobby" }).click();
        await openGame(page, "blackjack");
        await expect.poll(() => page.getByTestId("bet-chance").textContent()).toBe("99.59 %");
        await page.getByRole("button", { name: "Back to Lobby" }).click();
        await openGame(page, "dice");
        await page.getByTestId("dice-target").fill("50");
        await expect
          .poll(() => page.getByTestId("bet-payout").textContent())
          .toMatch(/^[\d,]+(\.\d+: pays [\d,]+ or [\d,]+, [\d,.]+ on average)? \(\d{1,3}(,\d{3})*\.\d{2}×\)$/);
      } finally {
        await context.close();
      }
    },
  );
});
