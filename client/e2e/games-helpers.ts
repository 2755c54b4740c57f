import { expect } from "vitest";
import type { Browser, BrowserContext, BrowserContextOptions, Frame, Page } from "playwright-core";
import { ARTIFACTS } from "./support";

/**
 * What the game-table browser tests share: a fresh guest per context (its session read from
 * the page's own `POST /api/guest`), the shell's agreed selectors (lobby tile with "Play Now", header
 * balance), and the server's record of the player (REST, with the guest's token).
 */

/**
 * Where a table is driven: a page of its own (standalone), or the activity's frame inside the Discord
 * host. Everything below that only finds elements and runs scripts works on either.
 */
export type Table = Page | Frame;

export interface GuestPage {
  context: BrowserContext;
  page: Page;
  /** the guest's session, as the page received it */
  session(): Promise<{ playerId: string; token: string }>;
}

export interface ThemeChoice {
  mode: "light" | "dark";
  /** "H S% L%"; the default colour when absent */
  color?: string;
}

/**
 * A new browser context (so a new guest with the starting balance) on the app's root; `theme` is the
 * mode and colour this device has stored, as the settings page leaves them; `options`: more of the
 * context's options (`reducedMotion: "no-preference"` for a test about an animation).
 */
export async function openAsGuest(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1280, height: 800 },
  theme?: ThemeChoice,
  options: BrowserContextOptions = {},
): Promise<GuestPage> {
  const context = await browser.newContext({ viewport, ...options });
  if (theme) await context.addInitScript(storeTheme, theme);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const guest = page.waitForResponse((r) => r.url().endsWith("/api/guest") && r.request().method() === "POST", { timeout: 20_000 });
  await page.goto(baseUrl);
  const session = guest.then(async (r) => {
    const body = (await r.json()) as { session_token: string; player: { id: string } };
    return { playerId: body.player.id, token: body.session_token };
  });
  await expect.poll(() => page.getByTestId("balance").textContent(), { timeout: 20_000 }).toMatch(/\d/);
  // a new guest's first visit shows the shell's notice, whose overlay takes every click until it is gone
  const notice = page.getByRole("dialog", { name: "You're Playing as a Guest" });
  await notice.getByRole("button", { name: "Got it, Continue as Guest" }).click({ timeout: 20_000 });
  await notice.waitFor({ state: "detached", timeout: 20_000 });
  expect(errors, "page errors").toEqual([]);
  return { context, page, session: () => session };
}

/** Runs in the page before its scripts: the theme as the settings page stores it on this device. */
export function storeTheme(theme: ThemeChoice): void {
  localStorage.setItem("theme-mode", theme.mode);
  if (theme.color) localStorage.setItem("theme-color", theme.color);
}

/** Opens a game from the lobby tile, as a player does (a reload of the game's address reopens the game itself). */
export async function openGame(page: Table, gameId: string): Promise<void> {
  const table = page.getByTestId(`table-${gameId}`);
  const tile = page.getByTestId(`game-tile-${gameId}`);
  await table.or(tile).first().waitFor({ timeout: 20_000 });
  if (await table.isVisible()) return;
  await tile.getByRole("button", { name: "Play Now" }).click();
  await table.waitFor({ state: "visible", timeout: 20_000 });
  // A table that plays in a shared room (crash's Live view) is ready once the room has answered: until
  // then its controls change under the test (the bet button is enabled as the room connects).
  await page.locator('[data-testid="crash-room"][data-phase="connecting"]').waitFor({ state: "detached", timeout: 20_000 });
}

export async function backToLobby(page: Table): Promise<void> {
  await page.getByRole("button", { name: "Back to Lobby" }).click();
}

/** The header balance as a number ("1,234" → 1234). */
export async function shownBalance(page: Table): Promise<number> {
  const text = (await page.getByTestId("balance").textContent()) ?? "";
  const digits = text.match(/-?[\d,]+/)?.[0] ?? "";
  return Number(digits.replace(/,/g, ""));
}

export async function api<T>(baseUrl: string, path: string, token: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, `${path}`).toBe(200);
  return (await res.json()) as T;
}

export interface HistoryRow {
  id: string;
  gameType: string;
  betAmount: number;
  payout: number;
  result: string;
  params: any;
  actions: any[];
  outcome: any;
  createdAt: string;
}

export const history = async (baseUrl: string, s: { playerId: string; token: string }) =>
  (await api<{ items: HistoryRow[] }>(baseUrl, `/api/player/${s.playerId}/history?limit=100`, s.token)).items;

export const serverBalance = async (baseUrl: string, s: { playerId: string; token: string }) =>
  (await api<{ balance: number }>(baseUrl, `/api/player/${s.playerId}`, s.token)).balance;

/** Waits until no request of the table is in flight. */
export async function settled(page: Table): Promise<void> {
  await page.locator('[data-testid="bet-panel"][data-pending="false"]').waitFor({ timeout: 30_000 });
}

