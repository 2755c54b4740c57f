import { describe, expect, it } from "vitest";
import { gameDefinition } from "@casino/common/catalogue";
import { backToLobby, openAsGuest, openGame, serverBalance, setAmount, settled, shownBalance, type Table } from "./games-helpers";
import { CASES, stakeOf } from "./games-cases";
import { DESKTOP } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * Nothing on the page tells a round's outcome before its table does (issue: honest play, item 3), for
 * every chance game, played with its reveal animating (Turbo off, animations on) in real Chromium
 * against the real server. A MutationObserver notes when each sign of the outcome first appears: the
 * table's result, the round's row in "My bets" and in "Your bets", the header's gain (its "+" badge, or
 * its balance going back up after the stake left it), the round's toast, a blackjack hand's result word
 * and the dealer's total. Every other sign must come no earlier than the table's result (the same
 * mutation at the earliest), the dealer's total never shows beside a face-down card, and no hand's
 * total shows while one of its cards is still on its way (nearly transparent).
 */
const { server: t, browser } = setupBrowserApp({ animations: true });

interface Watch {
  /** when each sign first appeared (performance.now()) */
  first: Record<string, number>;
  /** the header's balance when the watch began */
  base: number;
  /** the lowest balance the header has shown since */
  low: number;
  /** the game's title, as "Your bets" names it */
  title: string;
  /** the dealer's total was seen beside a face-down card */
  totalOverHoleCard: boolean;
  /** a hand's total was seen while one of its cards was still on its way (nearly transparent) */
  totalBeforeCards: string | null;
}

/** Runs in the page: starts noting the signs of the next round's outcome. */
function startWatch(title: string): void {
  const w = window as unknown as { __watch?: Watch; __observer?: MutationObserver };
  w.__observer?.disconnect();
  const balance = () => Number((document.querySelector('[data-testid="balance"]')?.textContent ?? "").replace(/[^\d-]/g, ""));
  const watch: Watch = { first: {}, base: balance(), low: balance(), title, totalOverHoleCard: false, totalBeforeCards: null };
  w.__watch = watch;
  // the toast of the round before may still be on screen
  const earlierToasts = new Set(document.querySelectorAll('[data-testid="toast"]'));
  const check = () => {
    const now = performance.now();
    const mark = (sign: string, seen: boolean) => {
      if (seen && !(sign in watch.first)) watch.first[sign] = now;
    };
    mark("table result", !!document.querySelector('[data-testid="round-result"]'));
    mark("My bets row", !!document.querySelector('[data-testid="my-bets"] [data-testid="my-bet-row"]'));
    const feedRow = document.querySelector('[data-testid="live-feed"] [data-testid="feed-row"]');
    mark("Your bets row", (feedRow?.textContent ?? "").startsWith(watch.title));
    mark("header gain badge", (document.querySelector('[data-testid="balance-delta"]')?.textContent ?? "").startsWith("+"));
    // the round's net figure, a loss's too
    mark("header net figure", !!document.querySelector('[data-testid="balance-delta"][data-kind="net"]'));
    const value = balance();
    watch.low = Math.min(watch.low, value);
    mark("header balance up", value > watch.low);
    const toasts = [...document.querySelectorAll('[data-testid="toast"]')]
      .filter((el) => !earlierToasts.has(el))
      .map((el) => el.textContent ?? "");
    mark(
      "round toast",
      toasts.some((text) => /You won!|Better luck next time/.test(text)),
    );
    mark("hand result word", !!document.querySelector('[data-testid="bj-hand-result"]'));
    const dealerTotal = !!document.querySelector('[data-testid="bj-dealer-total"]');
    mark("dealer total", dealerTotal);
    if (dealerTotal && document.querySelector('[data-testid="bj-dealer"] [aria-label="face-down card"]')) watch.totalOverHoleCard = true;
    for (const hand of document.querySelectorAll("[data-hand]")) {
      const total = hand.querySelector("[data-hand-total]");
      const cards = [...hand.querySelectorAll('[role="img"]')];
      if (total && !watch.totalBeforeCards && cards.some((card) => Number(getComputedStyle(card).opacity) < 0.4)) {
        watch.totalBeforeCards = total.textContent;
      }
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  w.__observer = observer;
}

const watched = (page: Table) => page.evaluate(() => (window as unknown as { __watch: Watch }).__watch);

describe("no spoilers", () => {
  it("in every chance game, the table shows the result before anything else tells it", { timeout: 300_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      expect(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches)).toBe(false);
      for (const game of CASES) {
        await openGame(page, game.id);
        expect(await page.getByTestId("turbo-toggle").getAttribute("aria-checked"), "Turbo").toBe("false");
        await setAmount(page, stakeOf(game));
        await page.evaluate(startWatch, gameDefinition(game.id)!.title);
        await game.play(page);
        await settled(page);
        // the round is released everywhere: its rows are listed and the header shows the server's balance
        await page.getByTestId("round-result").waitFor({ timeout: 30_000 });
        await page.getByTestId("my-bets").getByTestId("my-bet-row").first().waitFor({ timeout: 15_000 });
        await page.waitForFunction(() => "Your bets row" in (window as unknown as { __watch: Watch }).__watch.first, undefined, {
          timeout: 15_000,
        });
        const balance = await serverBalance(t.baseUrl, await session());
        await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);

        const watch = await watched(page);
        const result = watch.first["table result"]!;
        expect(result, `${game.id}: the table's result`).toBeGreaterThan(0);
        const early = Object.entries(watch.first)
          .filter(([, at]) => at < result)
          .map(([sign, at]) => `${sign} ${Math.round(result - at)} ms before the table's result`);
        expect(early, `${game.id}: ${JSON.stringify(watch.first)}`).toEqual([]);
        expect(watch.first, game.id).toHaveProperty("My bets row");
        expect(watch.totalOverHoleCard, `${game.id}: the dealer's total beside a face-down card`).toBe(false);
        expect(watch.totalBeforeCards, `${game.id}: a hand's total before its cards landed`).toBeNull();
        await backToLobby(page);
      }
      expect(errors, "page errors").toEqual([]);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});
