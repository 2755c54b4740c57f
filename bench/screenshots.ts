import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { GAMES } from "@casino/common/catalogue";
import { freePorts, startServer } from "./lib/cluster";
import { freshDatabase } from "./lib/database";

/**
 * `npm run screenshots`: every screen (lobby and its tabs, settings, verifier, fairness, terms, privacy)
 * and every game's table, at 390×844 and 1280×800, in dark and light mode, as a new guest sees them on
 * the production build (`npm run build` first) served by a local server on a fresh PostgreSQL
 * database. All go to test-artifacts/screenshots/ (not committed); the few shown in the README are
 * copied to docs/screenshots/, so running this keeps them current.
 */
const { values } = parseArgs({
  options: {
    out: { type: "string", default: "test-artifacts/screenshots" },
    only: { type: "string" },
    chromium: { type: "string", default: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
  },
});
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "client/dist");
const OUT = join(ROOT, values.out);
const DOCS = join(ROOT, "docs/screenshots");

const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const MODES = ["dark", "light"] as const;
/** The pictures the README shows: `<screen>-<viewport>-<mode>`. */
const IN_README = [
  "lobby-phone-dark",
  "blackjack-phone-light",
  "fairness-phone-dark",
  "roulette-desktop-dark",
  "blackjack-table-desktop-dark",
];
/**
 * Guests who keep the shared blackjack table busy for its picture: they bet, press Ready and stand. With
 * the pictured player the table is full (7 seats).
 */
const TABLE_GUESTS = 6;

type Screen = { name: string; open(page: Page, base: string): Promise<void> };

const settle = async (page: Page) => {
  await page.waitForLoadState("networkidle").catch(() => undefined);
  // No hover state left by the last click.
  await page.mouse.move(0, 0);
  // Entrance transitions (fades, the wheel) end within this; a picture taken mid-fade is useless.
  await page.waitForTimeout(700);
};

const lobby = async (page: Page, base: string) => {
  if (!page.url().startsWith(base) || new URL(page.url()).pathname !== "/") await page.goto(base);
  await page.getByTestId("lobby-heading").waitFor({ timeout: 30_000 });
  // Back on the Games tab ("Play" on a phone) after a picture of another tab.
  const games = page.getByRole("tab", { name: /^(Games|Play)$/ });
  if ((await games.getAttribute("aria-selected")) !== "true") await games.click();
  await page.getByTestId("game-tile-dice").waitFor({ timeout: 30_000 });
};

const tab = (name: RegExp) => async (page: Page, base: string) => {
  await lobby(page, base);
  await page.getByRole("tab", { name }).click();
};

const SCREENS: Screen[] = [
  { name: "lobby", open: lobby },
  // A phone's tab labels are the short ones ("Spin", "Ranks").
  { name: "daily-spin", open: tab(/^(Daily )?Spin$/) },
  { name: "leaderboard", open: tab(/^(Leaderboard|Ranks)$/) },
  ...["settings", "verify", "fairness", "terms", "privacy"].map((path) => ({
    name: path,
    open: async (page: Page, base: string) => {
      await page.goto(`${base}/${path}`);
      await page.locator("main").first().waitFor({ timeout: 30_000 });
    },
  })),
  ...GAMES.map((game) => ({
    name: game.id,
    open: async (page: Page, base: string) => {
      await lobby(page, base);
      await page.getByTestId(`game-tile-${game.id}`).getByRole("button", { name: "Play Now" }).click();
      await page.getByTestId(`table-${game.id}`).waitFor({ timeout: 30_000 });
    },
  })),
];

async function shoot(browser: Browser, base: string, viewport: keyof typeof VIEWPORTS, mode: (typeof MODES)[number]) {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], colorScheme: mode });
  // As the settings page and the guest notice leave them on a device.
  await context.addInitScript(`localStorage.setItem("theme-mode", "${mode}"); localStorage.setItem("guest-notice-dismissed", "true");`);
  const page = await context.newPage();
  try {
    for (const screen of SCREENS.filter((s) => !values.only || values.only.split(",").includes(s.name))) {
      const name = `${screen.name}-${viewport}-${mode}`;
      try {
        await screen.open(page, base);
        await settle(page);
        const file = join(OUT, `${name}.png`);
        await page.screenshot({ path: file });
        if (IN_README.includes(name)) copyFileSync(file, join(DOCS, `${name}.png`));
        console.log(`${name}.png`);
      } catch (error) {
        console.error(`${name}: not taken (${(error as Error).message.split("\n")[0]})`);
      }
      // Back to the lobby for the next screen: a table's own Back to Lobby, else a fresh load.
      const back = page.getByRole("button", { name: "Back to Lobby" });
      if (await back.isVisible().catch(() => false)) await back.click();
    }
  } finally {
    await context.close();
  }
}

