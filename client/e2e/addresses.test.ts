import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { DESKTOP, PHONE, shot } from "./support";
import { acceptTerms } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";
import { backToLobby, openAsGuest, openGame, press, roundDone, serverBalance, shownBalance } from "./games-helpers";

/**
 * Every game and page has an address: the lobby's tabs, each game (`/games/<id>`, shown in place of the
 * lobby), Back from a game to the lobby, a reload that reopens the game with its open round, a pasted
 * link, an unknown address; as a guest in a browser and inside the fake Discord host, where Discord's
 * launch parameters stay in the frame's address and the app may be served under `/.proxy`.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true });

const pathOf = (url: string) => new URL(url).pathname;
const lobbyShown = (page: Page | Frame) => page.getByTestId("lobby-heading").waitFor({ timeout: 20_000 });

describe("addresses as a guest in a browser", () => {
  it("gives each tab and game an address; Back from a game returns to the lobby, Forward reopens it", { timeout: 90_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      expect(pathOf(page.url())).toBe("/");
      await page.getByRole("tab", { name: "Ranks" }).click();
      await expect.poll(() => pathOf(page.url())).toBe("/leaderboard");
      await page.getByRole("tab", { name: "Play" }).click();
      await expect.poll(() => pathOf(page.url())).toBe("/");

      await openGame(page, "dice");
      expect(pathOf(page.url())).toBe("/games/dice");
      await page.goBack();
      await page.getByTestId("game-tile-dice").waitFor({ timeout: 20_000 });
      expect(pathOf(page.url())).toBe("/");
      expect(await page.getByTestId("table-dice").count()).toBe(0);

      await page.goForward();
      await page.getByTestId("table-dice").waitFor({ timeout: 20_000 });
      expect(pathOf(page.url())).toBe("/games/dice");

      // The game's own Back button is the browser's Back: no new entry stacks on the lobby's.
      const entries = await page.evaluate(() => history.length);
      await backToLobby(page);
      await page.getByTestId("game-tile-dice").waitFor({ timeout: 20_000 });
      expect(pathOf(page.url())).toBe("/");
      expect(await page.evaluate(() => history.length)).toBe(entries);

      // A game opened from the leaderboard tab returns to that tab.
      await page.getByRole("tab", { name: "Ranks" }).click();
      await expect.poll(() => pathOf(page.url())).toBe("/leaderboard");
      await page.getByRole("tab", { name: "Play" }).click();
      await openGame(page, "coin-flip");
      await page.goBack();
      await lobbyShown(page);
      expect(pathOf(page.url())).toBe("/");
    } finally {
      await context.close();
    }
  });

  it("reopens a game with its open round on a reload, then finishes it with the server's balance", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      const before = await serverBalance(t.baseUrl, await session());
      await openGame(page, "mines");
      await press(page, "bet-button");
      await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
      const during = await serverBalance(t.baseUrl, await session());
      expect(during).toBeLessThan(before);

      await page.reload();
      // The game itself, not the lobby: its round still open, the stake out of the balance.
      await page.getByTestId("table-mines").waitFor({ timeout: 20_000 });
      expect(pathOf(page.url())).toBe("/games/mines");
      expect(await page.getByTestId("lobby-heading").count()).toBe(0);
      await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
      await expect.poll(() => shownBalance(page), { timeout: 15_000 }).toBe(during);
      await shot(page, "address-reload-open-round-390");
      await page.setViewportSize(DESKTOP);
      await shot(page, "address-reload-open-round-1280");

      await press(page, "mines-tile-12");
      if (!(await roundDone(page))) await press(page, "mines-cashout");
      const after = await serverBalance(t.baseUrl, await session());
      await expect.poll(() => shownBalance(page), { timeout: 15_000 }).toBe(after);

      // Back after the reload still leads to the lobby, and the round is no longer offered to resume.
      await page.goBack();
      await lobbyShown(page);
      expect(pathOf(page.url())).toBe("/");
      expect(await page.getByTestId("resume-card").count()).toBe(0);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });

  it("opens a game from a pasted link, with the lobby one Back away", { timeout: 90_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await page.goto(`${t.baseUrl}/games/limbo`);
      await page.getByTestId("table-limbo").waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("game-title").textContent()).toBe("Limbo");
      expect(pathOf(page.url())).toBe("/games/limbo");
      await shot(page, "address-link-1280");
      await page.setViewportSize(PHONE);
      await shot(page, "address-link-390");

      await page.goBack();
      await lobbyShown(page);
      expect(pathOf(page.url())).toBe("/");

      // A tab's link opens the lobby at that tab; the Back to Lobby of a game opened by its link leads to the lobby.
      await page.goto(`${t.baseUrl}/leaderboard`);
      await expect.poll(() => page.getByRole("tab", { name: "Ranks" }).getAttribute("data-state"), { timeout: 20_000 }).toBe("active");
      await page.goto(`${t.baseUrl}/games/craps`);
      await page.getByTestId("table-craps").waitFor({ timeout: 20_000 });
      await backToLobby(page);
      await lobbyShown(page);
      expect(pathOf(page.url())).toBe("/");
    } finally {
      await context.close();
    }
  });

  it("shows the lobby at an address it has no page at, and says so in the address", { timeout: 60_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, PHONE);
    try {
      for (const path of ["/no/such/page", "/games/no-such-game", "/games"]) {
        await page.goto(`${t.baseUrl}${path}`);
        await lobbyShown(page);
        expect(pathOf(page.url()), path).toBe("/");
        expect(await page.getByTestId("game-title").count(), path).toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});

describe("addresses inside Discord's frame", () => {
  /** The activity's frame: the launch address is the host's, the app's own moves happen inside it. */
  async function launch(activity: string, id: string, name: string, instanceId: string) {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(host.url(activity, { players: [`${id}:${name}`], instanceId }));
    await acceptTerms(page.frameLocator("iframe").first());
    const app = (await (await page.$("iframe"))!.contentFrame())!;
    await app.getByTestId("username").waitFor({ state: "attached", timeout: 30_000 });
    const launched = new URL(app.url()).searchParams;
    expect(launched.get("frame_id")).toBeTruthy();
    return { page, app, launched };
  }

  /** The frame's address keeps every parameter Discord launched it with. */
  const keepsLaunch = (app: Frame, launched: URLSearchParams) => {
    const now = new URL(app.url()).searchParams;
    for (const [name, value] of launched) expect(now.get(name), name).toBe(value);
  };

  it(
    "keeps Discord's parameters: history.back from a game returns to the lobby, a reload reopens the open round",
    { timeout: 120_000 },
    async () => {
      const id = "600000000000000001";
      const { page, app, launched } = await launch(`${t.baseUrl}/`, id, "Addy", "i-addresses-1");
      try {
        await openGame(app, "mines");
        expect(pathOf(app.url())).toBe("/games/mines");
        keepsLaunch(app, launched);
        await press(app, "bet-button");
        await expect.poll(() => app.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");

        await app.evaluate(() => history.back());
        await app.getByTestId("resume-card").waitFor({ timeout: 20_000 });
        expect(pathOf(app.url())).toBe("/");
        keepsLaunch(app, launched);
        await app.getByTestId("resume-card").getByRole("button", { name: "Resume" }).click();
        await app.getByTestId("table-mines").waitFor({ timeout: 20_000 });

        // The frame reloads its own address: signed in through Discord again, at the game, round open.
        await app.evaluate(() => location.reload());
        await app.getByTestId("table-mines").waitFor({ timeout: 30_000 });
        expect(pathOf(app.url())).toBe("/games/mines");
        keepsLaunch(app, launched);
        await expect.poll(() => app.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
        await shot(page, "address-discord-reload-390");
        const [player] = await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE discord_id = $1`, [id]));
        await expect.poll(() => shownBalance(app), { timeout: 15_000 }).toBe(Number(player.balance));

        await press(app, "mines-tile-12");
        if (!(await roundDone(app))) await press(app, "mines-cashout");
        await backToLobby(app);
        await lobbyShown(app);
        expect(pathOf(app.url())).toBe("/");
        keepsLaunch(app, launched);
      } finally {
        await page.close();
      }
      await t.expectLedgerInvariant();
    },
  );

  it("under /.proxy: tabs and games keep the prefix and the parameters, across a reload and Back", { timeout: 120_000 }, async () => {
    const { page, app, launched } = await launch(`${t.baseUrl}/.proxy/`, "600000000000000002", "Prox", "i-addresses-2");
    try {
      await app.getByRole("tab", { name: "Ranks" }).click();
      await expect.poll(() => pathOf(app.url())).toBe("/.proxy/leaderboard");
      keepsLaunch(app, launched);
      // The settings page and its Back keep them too.
      await app.getByRole("link", { name: "Settings", exact: true }).click();
      await app.getByRole("heading", { name: "Settings" }).waitFor({ timeout: 20_000 });
      expect(pathOf(app.url())).toBe("/.proxy/settings");
      keepsLaunch(app, launched);
      await app.getByRole("button", { name: "Back" }).click();
      await lobbyShown(app);
      await app.getByRole("tab", { name: "Play" }).click();
      await openGame(app, "dice");
      expect(pathOf(app.url())).toBe("/.proxy/games/dice");
      keepsLaunch(app, launched);

      await app.evaluate(() => location.reload());
      await app.getByTestId("table-dice").waitFor({ timeout: 30_000 });
      expect(await app.getByTestId("username").count()).toBe(0); // the game's bar, not the lobby's header
      keepsLaunch(app, launched);
      await app.evaluate(() => history.back());
      await lobbyShown(app);
      expect(pathOf(app.url())).toMatch(/^\/\.proxy\/?$/);
      expect(await app.getByTestId("username").textContent()).toBe("Prox");
      keepsLaunch(app, launched);
    } finally {
      await page.close();
    }
  });
});
