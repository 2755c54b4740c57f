import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { caseOf, stakeOf } from "./games-cases";
import { backToLobby, openAsGuest, openGame, roundDone, setAmount, settled } from "./games-helpers";
import { DESKTOP, PHONE, shot } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * The game-end toast stays out of the way: in real Chromium against the real server, a round of dice,
 * mines, coin flip and crash (its Instant tab, under the mode tabs) is played at 360×640, 390×844 and
 * 1280×800, and the toast that tells its result is measured the moment it appears: it sits inside the
 * game's header and its box meets no control of the page (every button, input, tab and switch but its
 * own) and nothing of the game's table (the felt, the result, the bet panel). A setting turns these
 * toasts off; they are on by default.
 */
const { server: t, browser } = setupBrowserApp();

const VIEWPORTS = [{ width: 360, height: 640 }, PHONE, DESKTOP];
const GAMES = ["dice", "mines", "coin-flip", "crash"];

interface Measured {
  toast: string;
  inHeader: boolean;
  /** what the toast's box meets: controls by their test id or name, the table by its test id */
  covered: string[];
}

/**
 * Starts watching for the next toast and answers, once a new one appears, where it is and what of the page its
 * box meets (measured at once: a loss's toast lasts 2 s). A part of the page scrolled under the sticky
 * header is hidden by the header whatever the toast does, so only what shows below the header counts
 * there.
 */
function nextToast(page: Page): Promise<Measured> {
  return page.evaluate(
    () =>
      new Promise<Measured>((resolve) => {
        const measure = (toast: Element): Measured => {
          const b = toast.getBoundingClientRect();
          const header = document.querySelector("header")!.getBoundingClientRect();
          const meets = (el: Element) => {
            const r = el.getBoundingClientRect();
            const top = el.closest("header") ? r.top : Math.max(r.top, header.bottom);
            return r.width > 0 && r.height > 0 && r.left < b.right && r.right > b.left && top < b.bottom && r.bottom > b.top;
          };
          const controls = [
            ...document.querySelectorAll<HTMLElement>(
              "button, a[href], input:not([type='hidden']), select, textarea, [role='button'], [role='tab'], [role='switch'], [role='checkbox'], [role='radio'], [role='slider']",
            ),
          ].filter((el) => !el.closest('[data-testid="toast"]') && getComputedStyle(el).visibility !== "hidden");
          const table = [...document.querySelectorAll('[data-testid^="table-"], [data-testid="game-felt"], [data-testid="round-slot"]')];
          return {
            toast: toast.textContent ?? "",
            inHeader: b.top >= header.top && b.bottom <= header.bottom && b.height > 0,
            covered: [...controls, ...table]
              .filter(meets)
              .map((el) => (el as HTMLElement).dataset.testid ?? el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.tagName),
          };
        };
        // a toast still on screen from before is not the one awaited (each toast is an element of its own)
        const found = () => document.querySelector('[data-testid="toast"]');
        const before = found();
        // the round's result toast: another toast (a tag the round unlocked, say) may come before it
        const watch = new MutationObserver(() => {
          const toast = found();
          if (!toast || toast === before || !/You won!|Better luck next time/.test(toast.textContent ?? "")) return;
          watch.disconnect();
          resolve(measure(toast));
        });
        watch.observe(document.body, { childList: true, subtree: true });
      }),
  );
}

/** Plays one round of `id` with its driver, until the table is idle again. */
async function playRound(page: Page, id: string): Promise<void> {
  const game = caseOf(id);
  await setAmount(page, stakeOf(game));
  await game.play(page);
  await settled(page);
}

describe("the game-end toast", () => {
  it.each(VIEWPORTS)(
    "$width×$height: shows in the game's header and covers no control and nothing of the table (dice, mines, coin flip, crash)",
    { timeout: 180_000 },
    async (viewport) => {
      const { context, page } = await openAsGuest(browser, t.baseUrl, viewport);
      try {
        for (const id of GAMES) {
          await openGame(page, id);
          if (id === "crash") await page.getByRole("tab", { name: "Instant" }).waitFor();
          // a win or a loss: every driver's round here pays more or less than its stake, never the stake back
          const toast = nextToast(page);
          await playRound(page, id);
          const measured = await toast;
          const where = `${id} at ${viewport.width}×${viewport.height}`;
          expect(measured.toast, `${where}: the toast`).toMatch(/You won!|Better luck next time/);
          expect(measured.covered, `${where}: what the toast covers`).toEqual([]);
          expect(measured.inHeader, `${where}: the toast inside the header`).toBe(true);
          await shot(page, `result-toast-${id}-${viewport.width}`);
          await backToLobby(page);
          await page.getByTestId("lobby-heading").waitFor();
        }
      } finally {
        await context.close();
      }
    },
  );

  it("is on by default, and the Result toasts switch in Settings turns it off", { timeout: 120_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      await openGame(page, "dice");
      const toast = nextToast(page);
      await playRound(page, "dice");
      expect((await toast).toast).toMatch(/You won!|Better luck next time/);
      // dismissed, so every result toast from here on is a new one (a tag the round unlocked may show its own)
      const result = page.getByTestId("toast").filter({ hasText: /You won!|Better luck next time/ });
      await result.getByRole("button", { name: "Dismiss" }).click();
      await result.waitFor({ state: "detached" });
      await backToLobby(page);

      await page.getByRole("link", { name: "Settings" }).click();
      const toggle = page.getByRole("switch", { name: "Result toasts" });
      expect(await toggle.getAttribute("aria-checked")).toBe("true");
      await toggle.click();
      expect(await toggle.getAttribute("aria-checked")).toBe("false");
      await page.getByRole("button", { name: "Back" }).click();
      await page.getByTestId("lobby-heading").waitFor();

      for (const id of ["dice", "coin-flip"]) {
        await openGame(page, id);
        // every result toast that comes (other toasts, such as a tag unlocked by the first round, may)
        await page.evaluate(() => {
          const w = window as unknown as { toasts: string[] };
          w.toasts = [];
          const seen = new WeakSet<Element>();
          new MutationObserver(() => {
            for (const toast of document.querySelectorAll('[data-testid="toast"]')) {
              if (seen.has(toast)) continue;
              seen.add(toast);
              if (/You won!|Better luck next time/.test(toast.textContent ?? "")) w.toasts.push(toast.textContent ?? "");
            }
          }).observe(document.body, { childList: true, subtree: true });
        });
        await playRound(page, id);
        // the result shows on the table (its toast, when on, comes in the same update), and no toast came
        await roundDone(page);
        await page.locator('[data-testid="round-slot"][data-round="shown"]').waitFor();
        expect(await page.evaluate(() => (window as unknown as { toasts: string[] }).toasts), `${id}: result toasts shown`).toEqual([]);
        await backToLobby(page);
      }
      // kept on this device
      await page.reload();
      await page.getByTestId("lobby-heading").waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem("play-settings")!).resultToastsOn)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