/**
 * Clicks a control and waits for the server's answer to it: until the panel has gone from pending back
 * to idle. Waiting for "not pending" alone could pass before the click's request has even started.
 */
export async function press(page: Table, testId: string): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __answered?: boolean; __answerWatch?: MutationObserver };
    w.__answerWatch?.disconnect();
    w.__answered = false;
    const watch = new MutationObserver((records) => {
      // a record whose old value is "true" is a request of the table that has been answered
      if (records.some((r) => r.oldValue === "true" && (r.target as Element).getAttribute("data-pending") === "false")) {
        w.__answered = true;
        watch.disconnect();
      }
    });
    watch.observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-pending"] });
    w.__answerWatch = watch;
  });
  await page.getByTestId(testId).click();
  await page.waitForFunction(() => (window as unknown as { __answered?: boolean }).__answered === true, undefined, { timeout: 30_000 });
}

export async function setAmount(page: Table, amount: number): Promise<void> {
  await page.getByTestId("bet-amount").fill(String(amount));
}

/**
 * The round on the table is settled: no round is open, and its outcome is shown (once the table's
 * reveal has played: the result's slot says `revealing` until then, which is waited for).
 */
export const roundDone = async (page: Table) => {
  if ((await page.getByTestId("bet-panel").getAttribute("data-locked")) !== "false") return false;
  await page.locator('[data-testid="round-slot"]:not([data-round="revealing"])').waitFor({ timeout: 30_000 });
  return (await page.getByTestId("round-slot").getAttribute("data-round")) === "shown";
};

export async function isEnabled(page: Table, testId: string): Promise<boolean> {
  const el = page.getByTestId(testId);
  return (await el.count()) > 0 && (await el.isEnabled());
}

/** The settled round as the table shows it. */
export async function shownResult(page: Table) {
  const el = page.getByTestId("round-result");
  await el.waitFor({ timeout: 20_000 });
  const attr = async (name: string) => (await el.getAttribute(name)) ?? "";
  return {
    result: await attr("data-result"),
    stake: Number(await attr("data-stake")),
    payout: Number(await attr("data-payout")),
    balance: Number(await attr("data-balance")),
    text: (await el.textContent()) ?? "",
  };
}

/** Waits until the outcome banner is shown and drawn in full (animations are off unless the file plays them). */
export async function revealed(page: Table): Promise<void> {
  await page.waitForFunction(
    () => {
      const slot = document.querySelector('[data-testid="round-slot"][data-round="shown"]');
      const el = slot?.querySelector('[data-testid="round-result"]');
      return !!el && getComputedStyle(el).opacity === "1";
    },
    undefined,
    { timeout: 30_000 },
  );
}

/**
 * What scrolls sideways: the page itself, or an element of the table whose content is wider than it
 * (each named by its test id or classes).
 */
export async function sidewaysScroll(page: Table): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) wide.push(`the page (${root.scrollWidth} px in ${root.clientWidth})`);
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid^="table-"] *')) {
      const overflow = getComputedStyle(el).overflowX;
      if ((overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth) {
        wide.push(`${el.dataset.testid ?? el.className} (${el.scrollWidth} px in ${el.clientWidth})`);
      }
    }
    return wide;
  });
}

export async function screenshots(page: Page, name: string): Promise<void> {
  if (await roundDone(page)) await revealed(page);
  await page.screenshot({ path: `${ARTIFACTS}/games-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${ARTIFACTS}/games-${name}-390.png`, fullPage: true });
  expect(await sidewaysScroll(page), "what scrolls sideways on a 390 px phone").toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

export const MAX_STEPS = 60;

/** Acts in an open round until it is over: `next` names the control to press now. */
export async function playOut(page: Table, next: () => Promise<string | null>): Promise<void> {
  for (let step = 0; step < MAX_STEPS && !(await roundDone(page)); step++) {
    let control = await next();
    if (!control) {
      // The answer may have ended the round while its reveal still plays (the panel stays locked until
      // the table shows the result): wait for that, or for an action to come back.
      await page
        .waitForFunction(() => document.querySelector('[data-testid="bet-panel"]')?.getAttribute("data-locked") === "false", undefined, {
          timeout: 10_000,
        })
        .catch(() => undefined);
      if (await roundDone(page)) break;
      control = await next();
    }
    if (!control) {
      const said = (await page.getByTestId("bet-error").count()) > 0 ? await page.getByTestId("bet-error").textContent() : "";
      throw new Error(`the round is open but no action is available (the panel says: "${said}")`);
    }
    await press(page, control);
  }
  expect(await roundDone(page), "round finished").toBe(true);
}

export const firstEnabled = (page: Table, ids: string[]) => async () => {
  for (const id of ids) if (await isEnabled(page, id)) return id;
  return null;
};

export const cardsIn = async (page: Table, testId: string) =>
  page
    .getByTestId(testId)
    .locator("[data-card]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-card")));

export const attr = async (page: Table, testId: string, name: string) => page.getByTestId(testId).first().getAttribute(name);
