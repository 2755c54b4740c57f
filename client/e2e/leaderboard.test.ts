import { describe, expect, it } from "vitest";
import type { FrameLocator, Page, Request } from "playwright-core";
import { shot } from "./support";
import { acceptTerms } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";

/**
 * The leaderboard panel inside Discord, in real Chromium: two signed-in players (the balance board
 * ranks no guests) side by side in one activity instance of the fake Discord host. Every REST call
 * and every leaderboard room join of the page is recorded, to prove what the panel asked for.
 */
const GUILD = "912952092627435520"; // the guild the fake host launches the activity in

const { server: t, browser, host } = setupBrowserApp({ discordHost: true });

interface Seen {
  /** REST calls of the boards and ranks: `/api/leaderboard?...`, `/api/player/:id/rank?...`. */
  rest: string[];
  /** Options of each `leaderboard` room join. */
  joins: Record<string, unknown>[];
}

/** Records, per activity frame, what it asked the server for about leaderboards. */
function track(page: Page, frameIndex: number): Seen {
  const seen: Seen = { rest: [], joins: [] };
  page.on("request", (request: Request) => {
    const frames = page.frames().filter((f) => f !== page.mainFrame());
    if (request.frame() !== frames[frameIndex]) return;
    const url = new URL(request.url());
    if (/^\/api\/(leaderboard|game\/[^/]+\/leaderboard|player\/[^/]+\/rank)$/.test(url.pathname)) seen.rest.push(url.pathname + url.search);
    if (url.pathname.startsWith("/matchmake/") && url.pathname.endsWith("/leaderboard"))
      seen.joins.push(JSON.parse(request.postData() ?? "{}"));
  });
  return seen;
}

