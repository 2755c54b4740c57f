import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { GAMES, type GameId } from "@casino/common/catalogue";
import { ENGINES } from "@casino/common/games/registry";
import { caseOf, CHANCE_GAMES, stakeOf } from "./games-cases";
import {
  backToLobby,
  firstEnabled,
  history,
  openAsGuest,
  openGame,
  playOut,
  press,
  settled,
  setAmount,
  sidewaysScroll,
} from "./games-helpers";
import { DESKTOP, layoutShifts, shot } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * Every screen and table on a phone, in real Chromium against the real server: nothing scrolls
 * sideways, the main action is on screen without scrolling, every control is at least 32 px each way,
 * titles are whole, and a toast never covers the action it follows.
 */
const { server: t, browser } = setupBrowserApp();

const PHONES = [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
];
const MIN_TARGET = 32;

/** Whether the element is wholly inside the viewport and is what a tap at its centre reaches. */
const onScreen = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.width > 0;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return inside && !!hit && (hit === el || el.contains(hit));
    });

/**
 * Controls smaller than `MIN_TARGET` in either direction, in the page's header, main area and action
 * bar (links inside running text are exempt, as WCAG's target-size rule allows).
 */
const smallTargets = (page: Page) =>
  page.evaluate((min) => {
    const selector =
      'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], [role="switch"], [role="checkbox"], [role="radio"]';
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (!el.closest('header, main, [data-testid="action-bar"]')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none" || style.display === "inline") continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.width < min - 0.5 || r.height < min - 0.5) {
        small.push(
          `${el.dataset.testid ?? el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 20)} (${Math.round(r.width)}×${Math.round(r.height)})`,
        );
      }
    }
    return small;
  }, MIN_TARGET);

