import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { SHARED_ROOM_PUSH, TABLE_MESSAGES, type RevealedShoe, type TableSnapshot } from "@casino/common";
import { basicStrategy } from "@casino/common/games/blackjack/engine";
import { cardName } from "@casino/common/games/cards";
import { Inbox, ask, waitFor } from "../../server/test/room-helpers";
import { setupBrowserApp } from "./browser-app";
import { DESKTOP, PHONE, shot } from "./support";
import { openAsGuest, storeTheme } from "./games-helpers";
import { axeViolations, describeFindings } from "./axe";

/**
 * The verifier page on a whole shoe of the shared blackjack table, in real Chromium against the real
 * server: a player plays a shoe to its cut card at a table (short timers), then the page, opened by the
 * shoe's link without signing in, reads the shoe's public record, deals every round again in the browser
 * and says each matches what the server recorded; a changed id, a shoe still being dealt and a text
 * that is no id are refused, each with its own message; and a guest watching the table follows the
 * fairness panel's link there.
 */
const { server: t, browser } = setupBrowserApp({
  env: {
    TABLE_BETTING_MS: "30000",
    TABLE_TURN_MS: "5000",
    TABLE_SETTLED_MS: "150",
    TABLE_RECONNECT_SECONDS: "30",
    BET_RATE_PER_SECOND: "1000",
  },
  timeout: 120_000,
});

const snap = (state: unknown): TableSnapshot => JSON.parse((state as { snapshot: string }).snapshot);

/**
 * One guest at seat 4 of a public table bets 7 a round and plays basic strategy (insurance taken on
 * even rounds) until the shoe reaches its cut card. The player stays seated without betting, so the
 * next shoe is committed and stays in its first betting window: its seed still secret.
 */
async function playAShoe() {
  const g = await t.guest();
  const room = await t.sdk(g.token).joinOrCreate("blackjack-table", { instanceId: null, freeSeat: true });
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as { snapshot?: string })?.snapshot, 10_000);
  expect((await ask(room, inbox, TABLE_MESSAGES.sit, { seat: 4 })).type).toBe("result");
  await waitFor(() => snap(room.state).shoe !== null, 10_000);
  const first = snap(room.state).shoe!;
  const sent = new Set<string>();
  const once = (key: string, send: () => void) => {
    if (sent.has(key)) return;
    sent.add(key);
    send();
  };
  room.onStateChange((state) => {
    const s = snap(state);
    if (!s.shoe || s.previousShoe) return;
    if (s.phase === "betting")
      once(`bet:${s.shoe.rounds}`, () => {
        room.send(TABLE_MESSAGES.bet, { requestId: `bet-${s.shoe!.id}-${s.shoe!.rounds}`, amount: 7 });
        room.send(TABLE_MESSAGES.ready, { requestId: `ready-${s.shoe!.id}-${s.shoe!.rounds}` });
      });
    const v = s.view;
    if (s.toAct !== 4 || !v) return;
    const seat = v.seats.find((x) => x.seat === 4);
    if (!seat) return;
    const hand = seat.hands[seat.active];
    if (v.phase !== "insurance" && !hand) return;
    once(`${v.round}:${v.phase}:${seat.active}:${hand?.cards.length}:${seat.hands.length}`, () => {
      const action =
        v.phase === "insurance" || !hand
          ? { type: "insurance", take: v.round % 2 === 0 }
          : { type: basicStrategy(hand.cards, v.dealer[0]!, v.actions.includes("double"), v.actions.includes("split")) };
      room.send(TABLE_MESSAGES.act, { requestId: `act-${s.shoe!.id}-${v.round}-${sent.size}`, action });
    });
  });
  await waitFor(() => snap(room.state).previousShoe !== null, 150_000);
  // Every bet, Ready and action was taken (a refused one would have left the turn to the table's timer).
  // Beside the answers, the table only told the connection, once on joining, the id its own seat
  // carries: the player's own, as they are not anonymous.
  expect(inbox.messages.filter((m) => m.type !== "result" && m.type !== SHARED_ROOM_PUSH.self)).toEqual([]);
  expect(inbox.messages.filter((m) => m.type === SHARED_ROOM_PUSH.self).map((m) => m.body)).toEqual([{ playerId: g.player.id }]);
  expect(snap(room.state).previousShoe!.id).toBe(first.id);
  await waitFor(() => snap(room.state).phase === "betting" && snap(room.state).shoe?.id !== first.id, 10_000);
  return { room, finished: first, dealing: snap(room.state).shoe! };
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? "").trim();