const balanceOf = async (discordId: string) =>
  Number((await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE discord_id = $1`, [discordId])))[0].balance);

/** The row of a player on the shown balance board. */
const rowOf = (app: FrameLocator, name: string) =>
  app.getByRole("list", { name: "Balance leaderboard" }).getByTestId("leaderboard-row").filter({ hasText: name });

/**
 * One coin flip of 10 coins, through the table as a player plays it, until the table shows its result.
 * 10 coins leave the balance at 990, 1,009 or 1,010, never where it started (1 coin could win 1.98
 * paid as 1).
 */
async function flipCoin(app: FrameLocator) {
  await app.getByTestId("game-tile-coin-flip").getByRole("button", { name: "Play Now" }).click();
  await app.getByTestId("table-coin-flip").waitFor({ timeout: 20_000 });
  await app.getByTestId("bet-amount").fill("10");
  await app.getByTestId("coin-tails").click();
  await app.getByTestId("bet-button").click();
  await app.locator('[data-testid="round-slot"][data-round="shown"] [data-testid="round-result"]').waitFor({ timeout: 15_000 });
}

describe("the leaderboard panel inside Discord", () => {
  it(
    "shows another player's bet live over the leaderboard room, with no REST poll, and switches scope and period",
    { timeout: 180_000 },
    async () => {
      const [aliceId, bobId] = ["100000000000000711", "100000000000000712"];
      t.discord.guilds.set(aliceId, [GUILD]);
      t.discord.guilds.set(bobId, [GUILD]);
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      const alice = track(page, 0);
      await page.goto(host.url(`${t.baseUrl}/`, { players: [`${aliceId}:Alice`, `${bobId}:Bob`], instanceId: "i-leaderboard-1" }));
      const [a, b] = [page.frameLocator("iframe").nth(0), page.frameLocator("iframe").nth(1)];
      await Promise.all([acceptTerms(a), acceptTerms(b)]);

      // Alice opens the board: it is joined live, global and all-time, and shows Bob at his balance.
      await a.getByRole("tab", { name: "Leaderboard" }).click();
      await a.locator('[data-testid="leaderboard-link"][data-link="live"]').waitFor({ timeout: 20_000 });
      await expect.poll(() => rowOf(a, "Bob").textContent(), { timeout: 20_000 }).toContain("1,000");
      expect(alice.joins.at(-1)).toMatchObject({ board: "balance", scope: "global", window: "all", page: 1, limit: 25 });
      const restBefore = alice.rest.length;

      // Bob bets; Alice's open board shows his new balance, pushed by the room.
      await flipCoin(b);
      const bobBalance = await balanceOf(bobId);
      expect(bobBalance).not.toBe(1000);
      const shown = bobBalance.toLocaleString("en-US");
      await expect.poll(() => rowOf(a, "Bob").textContent(), { timeout: 20_000 }).toContain(shown);
      // No REST read of any board or rank was made in between: the change came over the room, not a poll.
      expect(alice.rest.slice(restBefore)).toEqual([]);
      expect(await a.getByTestId("leaderboard-link").getAttribute("data-link")).toBe("live");
      await shot(page, "leaderboard-live-discord");

      // Bob turns anonymous: Alice's board shows him as Anonymous, live as well.
      await b.getByRole("button", { name: "Back to Lobby" }).click();
      await b.getByRole("tab", { name: "Leaderboard" }).click();
      await b.getByRole("switch", { name: "Anonymous" }).click();
      await expect.poll(() => a.getByRole("list", { name: "Balance leaderboard" }).textContent(), { timeout: 20_000 }).not.toContain("Bob");
      expect(await rowOf(a, "Anonymous").textContent()).toContain(shown);
      // The masked row carries a stand-in, not Bob's id: it is not taken for Alice's own row either.
      expect(await rowOf(a, "Anonymous").textContent()).not.toContain("(You)");
      // Bob still sees his own name.
      expect(await rowOf(b, "Bob").textContent()).toContain("(You)");
      expect(alice.rest.slice(restBefore)).toEqual([]);

      // The period switch subscribes to today's net winnings: Bob's net is his coin flip's result.
      await a.getByRole("radio", { name: "Today" }).click();
      await expect.poll(() => alice.joins.at(-1)).toMatchObject({ board: "balance", scope: "global", window: "day" });
      const net = bobBalance - 1000;
      await expect
        .poll(() => rowOf(a, "Anonymous").textContent(), { timeout: 20_000 })
        .toContain(`${net > 0 ? "+" : "-"}${Math.abs(net).toLocaleString("en-US")}`);

      // The scope switch: this server (the guild of the launch), then this voice channel (the instance).
      await a.getByRole("radio", { name: "This server" }).click();
      await expect.poll(() => alice.joins.at(-1)).toMatchObject({ board: "balance", scope: "guild", guildId: GUILD, window: "day" });
      await a.getByRole("radio", { name: "All-time" }).click();
      await a.getByRole("radio", { name: "This voice channel" }).click();
      await expect
        .poll(() => alice.joins.at(-1))
        .toMatchObject({ board: "balance", scope: "instance", instanceId: "i-leaderboard-1", window: "all" });
      await a.locator('[data-testid="leaderboard-link"][data-link="live"]').waitFor({ timeout: 20_000 });
      await expect.poll(() => a.getByTestId("showing").textContent()).toBe("Showing 1 - 2 of 2 players");
      expect(alice.rest.slice(restBefore)).toEqual([]);
      await shot(page, "leaderboard-scopes-discord");
      await page.close();
      await t.expectLedgerInvariant();
    },
  );

  it("falls back to polling REST, with the chosen scope and period, while the room cannot be joined", { timeout: 120_000 }, async () => {
    const carolId = "100000000000000713";
    t.discord.guilds.set(carolId, [GUILD]);
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const carol = track(page, 0);
    // The leaderboard room is unreachable (the casino room is not affected).
    await page.route(/\/matchmake\/[^/]+\/leaderboard$/, (route) => route.abort());
    await page.goto(host.url(`${t.baseUrl}/`, { players: [`${carolId}:Carol`], instanceId: "i-leaderboard-2" }));
    const app = page.frameLocator("iframe").first();
    await acceptTerms(app);
    await app.getByRole("tab", { name: "Leaderboard" }).click();
    await app.locator('[data-testid="leaderboard-link"][data-link="polling"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => carol.rest.some((r) => r === "/api/leaderboard?page=1&limit=25")).toBe(true);
    await expect.poll(() => rowOf(app, "Carol").textContent(), { timeout: 20_000 }).toContain("(You)");

    await app.getByRole("radio", { name: "This week" }).click();
    await app.getByRole("radio", { name: "This server" }).click();
    await expect.poll(() => carol.rest).toContain(`/api/leaderboard?page=1&limit=25&scope=guild&guildId=${GUILD}&window=week`);
    await page.close();
  });
});