describe("phones", () => {
  it.each(PHONES)(
    "$width×$height: every screen and table fits, a table's main action is on screen, every control is large enough",
    { timeout: 240_000 },
    async (viewport) => {
      const { context, page } = await openAsGuest(browser, t.baseUrl, viewport);
      try {
        expect(await sidewaysScroll(page), "lobby: what scrolls sideways").toEqual([]);
        expect(await smallTargets(page), "lobby: controls under 32 px").toEqual([]);
        for (const game of GAMES) {
          await openGame(page, game.id);
          const where = `${game.id} at ${viewport.width}×${viewport.height}`;
          expect(await sidewaysScroll(page), `${where}: what scrolls sideways`).toEqual([]);
          const action = game.kind === "skill" ? "skill-start" : "bet-button";
          expect(await onScreen(page, action), `${where}: ${action} on screen`).toBe(true);
          // what the player chooses before the first bet is in view with it, not under the action bar
          for (const setting of game.kind === "chance" ? (caseOf(game.id).ownSettings ?? []) : [])
            expect(await onScreen(page, setting), `${where}: ${setting} on screen before the first bet`).toBe(true);
          expect(await smallTargets(page), `${where}: controls under 32 px`).toEqual([]);

          // the title whole (no ellipsis, nothing clipped), and the way back on one line
          const title = page.getByTestId("game-title");
          expect(await title.textContent()).toBe(game.title);
          expect(
            await title.evaluate(
              (el) =>
                el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight && getComputedStyle(el).textOverflow !== "ellipsis",
            ),
            `${where}: title shown whole`,
          ).toBe(true);
          expect(
            (await page.getByTestId("back-to-lobby").boundingBox())!.height,
            `${where}: Back to Lobby on one line`,
          ).toBeLessThanOrEqual(44);
          if (viewport.width === 360) await shot(page, `layout-${game.id}-360`);
          await backToLobby(page);
          await page.getByTestId("lobby-heading").waitFor();
        }
        for (const tab of [/Spin/, /Ranks/]) {
          await page.getByRole("tab", { name: tab }).click();
          expect(await sidewaysScroll(page), `lobby tab ${tab}: what scrolls sideways`).toEqual([]);
          expect(await smallTargets(page), `lobby tab ${tab}: controls under 32 px`).toEqual([]);
        }
        for (const path of ["/settings", "/terms", "/privacy", "/verify"]) {
          await page.goto(`${t.baseUrl}${path}`);
          await page.locator("h1").first().waitFor({ timeout: 20_000 });
          expect(await sidewaysScroll(page), `${path}: what scrolls sideways`).toEqual([]);
          expect(await smallTargets(page), `${path}: controls under 32 px`).toEqual([]);
          if (viewport.width === 360) await shot(page, `layout-${path.slice(1)}-360`);
        }
      } finally {
        await context.close();
      }
    },
  );

  it("360×640: a round's own actions are on screen while it is open", { timeout: 180_000 }, async () => {
    // every game whose round takes actions, left open: what its driver presses before the bet, and the actions that end its round
    const rounds = CHANCE_GAMES.filter((id) => ENGINES[id as GameId]!.act).map((id) => {
      const open = caseOf(id).openRound;
      if (!open) throw new Error(`${id}: its round takes actions, and its driver (games/${id}.ts) has no openRound`);
      return { id, ...open };
    });
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONES[0]);
    try {
      for (const round of rounds) {
        await openGame(page, round.id);
        await setAmount(page, stakeOf({ id: round.id, amount: 5 }));
        for (const spot of round.before) await page.getByTestId(spot).click();
        await press(page, "bet-button");
        if ((await page.getByTestId("bet-panel").getAttribute("data-locked")) === "true") {
          const actions = await page
            .locator('[data-testid="action-bar"] button:enabled')
            .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!));
          actions.push(...(round.onTable ?? []));
          expect(actions.length, `${round.id}: actions offered`).toBeGreaterThan(0);
          for (const action of actions) expect(await onScreen(page, action), `${round.id}: ${action} on screen`).toBe(true);
          // finish the round so the next table is free
          await playOut(page, firstEnabled(page, round.finish));
        }
        await settled(page);
        await backToLobby(page);
        await page.getByTestId("lobby-heading").waitFor();
      }
    } finally {
      await context.close();
    }
  });

  it.each([{ viewport: PHONES[1] }, { viewport: DESKTOP }])(
    "$viewport.width px: the result toast covers no control of the page (blackjack, video poker)",
    { timeout: 120_000 },
    async ({ viewport }) => {
      const { context, page } = await openAsGuest(browser, t.baseUrl, viewport);
      try {
        for (const id of ["blackjack", "video-poker"]) {
          await openGame(page, id);
          const game = caseOf(id);
          await setAmount(page, stakeOf(game));
          await game.play(page);
          const toast = page.getByTestId("toast");
          await toast.waitFor({ timeout: 15_000 });
          // every control in view (the header's, the table's, the panel's, the action bar's) but the toast's own
          const covered = await page.evaluate(() => {
            const b = document.querySelector('[data-testid="toast"]')!.getBoundingClientRect();
            return [...document.querySelectorAll<HTMLElement>("button, a[href], input, select, [role='button'], [role='switch']")]
              .filter((el) => !el.closest('[data-testid="toast"]'))
              .map((el) => ({ id: el.dataset.testid ?? el.getAttribute("aria-label") ?? el.textContent, r: el.getBoundingClientRect() }))
              .filter(({ r }) => r.width > 0 && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top)
              .map(({ id }) => id);
          });
          expect(covered, `${id} at ${viewport.width} px: controls under the toast`).toEqual([]);
          await shot(page, `layout-toast-${id}-${viewport.width}`);
          await backToLobby(page);
          await page.getByTestId("lobby-heading").waitFor();
        }
      } finally {
        await context.close();
      }
    },
  );

  it("360×640: roulette upright, bets between numbers chosen from a list, and the server takes them", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, PHONES[0]);
    try {
      await openGame(page, "roulette");
      await page.getByTestId("roulette-upright").waitFor();
      const chip = stakeOf({ id: "roulette", amount: 1 });
      await setAmount(page, chip);
      await page.getByTestId("roulette-straight-17").click();
      await page.getByTestId("roulette-pick-kind").selectOption("split");
      await page.getByTestId("roulette-straight-17").click();
      const list = page.getByTestId("roulette-pick");
      await list.waitFor();
      const splits = await list
        .locator("button[data-testid^='roulette-split-']")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
      expect(splits.sort()).toEqual(["roulette-split-14-17", "roulette-split-16-17", "roulette-split-17-18", "roulette-split-17-20"]);
      // Escape closes the list without a bet
      await page.keyboard.press("Escape");
      await list.waitFor({ state: "detached" });
      await page.getByTestId("roulette-straight-17").click();
      await page.getByTestId("roulette-split-17-20").click();
      await list.waitFor({ state: "detached" });
      // a number with one bet of the kind takes the chip at once
      await page.getByTestId("roulette-pick-kind").selectOption("street");
      await page.getByTestId("roulette-straight-17").click();
      await page.getByTestId("roulette-marker-split-17-20").waitFor();
      await page.getByTestId("roulette-marker-street-16-17-18").waitFor();
      expect(await smallTargets(page)).toEqual([]);
      await press(page, "bet-button");
      const [round] = await history(t.baseUrl, await session());
      expect(round!.outcome.bets.map((b: any) => [b.bet.type, b.bet.numbers])).toEqual([
        ["straight", [17]],
        ["split", [17, 20]],
        ["street", [16, 17, 18]],
      ]);
    } finally {
      await context.close();
    }
  });

  it("360×640: back in the lobby, the catalogue stays where it was drawn when the play counts arrive", { timeout: 90_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONES[0]);
    try {
      // The play counts are held until the lobby has been measured, then let through.
      const held: (() => void)[] = [];
      const release = () => held.splice(0).forEach((letThrough) => letThrough());
      await page.route(
        (url) => url.pathname === "/api/game-stats",
        async (route) => {
          await new Promise<void>((resolve) => held.push(resolve));
          await route.continue();
        },
      );
      const tileTop = () => page.getByTestId("game-tile-roulette").evaluate((el) => Math.round(el.getBoundingClientRect().top + scrollY));
      const backAndMeasure = async () => {
        const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/game-stats");
        await backToLobby(page);
        await page.getByTestId("lobby-heading").waitFor();
        const drawn = await tileTop();
        release();
        await answered;
        // two frames: the answer's render has been laid out
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        return { drawn, after: await tileTop() };
      };
      // a game opened but not played, then a game played: neither moves the catalogue when the counts arrive
      await openGame(page, "dice");
      const opened = await backAndMeasure();
      expect(opened.after, "after opening a game").toBe(opened.drawn);
      await openGame(page, "dice");
      await setAmount(page, 1);
      await press(page, "bet-button");
      await settled(page);
      const played = await backAndMeasure();
      expect(played.after, "after playing a round").toBe(played.drawn);
      // the counts are the whole casino's, kept by the progress consumer: some game is listed, not necessarily dice yet
      await page.locator('[data-testid^="most-played-"]').first().waitFor();
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, "lobby-most-played-360");
    } finally {
      await context.close();
    }
  });

  it(
    "390×844: with a round open, games played, favourites and recents, the catalogue starts on the first screen",
    { timeout: 120_000 },
    async () => {
      const { context, page } = await openAsGuest(browser, t.baseUrl, PHONES[1]);
      try {
        for (const game of GAMES.filter((g) => ["mines", "keno", "slots"].includes(g.id))) {
          await page
            .getByTestId(`game-tile-${game.id}`)
            .getByRole("button", { name: `Add ${game.title} to favourites` })
            .click();
        }
        // four games opened, one played, and a mines round left open
        await openGame(page, "dice");
        await setAmount(page, 1);
        await press(page, "bet-button");
        await settled(page);
        await backToLobby(page);
        for (const id of ["coin-flip", "limbo"]) {
          await openGame(page, id);
          await backToLobby(page);
        }
        await openGame(page, "mines");
        await press(page, "bet-button");
        await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
        await page.goto(t.baseUrl);
        await page.getByTestId("resume-card").waitFor({ timeout: 20_000 });
        await page.locator('[data-testid^="most-played-"]').first().waitFor({ timeout: 20_000 });
        expect(await page.locator('[data-testid^="recent-"]').count()).toBe(4);
        expect(await page.locator('[data-testid^="favourite-tile-"]').count()).toBe(3);
        // Nothing moved under the pointer as the page came back: the open round came with the sign-in.
        expect(await layoutShifts(page, "none")).toEqual([]);

        const box = (selector: string) =>
          page
            .locator(selector)
            .first()
            .evaluate((el) => {
              const r = el.getBoundingClientRect();
              return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) };
            });
        // search first, then each row one line high (its games side by side, swiped sideways)
        const search = await box('[role="search"]');
        const resume = await box('[data-testid="resume-card"]');
        expect(search.bottom, "search above the rows").toBeLessThanOrEqual(resume.top);
        for (const row of ['[data-testid="resume-card"]', "#most-played + ul", "#recently-played + ul", "#favourites + ul"]) {
          expect((await box(row)).height, `${row}: one line`).toBeLessThanOrEqual(60);
        }
        const firstTile = await box('[data-testid="category"] [data-testid^="game-tile-"]');
        await shot(page, "lobby-compact-390");
        expect(firstTile.top, "the catalogue's first tile starts on the first screen").toBeLessThan(PHONES[1]!.height);
        expect(await sidewaysScroll(page), "what scrolls sideways").toEqual([]);
        expect(await smallTargets(page), "controls under 32 px").toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it("360×640: the daily wheel never widens the page while it turns", { timeout: 60_000 }, async () => {
    // the wheel's turn is the subject: this page plays animations
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONES[0], undefined, { reducedMotion: "no-preference" });
    try {
      await page.getByRole("tab", { name: /Spin/ }).click();
      await page.getByTestId("wheel").waitFor();
      // the widest the page gets, frame by frame, until the prize shows
      await page.evaluate(() => {
        const w = window as unknown as { widest: number };
        w.widest = 0;
        const watch = () => {
          w.widest = Math.max(w.widest, document.documentElement.scrollWidth);
          requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
      });
      await page.getByRole("button", { name: "Spin for Free Coins" }).click();
      await expect.poll(() => page.getByTestId("spin-result").textContent(), { timeout: 20_000 }).toMatch(/\d/);
      expect(await page.evaluate(() => (window as unknown as { widest: number }).widest)).toBe(PHONES[0]!.width);
    } finally {
      await context.close();
    }
  });
});
