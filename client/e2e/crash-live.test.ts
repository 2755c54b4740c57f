import { describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { crashCashOutPayout, crashReachedAtMs } from "@casino/common";
import { ManualClock } from "../../server/src/platform/clock";
import type { Page } from "playwright-core";
import { ARTIFACTS, DESKTOP, PHONE } from "./support";
import { history, openAsGuest, openGame, serverBalance, shownBalance, storeTheme, type ThemeChoice } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * The lobby's Crash tile opens the live round: the public shared room's (a guest plays outside
 * Discord), with the bet panel of every table. A guest bets in the betting phase, watches the
 * multiplier rise, cashes out by hand, and in a later round is cashed out by the automatic target; every
 * coin is read back from the server (the bet's row in the database, REST history and balance).
 *
 * The room runs on a ManualClock: a phase lasts until the test moves the clock past it, and the test
 * reads each round's crash point in the database (its secret) to choose a round with room for a
 * cash-out before the bust.
 */
const clock = new ManualClock(Date.now());
const CRASH_ENV = {
  CRASH_BETTING_MS: "60000",
  CRASH_BUSTED_MS: "60000",
  CRASH_TICK_MS: "50",
  CRASH_CURVE_RATE: "0.0004",
};
const RATE = Number(CRASH_ENV.CRASH_CURVE_RATE);
const STAKE = 20;
const SMALL_PHONE = { width: 360, height: 640 };

const { server: t, browser } = setupBrowserApp({ clock, env: CRASH_ENV });

const query = <T>(sql: string, params: unknown[]) => t.app.services.db.run((em) => em.query(sql, params) as Promise<T[]>);
const roundOf = async (round: string) =>
  (
    await query<{ crash_point: string; game_hash: string; rounding: number }>(
      `SELECT crash_point, game_hash, rounding FROM crash_rounds WHERE id = $1`,
      [round],
    )
  )[0]!;
const betOf = async (round: string, playerId: string) =>
  (
    await query<{ amount: string; status: string; cashed_out_at: string | null; payout: string; settled_by: string | null }>(
      `SELECT amount, status, cashed_out_at, payout, settled_by FROM crash_bets WHERE round_id = $1 AND player_id = $2`,
      [round, playerId],
    )
  )[0]!;

const room = (page: Page) => page.getByTestId("crash-room");
const roundId = async (page: Page) => (await room(page).getAttribute("data-round")) ?? "";
/** The multiplier the table shows while the round runs, in hundredths ("1.23×" → 123). */
const shownMultiplier = async (page: Page) =>
  Math.round(Number(((await page.getByTestId("crash-room-multiplier").textContent()) ?? "").replace(/[^\d.]/g, "")) * 100);

/** Waits for the betting phase of a round other than `after`, and returns it with its crash point (hundredths). */
async function nextBetting(page: Page, after: string | null): Promise<{ round: string; crashPoint: number; gameHash: string }> {
  const fresh = after ? `:not([data-round="${after}"])` : "";
  await page.locator(`[data-testid="crash-room"][data-phase="betting"]${fresh}`).waitFor({ timeout: 20_000 });
  const round = await roundId(page);
  const row = await roundOf(round);
  expect(row.rounding, "the rounding rule of a new round").toBe(2);
  return { round, crashPoint: Number(row.crash_point), gameHash: row.game_hash };
}

/** Moves the clock to the bust of `round` and past its busted phase; the table shows the bust on the way. */
async function finish(page: Page, round: string, crashPoint: number, runStarted: boolean) {
  if (!runStarted) {
    await clock.advance(Number(CRASH_ENV.CRASH_BETTING_MS));
    await page.locator(`[data-testid="crash-room"][data-round="${round}"]:is([data-phase="running"], [data-phase="busted"])`).waitFor();
  }
  await clock.advance(crashReachedAtMs(crashPoint, RATE));
  await page.locator(`[data-testid="crash-room"][data-round="${round}"][data-phase="busted"]`).waitFor({ timeout: 20_000 });
  await clock.advance(Number(CRASH_ENV.CRASH_BUSTED_MS));
}

/**
 * Places the panel's bet: the amount through the field and ½ (so the panel's own moves are used), then
 * Place bet, clicked or by the main key (Space, once no field has the focus).
 */
async function placeBet(page: Page, auto: string, byKey = false) {
  await page.getByTestId("bet-amount").fill(String(STAKE * 2));
  await page.getByTestId("bet-half").click();
  await expect.poll(() => page.getByTestId("bet-amount").inputValue()).toBe(String(STAKE));
  await page.getByTestId("crash-room-auto").fill(auto);
  if (byKey) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect.poll(() => page.getByTestId("bet-button").isEnabled()).toBe(true);
    await page.keyboard.press("Space");
  } else {
    await page.getByTestId("bet-button").click();
  }
  await page.locator('[data-testid="crash-room-my-bet"][data-status="active"]').waitFor({ timeout: 20_000 });
}

/**
 * How the Cash out button's label sits at this viewport: its lines (each the height of one line of its
 * text, none wider than the button) and whether anything is clipped.
 */
const cashOutLayout = (page: Page) =>
  page.getByTestId("crash-cash-out").evaluate((button) => {
    const lines = [...button.querySelectorAll<HTMLElement>('[data-testid="crash-cash-out-line"]')];
    const box = button.getBoundingClientRect();
    return {
      lines: lines.map((l) => Math.round(l.getBoundingClientRect().height / parseFloat(getComputedStyle(l).lineHeight))),
      clipped: button.scrollWidth > button.clientWidth || lines.some((l) => l.scrollWidth > l.clientWidth),
      inView: box.left >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight,
    };
  });

/**
 * Runs in the page before its scripts: records each offline notice of the Live view (the bet panel's and
 * the table's "Reconnecting…") that is ever in the document, however briefly.
 */
function watchOfflineNotices(): void {
  const seen: string[] = [];
  (window as unknown as { offlineNotices: string[] }).offlineNotices = seen;
  const check = () => {
    for (const id of ["bet-offline", "crash-room-reconnecting"])
      if (!seen.includes(id) && document.querySelector(`[data-testid="${id}"]`)) seen.push(id);
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}
const offlineNotices = (page: Page) => page.evaluate(() => (window as unknown as { offlineNotices: string[] }).offlineNotices);

/** The table again in the other theme: the device's stored mode changed, as the settings page leaves it, and the page reloaded. */
async function themed(page: Page, mode: ThemeChoice["mode"], name: string) {
  // the context's scripts run at each load in the order added: this one stores the mode after the first
  await page.context().addInitScript(storeTheme, { mode });
  await page.reload();
  await page.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
  await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(mode === "dark");
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
}

describe("the Crash tile opens the live round", () => {
  it.each([
    { viewport: PHONE, theme: "dark" as const, other: "light" as const },
    { viewport: DESKTOP, theme: "light" as const, other: "dark" as const },
  ])(
    "$viewport.width×$viewport.height: a bet, the rise, a cash-out by hand and an automatic one, paid as the server records",
    { timeout: 180_000 },
    async ({ viewport, theme, other }) => {
      const size = `${viewport.width}x${viewport.height}`;
      const { context, page, session } = await openAsGuest(browser, t.baseUrl, viewport, { mode: theme });
      try {
        const s = await session();
        await openGame(page, "crash");
        // Live is the table's first mode, chosen when the tile opens it; Instant is the other.
        expect(await page.getByRole("tab", { name: "Live" }).getAttribute("aria-selected")).toBe("true");
        expect(await page.getByRole("tab", { name: "Instant" }).getAttribute("aria-selected")).toBe("false");
        await page.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
        await expect.poll(() => page.getByTestId("crash-room-scope").textContent()).toContain("Public room");
        for (const id of ["bet-amount", "bet-half", "bet-double", "bet-max", "crash-room-auto", "bet-button"]) {
          expect(await page.getByTestId(id).count(), id).toBe(1);
        }
        // One set of bet lists: the round's bets and the player's own ("My bets"), not the player's twice.
        expect(await page.getByRole("region", { name: /bets/i }).count()).toBe(2);
        expect(await page.getByTestId("crash-room-round-bets").count()).toBe(1);
        expect(await page.getByTestId("my-bets").count()).toBe(1);
        expect(await page.getByTestId("live-feed").count()).toBe(0);
        // The main key is listed: Place bet, and Cash out while the bet is in the round.
        await page.getByTestId("hotkeys-button").click();
        await expect.poll(() => page.getByTestId("hotkeys-overlay").textContent()).toContain("Cash out while your bet is in the round");
        await page.keyboard.press("Escape");
        await page.getByTestId("hotkeys-overlay").waitFor({ state: "detached" });
        // On the desktop the bet and the cash-out by hand are made with the main key (Space), on the phone by touch.
        const byKey = viewport === DESKTOP;

        // 1. A cash-out by hand, in a round whose crash point leaves room for one (the test reads it).
        let last: string | null = null;
        let hand: { round: string; at: number; payout: number } | null = null;
        for (let attempt = 0; attempt < 8 && !hand; attempt++) {
          const { round, crashPoint, gameHash } = await nextBetting(page, last);
          last = round;
          if (crashPoint < 130) {
            await finish(page, round, crashPoint, false);
            continue;
          }
          await placeBet(page, "", byKey);
          await page.screenshot({ path: `${ARTIFACTS}/crash-live-betting-${size}-${theme}.png` });
          await clock.advance(Number(CRASH_ENV.CRASH_BETTING_MS));
          await page.locator(`[data-testid="crash-room"][data-round="${round}"][data-phase="running"]`).waitFor({ timeout: 20_000 });
          // The multiplier rises while the player watches: the table shows one value, then a higher one.
          const target = Math.min(160, Math.floor((100 + crashPoint) / 2));
          await clock.advance(crashReachedAtMs(Math.floor((100 + target) / 2), RATE));
          await expect.poll(() => shownMultiplier(page), { timeout: 20_000 }).toBeGreaterThan(100);
          const first = await shownMultiplier(page);
          await clock.advance(crashReachedAtMs(target, RATE) - crashReachedAtMs(Math.floor((100 + target) / 2), RATE));
          await expect.poll(() => shownMultiplier(page), { timeout: 20_000 }).toBeGreaterThan(first);
          const second = await shownMultiplier(page);
          await page.screenshot({ path: `${ARTIFACTS}/crash-live-running-${size}-${theme}.png` });
          // The Cash out label (the payout, exact and in whole coins) sits on its lines, nothing clipped,
          // at this size and, on the phone, at the smallest one.
          for (const at of viewport === PHONE ? [SMALL_PHONE, PHONE] : [viewport]) {
            await page.setViewportSize(at);
            const layout = await cashOutLayout(page);
            expect(layout.clipped, `${at.width}×${at.height}`).toBe(false);
            expect(layout.inView, `${at.width}×${at.height}`).toBe(true);
            expect(layout.lines.length).toBeGreaterThanOrEqual(1);
            expect(layout.lines, `${at.width}×${at.height}: each line one line high`).toEqual(layout.lines.map(() => 1));
          }
          if (byKey) await page.keyboard.press("Space");
          else await page.getByRole("button", { name: /^Cash out/ }).click();
          const mine = page.locator('[data-testid="crash-room-my-bet"][data-status="cashed_out"]');
          await mine.waitFor({ timeout: 20_000 });
          const bet = await betOf(round, s.playerId);
          expect(bet).toMatchObject({ amount: String(STAKE), status: "cashed_out", settled_by: "player" });
          const at = Number(bet.cashed_out_at);
          expect(at).toBeGreaterThanOrEqual(second);
          expect(at).toBeLessThan(crashPoint);
          // stake × the cash-out multiplier, made whole by rule 2 from the bet's own stream
          const expected = crashCashOutPayout(2, { gameHash, playerId: s.playerId, amount: STAKE, cashedOutAt: at }).payout;
          expect(Number(bet.payout)).toBe(expected);
          expect([Math.floor((STAKE * at) / 100), Math.ceil((STAKE * at) / 100)]).toContain(expected);
          expect(await mine.textContent()).toContain(`Cashed out @ ${(at / 100).toFixed(2)}×`);
          await page.screenshot({ path: `${ARTIFACTS}/crash-live-cashed-${size}-${theme}.png` });
          hand = { round, at, payout: expected };
          await finish(page, round, crashPoint, true);
        }
        expect(hand, "a round with room for a cash-out by hand").not.toBeNull();

        // 2. An automatic cash-out: the target set in the panel is paid at exactly that multiplier.
        let auto: { round: string; at: number; payout: number } | null = null;
        for (let attempt = 0; attempt < 8 && !auto; attempt++) {
          const { round, crashPoint, gameHash } = await nextBetting(page, last);
          last = round;
          if (crashPoint < 120) {
            await finish(page, round, crashPoint, false);
            continue;
          }
          const at = Math.min(250, Math.floor((100 + crashPoint) / 2));
          await placeBet(page, (at / 100).toFixed(2));
          await finish(page, round, crashPoint, false);
          const bet = await betOf(round, s.playerId);
          expect(bet).toMatchObject({ amount: String(STAKE), status: "cashed_out", settled_by: "auto", cashed_out_at: String(at) });
          const expected = crashCashOutPayout(2, { gameHash, playerId: s.playerId, amount: STAKE, cashedOutAt: at }).payout;
          expect(Number(bet.payout)).toBe(expected);
          auto = { round, at, payout: expected };
        }
        expect(auto, "a round with room for an automatic cash-out").not.toBeNull();

        // The server's record: REST history holds both rounds as paid, and the balance is what they moved.
        const rows = (await history(t.baseUrl, s)).filter((r) => r.gameType === "crash");
        expect(rows.map((r) => [r.betAmount, r.payout]).sort()).toEqual(
          [
            [STAKE, hand!.payout],
            [STAKE, auto!.payout],
          ].sort(),
        );
        const balance = 1000 - 2 * STAKE + hand!.payout + auto!.payout;
        expect(await serverBalance(t.baseUrl, s)).toBe(balance);
        await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
        await t.expectLedgerInvariant();

        // The other theme, reloaded on the same table.
        await themed(page, other, `crash-live-${size}-${other}`);
      } finally {
        await context.close();
      }
    },
  );

  it("says nothing of a lost connection while the room first connects, and says it when the room's connection drops", async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      const s = await session();
      await openGame(page, "crash");
      // reloaded on the table, with the watch in place before the page's first script: the whole first connect is seen
      await context.addInitScript(watchOfflineNotices);
      await page.reload();
      await page.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
      await page.getByTestId("crash-room-round-bets").waitFor();
      expect(await offlineNotices(page)).toEqual([]);

      // The room's socket cut from the server's side, as a network drop would: the notice shows, then the room comes back.
      const sockets = (await matchMaker.query({ name: "crash" }))
        .map((r) => matchMaker.getLocalRoomById(r.roomId))
        .flatMap((r) => (r ? [...r.clients] : []))
        .filter((c) => (c.auth as { playerId?: string } | undefined)?.playerId === s.playerId);
      expect(sockets).toHaveLength(1);
      (sockets[0]!.ref as unknown as { terminate(): void }).terminate();
      await expect.poll(() => offlineNotices(page), { timeout: 20_000 }).toContain("bet-offline");
      await page.getByTestId("bet-offline").waitFor({ state: "detached", timeout: 30_000 });
      await page.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
    } finally {
      await context.close();
    }
  });
});
