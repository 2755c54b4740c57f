import { describe, expect, it } from "vitest";
import { formatMultiplier, formatNet, netCoinsText } from "@casino/common/format";
import {
  history,
  openAsGuest,
  openGame,
  press,
  revealed,
  setAmount,
  settled,
  shownResult,
  sidewaysScroll,
  type Table,
} from "./games-helpers";
import { DESKTOP } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * One honest number per round (issue 31), in real Chromium against the real server: a dice round of 10
 * coins at 1.98× (under 50) pays 19 or 20 when it wins, and the header's change chip, the result line,
 * the toast and the round's rows in "My bets" and "Your bets" all tell the same signed net figure (payout
 * − stake: +9, +10 or -10), never the gross payout; My bets shows the bet's own multiplier, 1.98×,
 * and what was paid apart. The page records every chip and toast it shows (a MutationObserver: the chip
 * lasts 2 s, a loss's toast 2 s), so no check rests on a timing.
 */
const { server: t, browser } = setupBrowserApp();

interface Seen {
  chips: { text: string; kind: string }[];
  toasts: string[];
}

/** Starts recording the header's chips and the toasts from now on. */
async function watch(page: Table): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __seen: Seen; __seenWatch?: MutationObserver };
    w.__seenWatch?.disconnect();
    w.__seen = { chips: [], toasts: [] };
    const known = new Set<Element>(document.querySelectorAll('[data-testid="balance-delta"], [data-testid="toast"]'));
    const look = () => {
      for (const el of document.querySelectorAll<HTMLElement>('[data-testid="balance-delta"], [data-testid="toast"]')) {
        if (known.has(el) || !el.textContent) continue;
        known.add(el);
        if (el.dataset.testid === "toast") w.__seen.toasts.push(el.textContent);
        else w.__seen.chips.push({ text: el.textContent, kind: el.dataset.kind ?? "" });
      }
    };
    const observer = new MutationObserver(look);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    w.__seenWatch = observer;
  });
}

const seen = (page: Table) => page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);

describe("a round is told by one net figure", () => {
  it("dice at 10 coins, 1.98×: the chip, the result line, the toast and the history rows agree", { timeout: 120_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await openGame(page, "dice");
      await setAmount(page, 10);
      await page.getByTestId("dice-target").fill("50");
      const outcomes = new Set<string>();
      // play until a win has been checked (one in two): the loss before it is checked the same way
      for (let round = 1; round <= 12 && !outcomes.has("win"); round++) {
        await watch(page);
        await press(page, "bet-button");
        await revealed(page);
        const shown = await shownResult(page);
        const net = shown.payout - shown.stake;
        outcomes.add(shown.result);
        expect(shown.stake).toBe(10);
        // a win at 1.98× pays 19 or 20: its figure is +9 or +10
        expect([0, 19, 20]).toContain(shown.payout);

        // the result line leads with the figure; a gross amount only as "paid"
        expect(shown.text).toContain(netCoinsText(net));
        if (shown.payout > 0) expect(shown.text).toContain(`paid ${shown.payout}`);
        expect(shown.text).not.toContain(`+${shown.payout} `);

        // the header: the stake when it left, then the round's figure
        await expect.poll(async () => (await seen(page)).chips.find((c) => c.kind === "net"), { timeout: 10_000 }).toBeTruthy();
        const { chips } = await seen(page);
        expect(chips.filter((c) => c.kind === "net").map((c) => c.text)).toEqual([formatNet(net)]);
        // (the stake's chip may be replaced by the figure before it is ever drawn, the reveal being instant)
        for (const c of chips.filter((c) => c.kind !== "net")) expect(c).toEqual({ text: "10 staked", kind: "stake" });

        // the toast
        await expect.poll(async () => (await seen(page)).toasts.length, { timeout: 10_000 }).toBeGreaterThan(0);
        const [toast] = (await seen(page)).toasts;
        expect(toast).toContain(netCoinsText(net));

        // My bets: the bet's multiplier, what was paid and the figure, as the server recorded the round
        const row = page.getByTestId("my-bets").getByTestId("my-bet-row").first();
        const [recorded] = await history(t.baseUrl, await session());
        expect(recorded).toMatchObject({ gameType: "dice", betAmount: 10, payout: shown.payout });
        await expect.poll(() => row.getByTestId("my-bet-net").textContent(), { timeout: 10_000 }).toBe(formatNet(net));
        expect(await row.getByTestId("my-bet-paid").textContent()).toBe(String(shown.payout));
        expect(await row.textContent()).toContain(formatMultiplier(1.98));
        // Your bets: the same figure
        const feed = page.getByTestId("live-feed").getByTestId("feed-row").first();
        await expect.poll(() => feed.getByTestId("feed-row-net").textContent(), { timeout: 10_000 }).toBe(formatNet(net));
        expect(await feed.textContent()).toContain(formatMultiplier(1.98));
        await settled(page);
      }
      expect([...outcomes]).toContain("win");
      // My bets' columns (multiplier, paid and net apart) fit a phone's width
      await page.setViewportSize({ width: 360, height: 640 });
      // (the page lays itself out again for the new width: waited for)
      await expect.poll(() => sidewaysScroll(page), { timeout: 10_000 }).toEqual([]);
      const myBets = page.getByTestId("my-bets");
      await expect.poll(() => myBets.evaluate((el) => el.getBoundingClientRect().right <= innerWidth), { timeout: 10_000 }).toBe(true);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});
