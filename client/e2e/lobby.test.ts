import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { GAMES } from "@casino/common/catalogue";
import { backToLobby, openAsGuest, openGame, press, roundDone } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * The lobby a player opens: an illustration per game, search, favourites kept on the device, the games
 * played last, and the Resume card of a round left open (the app opened again at the lobby's address).
 */
const { server: t, browser } = setupBrowserApp();

describe("the lobby", () => {
  it("draws a distinct illustration on every game's tile", { timeout: 60_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl);
    try {
      for (const game of GAMES)
        expect(await page.getByTestId(`game-tile-${game.id}`).getByTestId(`game-art-${game.id}`).count(), game.id).toBe(1);
      // distinct: no two games share the same drawing
      const drawings = await page
        .locator('[data-testid^="game-tile-"] svg[data-testid^="game-art-"]')
        .evaluateAll((svgs) => svgs.map((s) => s.innerHTML.replace(/id="[^"]*"|url\(#[^)]*\)/g, "")));
      expect(new Set(drawings).size).toBe(GAMES.length);
    } finally {
      await context.close();
    }
  });

  it("finds games by search, keeps favourites on the device and lists the games played last", { timeout: 90_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl);
    try {
      const search = page.getByRole("searchbox", { name: "Search games" });
      await search.fill("roll");
      const results = page.getByTestId("search-results");
      await results.waitFor();
      expect(await results.getByTestId("search-tile-dice").isVisible()).toBe(true);
      expect(await results.getByTestId("search-tile-blackjack").count()).toBe(0);
      expect(await page.getByTestId("category").count()).toBe(0);
      await search.fill("no such game");
      expect(await results.textContent()).toContain("No game matches “no such game”.");
      await search.fill("");
      expect(await page.getByTestId("category").count()).toBe(6);

      // a favourite: starred on its tile, listed above the categories, still there after a reload
      expect(await page.getByTestId("favourites").count()).toBe(0);
      await page.getByTestId("game-tile-mines").getByRole("button", { name: "Add Mines to favourites" }).click();
      await page.getByTestId("favourites").getByTestId("favourite-tile-mines").waitFor();
      await page.reload();
      await page.getByTestId("favourites").getByTestId("favourite-tile-mines").waitFor({ timeout: 20_000 });
      const star = page.getByTestId("game-tile-mines").getByRole("button", { name: "Remove Mines from favourites" });
      expect(await star.getAttribute("aria-pressed")).toBe("true");
      await star.click();
      await page.getByTestId("favourites").waitFor({ state: "detached" });

      // recently played: the latest first
      expect(await page.getByRole("heading", { name: "Recently played" }).count()).toBe(0);
      await openGame(page, "dice");
      await backToLobby(page);
      await openGame(page, "coin-flip");
      await backToLobby(page);
      await page.getByRole("heading", { name: "Recently played" }).waitFor();
      const recent = await page.locator('[data-testid^="recent-"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
      expect(recent).toEqual(["recent-coin-flip", "recent-dice"]);
      await page.getByRole("button", { name: "Play Dice again" }).click();
      await page.getByTestId("table-dice").waitFor({ timeout: 20_000 });
    } finally {
      await context.close();
    }
  });

  it(
    "gives a guest a face of their own, generated from their name: the same after a reload, another for another guest",
    { timeout: 60_000 },
    async () => {
      const face = (page: Page) =>
        page
          .getByTestId("user")
          .getByTestId("avatar")
          .evaluate((el) => ({
            kind: el.getAttribute("data-face"),
            svg: (el.querySelector("svg")?.outerHTML ?? "").replace(/ (id|mask)="[^"]*"|url\(#[^)]*\)/g, ""),
          }));
      const first = await openAsGuest(browser, t.baseUrl);
      const second = await openAsGuest(browser, t.baseUrl);
      try {
        const mine = await face(first.page);
        expect(mine.kind).toBe("generated");
        expect(mine.svg).toContain("<svg");
        expect(await first.page.getByTestId("user").getByTestId("avatar").textContent(), "no initials in place of a face").toBe("");
        await first.page.reload();
        await first.page.getByTestId("lobby-heading").waitFor({ timeout: 20_000 });
        expect((await face(first.page)).svg).toBe(mine.svg);
        expect((await face(second.page)).svg).not.toBe(mine.svg);
      } finally {
        await first.context.close();
        await second.context.close();
      }
    },
  );

  it("offers to resume a round left open, when the app is opened again at the lobby", { timeout: 90_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl);
    try {
      expect(await page.getByTestId("resume-card").count()).toBe(0);
      await openGame(page, "mines");
      await press(page, "bet-button");
      await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
      // (a reload of the game's own address reopens the game: addresses.test.ts)
      await page.goto(t.baseUrl);
      const card = page.getByTestId("resume-card");
      await card.waitFor({ timeout: 20_000 });
      expect(await card.textContent()).toContain("Your Mines round is still open");
      expect(await card.textContent()).toMatch(/\d+ coins in play/);
      await card.getByRole("button", { name: "Resume" }).click();
      await page.getByTestId("table-mines").waitFor({ timeout: 20_000 });
      await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
      await press(page, "mines-tile-12");
      if (!(await roundDone(page))) await press(page, "mines-cashout");
      await backToLobby(page);
      await page.getByTestId("resume-card").waitFor({ state: "detached", timeout: 15_000 });
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});

describe("the fairness page", () => {
  it("renders the specification as headings, paragraphs and tables: no raw markdown, no source paths", { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${t.baseUrl}/fairness`);
      const article = page.getByTestId("fairness-page").locator("article");
      await page.getByRole("heading", { level: 1, name: "Provably fair: the exact specification" }).waitFor({ timeout: 20_000 });
      expect(await article.locator("h2").count()).toBeGreaterThan(5);
      expect(await page.getByRole("heading", { level: 2, name: /Seeds, commitment and nonce/ }).isVisible()).toBe(true);
      expect(await article.locator("table").count()).toBeGreaterThan(0);
      expect(await article.locator("strong").count()).toBeGreaterThan(0);
      const text = (await article.innerText()).split("\n");
      expect(text.filter((line) => /^#{1,6} |^\|.*\|$|\*\*|^```/.test(line.trim()))).toEqual([]);
      expect(text.join("\n")).not.toMatch(/\b(common|server|client)\/(src|test|scripts)\//);
    } finally {
      await context.close();
    }
  });
});
