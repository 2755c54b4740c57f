import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { CATEGORIES, GAMES } from "@casino/common/catalogue";
import { formatCoins } from "@casino/common/format";
import { Inbox, ask } from "../../server/test/room-helpers";
import { DESKTOP, enterAsGuest, PHONE, shot, storedPlayerId, storedToken } from "./support";
import { setupBrowserApp } from "./browser-app";

/** A guest in the browser: the built client in real headless Chromium against the real server. */
const { server: t, browser } = setupBrowserApp();

const player = async (id: string) => (await t.app.services.db.run((em) => em.query(`SELECT * FROM players WHERE id = $1`, [id])))[0];

/** Records every sound the page plays (file and volume). */
async function recordSounds(page: Page) {
  await page.addInitScript(() => {
    const played: { src: string; volume: number }[] = [];
    (window as unknown as { played: typeof played }).played = played;
    HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
      played.push({ src: this.src, volume: this.volume });
      return Promise.resolve();
    };
  });
  return () => page.evaluate(() => (window as unknown as { played: { src: string; volume: number }[] }).played);
}

describe("a guest in the browser", () => {
  it("sees the guest notice once, then a lobby of every game of the catalogue in 6 categories", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const sounds = await recordSounds(page);
    await page.goto(t.baseUrl);
    const notice = page.getByRole("dialog", { name: "You're Playing as a Guest" });
    await notice.waitFor({ timeout: 20_000 });
    await notice.getByRole("button", { name: "Got it, Continue as Guest" }).click();
    await notice.waitFor({ state: "detached" });

    expect(await page.getByTestId("balance").textContent()).toBe("1,000");
    expect(await page.locator('[data-testid^="game-tile-"]').count()).toBe(GAMES.length);
    const categories = page.getByTestId("category");
    expect(await categories.locator("h2").allTextContents()).toEqual([
      "Card Games",
      "Quick Games",
      "Dice Games",
      "Table Games",
      "Strategy Games",
      "No Risk Games",
    ]);
    // each category counts the catalogue's games of that category
    const inCategory = (category: string) => GAMES.filter((g) => g.category === category).length;
    expect(await categories.getByTestId("category-count").allTextContents()).toEqual(
      CATEGORIES.map((c) => `${inCategory(c)} ${inCategory(c) === 1 ? "game" : "games"} available`),
    );
    for (const { id } of GAMES) {
      expect(await page.getByTestId(`game-tile-${id}`).getByRole("button", { name: "Play Now" }).isEnabled(), id).toBe(true);
    }
    // The game stats call is not served yet: Most Played stays hidden.
    expect(await page.getByRole("heading", { name: "Most Played" }).count()).toBe(0);
    expect(await page.getByText("Play responsibly. Virtual currency only.").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Suggestions?" }).count()).toBe(0);
    await shot(page, "lobby-1280");

    // A game opens in place of the lobby, after the click sound at 0.3 (every game now has a table).
    expect(await page.getByText("WIP").count()).toBe(0);
    await page.getByTestId("game-tile-dots").getByRole("button", { name: "Play Now" }).click();
    await page.getByTestId("table-dots").waitFor({ timeout: 20_000 });
    expect(await page.getByRole("heading", { name: "Connect the Dots" }).isVisible()).toBe(true);
    expect(await page.locator('[data-testid^="game-tile-"]').count()).toBe(0);
    expect(await sounds()).toEqual([{ src: `${t.baseUrl}/sounds/click.wav`, volume: 0.3 }]);
    await page.getByRole("button", { name: "Back to Lobby" }).click();
    await page.getByTestId("game-tile-dots").waitFor();

    // The notice was dismissed for good.
    await page.reload();
    await page.getByTestId("lobby-heading").waitFor({ timeout: 20_000 });
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.close();
  });

  it("spins the daily wheel: the server's prize, the wheel landing on its segment, and the balance catching up", async () => {
    // the spin itself is watched: this page plays animations
    const page = await browser.newPage({ viewport: DESKTOP, reducedMotion: "no-preference" });
    await enterAsGuest(page, t.baseUrl);
    const id = await storedPlayerId(page);
    // an unclaimed spin is marked on its tab and in the header, whose gift opens the tab
    expect(await page.getByRole("tab", { name: "Daily Spin (ready)" }).count()).toBe(1);
    await page.getByRole("button", { name: "Daily spin ready" }).click();
    await page.getByRole("heading", { name: "Daily Bonus Wheel" }).waitFor();
    expect(await page.getByRole("tab", { name: "Daily Spin" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.getByText("Spin daily for 50-500 free coins!").isVisible()).toBe(true);
    await shot(page, "wheel-1280");

    await page.getByRole("button", { name: "Spin for Free Coins" }).click();
    await page.getByRole("button", { name: "Spinning..." }).waitFor();
    const result = page.getByTestId("spin-result");
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toMatch(/^\+\d+ Coins!$/);
    const prize = Number((await result.textContent())!.match(/\d+/)![0]);

    const [entry] = await t.app.services.db.run((em) =>
      em.query(`SELECT delta, reference FROM ledger_entries WHERE player_id = $1 AND reason = 'daily_spin'`, [id]),
    );
    expect(Number(entry.delta)).toBe(prize);
    // The wheel stopped with the server's segment under the pointer.
    const segment = Number(/segment (\d+)/.exec(entry.reference)![1]);
    const rotation = Number(await page.getByTestId("wheel").getAttribute("data-rotation"));
    expect(Math.floor((((-rotation % 360) + 360) % 360) / 30)).toBe(segment);

    // The change shows first, then the shown balance catches up with the server's.
    await page
      .getByTestId("balance-delta")
      .filter({ hasText: `+${prize}` })
      .waitFor();
    await expect.poll(() => page.getByTestId("balance").textContent(), { timeout: 10_000 }).toBe(formatCoins(1000 + prize));
    expect(Number((await player(id)).balance)).toBe(1000 + prize);
    expect(await page.getByRole("button", { name: /^Next spin in (23h 59m|24h 0m)$/ }).isDisabled()).toBe(true);
    // claimed: the marks are gone
    expect(await page.getByRole("button", { name: "Daily spin ready" }).count()).toBe(0);
    expect(await page.getByRole("tab", { name: "Daily Spin (ready)" }).count()).toBe(0);
    await shot(page, "wheel-after-spin-1280");
    await page.close();
    await t.expectLedgerInvariant();
  });

  it("respects reduced motion: the wheel is placed on the prize at once, without a spin", async () => {
    const context = await browser.newContext({ viewport: PHONE, reducedMotion: "reduce" });
    const page = await context.newPage();
    // Counts the Web Animations started on the wheel (motion animates it through element.animate).
    await page.addInitScript(() => {
      const w = window as unknown as { wheelAnimations: number };
      w.wheelAnimations = 0;
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (this: Element, ...args: Parameters<Element["animate"]>) {
        if (this.getAttribute("data-testid") === "wheel") w.wheelAnimations++;
        return animate.apply(this, args);
      };
    });
    await enterAsGuest(page, t.baseUrl);
    await page.getByRole("tab", { name: "Spin" }).click();
    await page.getByRole("button", { name: "Spin for Free Coins" }).click();
    await expect.poll(() => page.getByTestId("spin-result").textContent(), { timeout: 15_000 }).toMatch(/^\+\d+ Coins!$/);
    const wheel = page.getByTestId("wheel");
    const rotation = await wheel.getAttribute("data-rotation");
    expect(await wheel.evaluate((el) => (el as HTMLElement).style.transform)).toBe(`rotate(${rotation}deg)`);
    expect(await page.evaluate(() => (window as unknown as { wheelAnimations: number }).wheelAnimations)).toBe(0);
    await context.close();
  });

  it("sends the reminder setting to the server and shows the room's Daily Spin Ready! notice", async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await enterAsGuest(page, t.baseUrl);
    const id = await storedPlayerId(page);
    await page.getByRole("tab", { name: "Spin" }).click();
    const reminder = page.getByRole("switch", { name: "Remind me when ready" });
    await reminder.click();
    await expect.poll(async () => (await player(id)).daily_spin_reminder).toBe(true);
    await shot(page, "wheel-390");

    // The room checks readiness when it is joined: a ready spin with the reminder on is announced once.
    await page.reload();
    const toast = page.getByTestId("toast").filter({ hasText: "Daily Spin Ready!" });
    await toast.waitFor({ timeout: 20_000 });
    await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
    expect(await page.getByRole("dialog").getByText("Daily Spin Ready!").isVisible()).toBe(true);
    await page.close();
  });

  it("keeps a theme change across a reload, on the device only", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await enterAsGuest(page, t.baseUrl);
    const id = await storedPlayerId(page);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Theme Color" }).waitFor();
    expect(await page.getByRole("radiogroup", { name: "Theme color" }).getByRole("radio").count()).toBe(100);
    expect(await page.getByRole("radio", { name: "Vivid sky blue" }).getAttribute("aria-checked")).toBe("true");

    await page.getByRole("radio", { name: "Light", exact: true }).click();
    await page.getByRole("radio", { name: "Soft green" }).click();
    const root = () =>
      page.evaluate(() => ({
        dark: document.documentElement.classList.contains("dark"),
        primary: document.documentElement.style.getPropertyValue("--primary"),
      }));
    expect(await root()).toEqual({ dark: false, primary: "120 44% 69%" });
    // named in words; the colour itself is the swatch's
    expect(await page.getByTestId("theme-color-name").textContent()).toBe("Chosen: Soft green");
    expect(await page.getByTestId("swatch-accent").textContent()).toBe("Vivid green");
    expect(await page.getByTestId("swatch-accent").getAttribute("data-color")).toBe("130 60% 55%");
    expect(await page.getByTestId("swatch-chart").getAttribute("data-color")).toBe("120 44% 64%");
    await shot(page, "settings-1280");

    await page.reload();
    await page.getByRole("heading", { name: "Theme Color" }).waitFor({ timeout: 20_000 });
    expect(await root()).toEqual({ dark: false, primary: "120 44% 69%" });
    expect(await page.getByRole("radio", { name: "Soft green" }).getAttribute("aria-checked")).toBe("true");
    // A guest's theme stays on the device.
    expect((await player(id)).theme_color).toBe("200 60% 55%");
    await page.setViewportSize(PHONE);
    await shot(page, "settings-390");
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByTestId("lobby-heading").waitFor();
    await page.close();
  });

  it("lists the player's tags and sets an unlocked one as the active tag", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await enterAsGuest(page, t.baseUrl);
    const id = await storedPlayerId(page);
    // One game played through the room unlocks the first-game tag.
    const room = await t.sdk(await storedToken(page)).create("casino");
    const answer = await ask(room, new Inbox(room), "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    expect(answer.type).toBe("result");
    await room.leave();

    await page.getByRole("tab", { name: "Leaderboard" }).click();
    expect(await page.getByTestId("active-tag").textContent()).toBe("No Tag");
    await page.getByRole("button", { name: "My Tags" }).click();
    const dialog = page.getByRole("dialog", { name: "Your Tags" });
    await dialog.getByTestId("tag-option-none").waitFor();
    expect(await dialog.getByTestId("tag-option-none").getAttribute("aria-checked")).toBe("true");
    const options = dialog.locator('[data-testid^="tag-option-"]');
    // "No Tag" and every tag the server lists for the player
    const listed = await fetch(`${t.baseUrl}/api/player/${id}/tags`, { headers: { authorization: `Bearer ${await storedToken(page)}` } });
    expect(await options.count()).toBe(1 + ((await listed.json()) as unknown[]).length);
    const newcomer = options.filter({ hasText: "Newcomer" });
    expect(await newcomer.textContent()).toContain("Unlocked");
    expect(await newcomer.textContent()).toContain("Play your first game");
    expect(await newcomer.textContent()).toContain("100%");
    const regular = options.filter({ hasText: "Regular" });
    expect(await regular.textContent()).toContain("Locked");
    expect(await regular.textContent()).toContain("Play 50 games");
    expect(await regular.isDisabled()).toBe(true);
    await shot(page, "tags-1280");

    await newcomer.click();
    await expect.poll(async () => (await player(id)).active_tag_id).not.toBeNull();
    // The dialog marks the tag once the change is answered, which comes after its commit (the boards'
    // copy of the profile is refreshed in between).
    await expect.poll(() => newcomer.getAttribute("aria-checked")).toBe("true");
    await page.keyboard.press("Escape");
    // Closed before the next step: while a dialog is open the rest of the page is hidden from the
    // accessibility tree, and "My Tags" below could not be found (one full run, 30 s).
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => page.getByTestId("active-tag").textContent()).toBe("Newcomer");
    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "My Tags" }).click();
    await page.getByRole("dialog", { name: "Your Tags" }).getByTestId("tag-option-none").waitFor();
    await shot(page, "tags-390");
    await page.close();
    await t.expectLedgerInvariant();
  });

  it("draws the leaderboard and Most Played from the spec's answer shapes (stubbed REST, the polling fallback)", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    // The live leaderboard room is unreachable, so the boards poll the stubbed REST answers.
    await page.route(/\/matchmake\/[^/]+\/leaderboard$/, (route) => route.abort());
    await enterAsGuest(page, t.baseUrl);
    const id = await storedPlayerId(page);
    const total = 1000;
    const entry = (rank: number) => ({
      playerId: rank === 30 ? id : `p-${rank}`,
      rank,
      username: rank === 30 ? "Me Myself" : `Player ${rank}`,
      avatarUrl: null,
      balance: 100_000 - rank * 7,
      anonymousMode: rank === 2 || rank === 30,
      discordId: `d-${rank}`,
      activeTag: rank === 1 ? { name: "Tycoon" } : null,
    });
    const requested: string[] = [];
    await page.route(
      (url) => url.pathname === "/api/leaderboard",
      (route) => {
        const url = new URL(route.request().url());
        requested.push(url.search);
        const p = Number(url.searchParams.get("page"));
        const entries = Array.from({ length: 25 }, (_, i) => entry((p - 1) * 25 + i + 1));
        return route.fulfill({ json: { entries, total } });
      },
    );
    await page.route(
      (url) => url.pathname === `/api/player/${id}/rank`,
      (route) => route.fulfill({ json: { rank: 30 } }),
    );
    await page.route(
      (url) => url.pathname === "/api/game/dots/leaderboard",
      (route) => route.fulfill({ status: 500, json: { error: "boom" } }),
    );
    await page.route(
      (url) => url.pathname === "/api/game/dot-battle/leaderboard",
      (route) => route.fulfill({ json: { entries: [], total: 0, page: 1, limit: 25, scope: "global", window: "all" } }),
    );

    await page.getByRole("tab", { name: "Leaderboard" }).click();
    const board = page.getByRole("list", { name: "Balance leaderboard" });
    await board.waitFor();
    expect(requested[0]).toBe("?page=1&limit=25");
    const rows = board.getByTestId("leaderboard-row");
    expect(await rows.count()).toBe(25);
    expect(await rows.nth(0).getByRole("img", { name: "Gold medal" }).count()).toBe(1);
    expect(await rows.nth(1).getByRole("img", { name: "Silver medal" }).count()).toBe(1);
    expect(await rows.nth(2).getByRole("img", { name: "Bronze medal" }).count()).toBe(1);
    expect(await rows.nth(0).textContent()).toContain("Tycoon");
    expect(await rows.nth(0).textContent()).toContain("99,993");
    // An anonymous player is a blurred "Anonymous" to others.
    expect(await rows.nth(1).textContent()).toContain("Anonymous");
    expect(await rows.nth(1).textContent()).not.toContain("Player 2");
    expect(await page.getByTestId("showing").textContent()).toBe("Showing 1 - 25 of 1,000 players");
    const pages = page.getByRole("navigation", { name: "Leaderboard pages" });
    expect(await pages.getByRole("button", { name: /^Page \d+$/ }).allTextContents()).toEqual(["1", "2", "3", "4", "5", "40"]);
    expect(await pages.getByText("…").count()).toBe(1);
    expect(await page.getByTestId("your-position").textContent()).toContain("Rank #30 of 1,000");
    await shot(page, "leaderboard-1280");

    await page.getByRole("button", { name: "Jump to My Position" }).click();
    await expect.poll(() => page.getByTestId("showing").textContent()).toBe("Showing 26 - 50 of 1,000 players");
    const me = rows.filter({ hasText: "(You)" });
    // Anonymous, yet the player sees their own name.
    expect(await me.textContent()).toContain("Me Myself");
    expect(await me.getAttribute("aria-current")).toBe("true");
    await pages.getByRole("button", { name: "Page 40" }).click();
    await expect.poll(() => page.getByTestId("showing").textContent()).toBe("Showing 976 - 1,000 of 1,000 players");
    expect(await pages.getByRole("button", { name: /^Page \d+$/ }).allTextContents()).toEqual(["1", "36", "37", "38", "39", "40"]);

    await page.getByRole("tab", { name: "Speed" }).click();
    await page.getByText("Failed to load speed records. Please try again later.").waitFor();
    await page.getByRole("tab", { name: "Kills" }).click();
    await page.getByText("No kill records yet. Play Dot Battle to set a record!").waitFor();
    await page.setViewportSize(PHONE);
    await page.getByRole("tab", { name: "Balance" }).click();
    await board.waitFor();
    await shot(page, "leaderboard-390");

    // Most Played: the top three of the player's counts, the first marked Popular on its tile too.
    await page.route(
      (url) => url.pathname === "/api/game-stats",
      (route) =>
        route.fulfill({
          json: [
            { gameType: "dice", playCount: 4 },
            { gameType: "mines", playCount: 9 },
            { gameType: "keno", playCount: 2 },
            { gameType: "slots", playCount: 1 },
          ],
        }),
    );
    // the lobby's games, opened again (a reload would reopen the leaderboard's address)
    await page.goto(`${t.baseUrl}/`);
    await page.getByRole("heading", { name: "Most Played" }).waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid^="most-played-"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual(
      ["most-played-mines", "most-played-dice", "most-played-keno"],
    );
    expect(await page.getByTestId("most-played-mines").textContent()).toContain("Popular");
    expect(await page.getByTestId("game-tile-mines").textContent()).toContain("Popular");
    expect(await page.getByTestId("game-tile-dice").textContent()).not.toContain("Popular");
    await shot(page, "lobby-390");
    await page.close();
  });

  it("shows the terms (nine sections) and the privacy policy (eleven), dated 30 October 2025, without Back to Lobby for a guest", async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await enterAsGuest(page, t.baseUrl);
    await page.getByRole("link", { name: "Terms of Service" }).click();
    await page.getByRole("heading", { name: "Terms of Service", level: 1 }).waitFor();
    expect(await page.getByTestId("legal-section").count()).toBe(9);
    expect(await page.getByText("Last updated: 30 October 2025").isVisible()).toBe(true);
    expect(await page.getByText(/at least 13 years old/).isVisible()).toBe(true);
    expect(await page.getByText(/no monetary value/).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Back to Lobby" }).count()).toBe(0);

    await page.goto(`${t.baseUrl}/privacy`);
    await page.getByRole("heading", { name: "Privacy Policy", level: 1 }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("legal-section").count()).toBe(11);
    expect(await page.getByText("Last updated: 30 October 2025").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "9. Children" }).isVisible()).toBe(true);
    await page.close();
  });
});