describe("verifying a shoe of the blackjack table", () => {
  it("deals every round of a finished shoe again in the browser and finds each as recorded; other ids are refused with their reasons; the table links there", async () => {
    const { room, finished, dealing } = await playAShoe();
    const record = (await t.request("GET", `/api/tables/shoes/${finished.id}`)).body as RevealedShoe;
    expect(record.rounds.length).toBeGreaterThan(10);

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.addInitScript(storeTheme, { mode: "dark" as const });
      // The link the table's fairness panel gives, opened without signing in.
      await page.goto(`${t.baseUrl}/verify?shoe=${finished.id}`);
      const result = page.getByTestId("verify-shoe-result");
      await result.waitFor({ timeout: 30_000 });
      expect(await result.getAttribute("data-matches")).toBe("true");
      expect(await result.getAttribute("data-rounds")).toBe(String(record.rounds.length));
      expect(await text(page, "verify-summary")).toBe(
        `Every round matches the record: all ${record.rounds.length} rounds deal again the same cards, stakes and payouts.`,
      );
      expect(await page.getByTestId("verify-commitment").getAttribute("data-matches")).toBe("true");
      expect(await text(page, "verify-seed-hash")).toBe(finished.serverSeedHash);
      const rounds = page.getByTestId("verify-shoe-round");
      expect(await rounds.count()).toBe(record.rounds.length);
      expect(await page.locator('[data-testid="verify-shoe-round"][data-matches="true"]').count()).toBe(record.rounds.length);
      // The page shows the cards the server recorded: the first round's dealer and seat 4's hand.
      const firstRound = rounds.first();
      const recorded = record.outcomes[0]!;
      expect(await firstRound.textContent()).toContain(`Dealer ${recorded.dealer!.map(cardName).join(" ")}`);
      const seat4 = recorded.seats.find((s) => s.seat === 4)!;
      expect(await firstRound.getByTestId("verify-shoe-seat").first().textContent()).toContain(
        `Seat 4 ${seat4.hands![0]!.map(cardName).join(" ")}`,
      );
      await shot(page, "verify-shoe-desktop-dark");
      const dark = await axeViolations(page);
      expect(dark, describeFindings("shoe verified, dark", dark)).toEqual([]);
      await page.setViewportSize(PHONE);
      await shot(page, "verify-shoe-phone-dark");

      // A changed id names no shoe.
      const changed = finished.id.slice(0, -1) + (finished.id.endsWith("0") ? "1" : "0");
      const idField = page.getByTestId("verify-shoe-id");
      await idField.fill(changed);
      await page.getByTestId("verify-shoe-submit").click();
      const error = page.getByTestId("verify-error");
      await error.waitFor({ timeout: 10_000 });
      expect(await error.textContent()).toBe("No shoe to verifyNo shoe has this id: check it against the table's fairness panel");
      expect(await page.getByTestId("verify-shoe-result").count()).toBe(0);
      expect(new URL(page.url()).search).toBe(`?shoe=${changed}`);

      // The shoe being dealt: its seed is still secret.
      await idField.fill(dealing.id);
      await page.getByTestId("verify-shoe-submit").click();
      await expect
        .poll(() => error.textContent(), { timeout: 10_000 })
        .toMatch(/^This shoe's seed is not revealed yetThis shoe is still being dealt/);

      // Not an id at all.
      await idField.fill("my-shoe");
      await page.getByTestId("verify-shoe-submit").click();
      await expect.poll(() => error.textContent(), { timeout: 10_000 }).toMatch(/^No shoe to verify.*A shoe id is a UUID/);
      await shot(page, "verify-shoe-phone-refused");

      // Light theme, both sizes, on the finished shoe again.
      await page.addInitScript(storeTheme, { mode: "light" as const });
      await page.goto(`${t.baseUrl}/verify?shoe=${finished.id}`);
      await page.locator('[data-testid="verify-shoe-result"][data-matches="true"]').waitFor({ timeout: 30_000 });
      await shot(page, "verify-shoe-phone-light");
      await page.setViewportSize(DESKTOP);
      await shot(page, "verify-shoe-desktop-light");
      const light = await axeViolations(page);
      expect(light, describeFindings("shoe verified, light", light)).toEqual([]);
      expect(errors, "page errors").toEqual([]);
    } finally {
      await context.close();
    }

    // At the table: the fairness panel's link opens the finished shoe on the verifier.
    const guest = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await guest.page.getByTestId("join-table-blackjack").click();
      await guest.page.locator('[data-testid="bj-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
      await guest.page.getByTestId("table-fairness").locator("summary").click();
      const link = guest.page.getByTestId("table-shoe-verifier-link");
      await link.waitFor({ timeout: 10_000 });
      expect(await link.getAttribute("href")).toBe(`/verify?shoe=${finished.id}`);
      await link.click();
      await guest.page.locator('[data-testid="verify-shoe-result"][data-matches="true"]').waitFor({ timeout: 30_000 });
      expect(await guest.page.getByTestId("verify-shoe-id").inputValue()).toBe(finished.id);
    } finally {
      await guest.context.close();
      await room.leave();
    }
  }, 240_000);
});