/** A guest at the shared blackjack table: seated at the first free seat, betting, ready and standing every round. */
async function tableGuest(browser: Browser, base: string, stake: number, stop: { stopped: boolean }): Promise<{ done: Promise<void> }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  await context.addInitScript(`localStorage.setItem("guest-notice-dismissed", "true");`);
  const page = await context.newPage();
  await lobby(page, base);
  await page.getByTestId("join-table-blackjack").click();
  const table = page.locator('[data-testid="bj-table"]:not([data-phase="connecting"])');
  await table.waitFor({ timeout: 30_000 });
  await page.locator('[data-testid^="table-sit-"]').first().click();
  const attr = (name: string) => page.getByTestId("bj-table").getAttribute(name);
  const click = async (id: string) => {
    const b = page.getByTestId(id);
    if ((await b.isVisible().catch(() => false)) && (await b.isEnabled().catch(() => false)))
      await b.click({ timeout: 2_000 }).catch(() => undefined);
  };
  const play = (async () => {
    while (!stop.stopped) {
      const [phase, toAct, mine] = await Promise.all([attr("data-phase"), attr("data-to-act"), attr("data-my-seat")]);
      if (phase === "betting") {
        if (
          await page
            .getByTestId("bet-button")
            .isEnabled()
            .catch(() => false)
        ) {
          // The betting window may close between the look and the fill: the next pass tries again.
          await page
            .getByRole("textbox", { name: "Bet amount" })
            .fill(String(stake), { timeout: 2_000 })
            .catch(() => undefined);
          await click("bet-button");
        }
        await click("table-ready");
      } else if (mine && toAct === mine) {
        await click(phase === "insurance" ? "table-insurance-decline" : "table-stand");
      }
      await page.waitForTimeout(300);
    }
    await context.close();
  })();
  return { done: play };
}

/**
 * The shared blackjack table with several seats taken: the guests play, and the pictured player sits,
 * bets and is shown on their turn (or the settled round, when the dealer's blackjack ends it at once).
 */
async function shootTable(browser: Browser, base: string, viewport: keyof typeof VIEWPORTS, mode: (typeof MODES)[number]) {
  const name = `blackjack-table-${viewport}-${mode}`;
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], colorScheme: mode });
  await context.addInitScript(`localStorage.setItem("theme-mode", "${mode}"); localStorage.setItem("guest-notice-dismissed", "true");`);
  const page = await context.newPage();
  try {
    await lobby(page, base);
    await page.getByTestId("join-table-blackjack").click();
    await page.locator('[data-testid="bj-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid^="table-sit-"]').first().click();
    const attr = (n: string) => page.getByTestId("bj-table").getAttribute(n);
    for (let round = 0; round < 8; round++) {
      while ((await attr("data-phase")) !== "betting") await page.waitForTimeout(200);
      await page.getByRole("textbox", { name: "Bet amount" }).fill("25");
      await page.getByTestId("bet-button").click();
      await page.getByTestId("table-ready").click();
      let phase = await attr("data-phase");
      for (let i = 0; i < 300 && phase === "betting"; i++) {
        await page.waitForTimeout(100);
        phase = await attr("data-phase");
      }
      // Our turn, or a round the dealer's blackjack settled at once.
      for (let i = 0; i < 600; i++) {
        const [p, toAct, mine] = await Promise.all([attr("data-phase"), attr("data-to-act"), attr("data-my-seat")]);
        if (p === "turns" && toAct === mine) break;
        if (p === "settled" || p === "betting") break;
        if (p === "insurance" && toAct === mine) await page.getByTestId("table-insurance-decline").click();
        await page.waitForTimeout(100);
      }
      if ((await attr("data-phase")) !== "turns") continue;
      await settle(page);
      const file = join(OUT, `${name}.png`);
      await page.screenshot({ path: file });
      if (IN_README.includes(name)) copyFileSync(file, join(DOCS, `${name}.png`));
      console.log(`${name}.png`);
      await page.getByTestId("table-stand").click();
      // Give the seat up (at the round's end), so the next picture's player finds the table with a free
      // seat instead of this one held for its reconnection grace.
      await page.getByTestId("table-leave").click();
      for (let i = 0; i < 300 && (await attr("data-my-seat")); i++) await page.waitForTimeout(100);
      return;
    }
    console.error(`${name}: not taken (no turn in 8 rounds)`);
  } catch (error) {
    console.error(`${name}: not taken (${(error as Error).message.split("\n")[0]})`);
  } finally {
    await context.close();
  }
}

async function main() {
  if (!existsSync(join(DIST, "index.html"))) throw new Error("client/dist is missing: run `npm run build` first");
  mkdirSync(OUT, { recursive: true });
  mkdirSync(DOCS, { recursive: true });
  const db = await freshDatabase("casino_screenshots");
  const server = await startServer(await freePorts(1), {
    HOST: "127.0.0.1",
    DATABASE_URL: db.url,
    REDIS_URL: "",
    CLIENT_DIST: DIST,
    NODE_ENV: "production",
    SESSION_SECRET: "screenshots-secret-screenshots-secret-0123",
  });
  const browser = await chromium.launch({
    executablePath: values.chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
  });
  try {
    for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[])
      for (const mode of MODES) await shoot(browser, server.url, viewport, mode);
    if (!values.only || values.only.split(",").includes("blackjack-table")) {
      const stop = { stopped: false };
      const guests: { done: Promise<void> }[] = [];
      for (let i = 0; i < TABLE_GUESTS; i++) guests.push(await tableGuest(browser, server.url, 10 * (i + 1), stop));
      try {
        for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[])
          for (const mode of MODES) await shootTable(browser, server.url, viewport, mode);
      } finally {
        stop.stopped = true;
        await Promise.all(guests.map((g) => g.done));
      }
    }
    console.log(`written to ${values.out}/; README pictures in docs/screenshots/`);
  } finally {
    await browser.close();
    await server.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
