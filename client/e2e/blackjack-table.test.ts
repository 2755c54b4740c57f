import { describe, expect, it } from "vitest";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { ManualClock } from "../../server/src/platform/clock";
import { setupBrowserApp } from "./browser-app";
import { enterAsGuest, shot } from "./support";
import { acceptTerms } from "./fake-discord-host";

/**
 * The shared blackjack table in real Chromium against the real server: players of one activity
 * instance (launched by the fake Discord host) play round after round in seat order, one of them left
 * to the turn timer, one splitting, one closing the page mid-turn and coming back, while a player
 * without a seat watches the same cards and another instance's player never sees the table; and on a
 * phone the table fits the screen with the actions in view.
 */

type Surface = FrameLocator | Page;

const tableOf = (app: Surface) => app.getByTestId("bj-table");
const attr = async (app: Surface, name: string) => (await tableOf(app).getAttribute(name)) ?? "";

/** From the lobby's blackjack tile to the table, joined. */
async function joinTable(app: Surface) {
  await app.getByTestId("join-table-blackjack").click();
  await app.locator('[data-testid="bj-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
}

async function sit(app: Surface, seat: number) {
  await app.getByTestId(`table-sit-${seat}`).click();
  await expect.poll(() => attr(app, "data-my-seat"), { timeout: 15_000 }).toBe(String(seat));
}

/** Bets in the betting window and presses Ready. */
async function betAndReady(app: Surface, amount: number) {
  await expect.poll(() => attr(app, "data-phase"), { timeout: 60_000 }).toBe("betting");
  const input = app.getByRole("textbox", { name: "Bet amount" });
  await input.fill(String(amount));
  await app.getByTestId("bet-button").click();
  await app.getByTestId("table-ready").click();
}

/** The cards a seat shows, hand by hand ("A♠ 10♥ | 7♦ ..."), as one surface draws them. */
const cardsOf = async (seat: Locator): Promise<string> => {
  const hands = seat.locator('[data-testid*="-hand-"]');
  const out: string[] = [];
  for (let i = 0; i < (await hands.count()); i++) {
    const cards = await hands
      .nth(i)
      .locator("[role=img]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-card") ?? "back"));
    out.push(cards.join(" "));
  }
  return out.join(" | ");
};

/**
 * The whole table as one surface draws it, read at once: the phase, the seat to act, the dealer's cards
 * and every seated player's hands and result. Surfaces showing the same moment of a round give the same text.
 */
const tableText = (app: Surface): Promise<string> =>
  tableOf(app).evaluate((table) => {
    const cards = (root: Element) =>
      [...root.querySelectorAll("[role=img]")].map((card) => card.getAttribute("data-card") ?? "back").join(" ");
    const dealer = table.querySelector('[data-testid="table-dealer"]');
    const seats = [...table.querySelectorAll('[data-testid^="table-seat-"][data-player]')].map((seat) => {
      const hands = [...seat.querySelectorAll('[data-testid*="-hand-"]')].map(cards).join(" | ");
      const net = seat.querySelector('[data-testid$="-net"]')?.textContent ?? "";
      return `${seat.getAttribute("data-testid")} ${seat.getAttribute("data-player")}: ${hands} ${net}`.trim();
    });
    seats.sort();
    return [
      `${table.getAttribute("data-phase")} to act ${table.getAttribute("data-to-act")}`,
      `dealer: ${dealer ? cards(dealer) : ""}`,
      ...seats,
    ].join("\n");
  });

/** Waits until every surface draws the same table, and returns it. */
async function sameEverywhere(surfaces: Surface[]): Promise<string> {
  let texts: string[] = [];
  await expect
    .poll(
      async () => {
        texts = await Promise.all(surfaces.map(tableText));
        return texts.filter((text) => text !== texts[0]);
      },
      { timeout: 15_000, message: "every surface draws the same table" },
    )
    .toEqual([]);
  return texts[0]!;
}

describe("the shared blackjack table of an activity instance", () => {
  // The table runs on a ManualClock: a turn, the pause after a round and a dropped player's grace last
  // until the test moves the clock past them. The deal comes when everyone is ready.
  const clock = new ManualClock(Date.now());
  const TURN_MS = 8_000;
  const SETTLED_MS = 3_000;
  // a server of the block's own, with the table's windows its tests need
  const { server, browser, host } = setupBrowserApp({
    discordHost: true,
    clock,
    env: {
      TABLE_BETTING_MS: "60000",
      TABLE_TURN_MS: String(TURN_MS),
      TABLE_SETTLED_MS: String(SETTLED_MS),
      TABLE_RECONNECT_SECONDS: "30",
    },
    timeout: 180_000,
  });
  const INSTANCE = "i-bj-table";
  const ANN = "100000000000000061:Ann";
  const BEN = "100000000000000062:Ben";
  const CAT = "100000000000000063:Cat";
  const DEE = "100000000000000064:Dee";
  const EVE = "100000000000000065:Eve";
  /** At most this many rounds to meet a pair to split (one seat in 13 or so is dealt one). */
  const MAX_ROUNDS = 40;

  /** A player's own page of the fake Discord host, in an instance. */
  async function openActivity(players: string[], instanceId: string, width: number) {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.goto(host.url(`${server.baseUrl}/`, { players, instanceId }));
    return { page, apps: players.map((_, i) => page.frameLocator("iframe").nth(i)) };
  }

  const sql = (text: string, params: unknown[] = []) => server.app.services.db.run((em) => em.query(text, params)) as Promise<any[]>;

  it(
    "three players play five rounds and more in seat order: one left to the timer is stood for, one splits, one closes the page mid-turn " +
      "and comes back to the seat; a watcher sees every card as it is dealt, another instance's player never sees the table, the ledger balances",
    async () => {
      const t = server;
      const main = await openActivity([ANN, BEN, DEE], INSTANCE, 1800);
      const [ann, ben, dee] = main.apps as [FrameLocator, FrameLocator, FrameLocator];
      // Cat plays from a page of her own, to close it mid-turn.
      let cat = await openActivity([CAT], INSTANCE, 700);
      let catApp = cat.apps[0]!;
      for (const app of [ann, ben, catApp, dee]) await acceptTerms(app);
      for (const app of [ann, ben, catApp, dee]) await joinTable(app);
      await sit(ann, 1);
      await sit(ben, 3);
      await sit(catApp, 5);
      const seatedApp = (seat: number): FrameLocator => ({ 1: ann, 3: ben, 5: catApp })[seat]!;
      const seats = [1, 3, 5];
      const catId = await dee.getByTestId("table-seat-5").getAttribute("data-player");

      // The watcher sees the three seated players and no controls of a seat.
      await expect.poll(() => dee.locator('[data-testid^="table-seat-"][data-player]').count(), { timeout: 15_000 }).toBe(3);
      expect(await dee.getByTestId("table-watch-panel").isVisible()).toBe(true);
      expect(await dee.getByTestId("table-hit").count()).toBe(0);

      // A player of another instance opens the blackjack table too: a table of her own instance, empty,
      // and she is not among this table's watchers.
      const other = await openActivity([EVE], "i-bj-elsewhere", 700);
      const eve = other.apps[0]!;
      await acceptTerms(eve);
      await joinTable(eve);
      await expect.poll(() => eve.getByTestId("table-watchers").textContent(), { timeout: 15_000 }).toMatch(/^0\/7 seated · 1 watching/);
      expect(await eve.locator('[data-testid^="table-seat-"][data-player]').count()).toBe(0);
      await expect.poll(() => dee.getByTestId("table-watchers").textContent(), { timeout: 15_000 }).toMatch(/^3\/7 seated · 1 watching/);
      await other.page.close();

      /** What the watcher draws, as a key that changes with every card, turn and phase. */
      const progress = () => tableText(dee);
      const state = async () => {
        const [phase, toAct] = await tableOf(dee).evaluate((el) => [el.getAttribute("data-phase"), el.getAttribute("data-to-act")]);
        return { phase: phase ?? "", toAct: Number(toAct) || null };
      };
      const handsAt = (app: Surface, seat: number) => app.getByTestId(`table-seat-${seat}`).locator('[data-testid*="-hand-"]');

      let rounds = 0;
      let catAway = false;
      const happened: { timeout?: number; split?: { round: number; seat: number }; drop?: number } = {};
      while (rounds < 5 || !happened.timeout || !happened.split || !happened.drop) {
        if (rounds === MAX_ROUNDS)
          throw new Error(`not all of a timeout, a split and a drop in ${MAX_ROUNDS} rounds: ${JSON.stringify(happened)}`);
        // One after the other: the frames of a page share its keyboard focus.
        for (const seat of seats) await betAndReady(seatedApp(seat), 10);
        await expect.poll(async () => (await state()).phase, { timeout: 30_000 }).not.toBe("betting");
        rounds++;
        const order: number[] = [];
        for (let s = await state(); s.toAct !== null; s = await state()) {
          const { phase, toAct } = s;
          const app = seatedApp(toAct);
          // The watcher and every player see the same cards before each decision.
          const before = await sameEverywhere([ann, ben, ...(catAway ? [] : [catApp]), dee]);
          // Only the seat to act has actions; the others wait.
          for (const seat of seats)
            if (seat !== toAct && !(seat === 5 && catAway)) expect(await seatedApp(seat).getByTestId("table-hit").count()).toBe(0);
          const hands = await handsAt(dee, toAct).count();
          if (phase === "insurance") {
            await app.getByTestId("table-insurance-decline").click();
          } else {
            if (order.at(-1) !== toAct) order.push(toAct);
            const stand = app.getByTestId("table-stand");
            await expect.poll(() => stand.isEnabled(), { timeout: 15_000 }).toBe(true);
            const split = app.getByTestId("table-split");
            if (!happened.split && (await split.isEnabled())) {
              // A pair: split, and everyone sees two hands at the seat, each dealt its second card in turn.
              await split.click();
              await expect.poll(() => handsAt(dee, toAct).count(), { timeout: 15_000 }).toBe(2);
              happened.split = { round: rounds, seat: toAct };
            } else if (toAct === 3 && !happened.timeout && hands === 1) {
              // Ben does nothing: his timer runs on every screen, then the table stands for him.
              const secondsOn = async (app: Surface) => {
                const [text] = await app.getByTestId("table-seat-3-timer").allTextContents();
                return Number(/^To play · (\d+)s$/.exec(text ?? "")?.[1] ?? NaN);
              };
              const first = await secondsOn(dee);
              expect(first).toBeGreaterThan(0);
              expect(first).toBeLessThanOrEqual(TURN_MS / 1000);
              expect(await ben.getByTestId("table-phase").textContent()).toMatch(/^Your turn · \d+s$/);
              await expect.poll(() => secondsOn(dee), { timeout: TURN_MS }).toBeLessThan(first);
              const cards = await cardsOf(dee.getByTestId("table-seat-3"));
              // the turn's time runs out
              await clock.advance(TURN_MS);
              await expect.poll(async () => (await state()).toAct, { timeout: 15_000 }).not.toBe(3);
              // Stood: his two cards, no card more, and no action left to him.
              expect(await cardsOf(dee.getByTestId("table-seat-3"))).toBe(cards);
              expect(cards.split(" ")).toHaveLength(2);
              await expect.poll(() => ben.getByTestId("table-stand").count(), { timeout: 15_000 }).toBe(0);
              happened.timeout = rounds;
              continue;
            } else if (toAct === 5 && !happened.drop && hands === 1) {
              // Cat closes her page in the middle of her turn: the table stands for her, and keeps her seat,
              // shown away, while she is gone.
              await cat.page.close();
              catAway = true;
              await expect.poll(async () => (await state()).toAct, { timeout: 15_000 }).not.toBe(5);
              const seat5 = dee.getByTestId("table-seat-5");
              await expect.poll(() => seat5.textContent(), { timeout: 15_000 }).toContain("away");
              expect(await seat5.getAttribute("data-player")).toBe(catId);
              happened.drop = rounds;
              continue;
            } else {
              const hit = app.getByTestId("table-hit");
              if (
                toAct === 1 &&
                hands === 1 &&
                (await hit.isEnabled()) &&
                (await cardsOf(dee.getByTestId("table-seat-1"))).split(" ").length === 2
              ) {
                // Ann hits once: the watcher sees the third card come, the same card Ann sees (checked at
                // the next decision, or at the settlement).
                await hit.click();
                await expect
                  .poll(async () => (await cardsOf(dee.getByTestId("table-seat-1"))).split(" ").length, { timeout: 15_000 })
                  .toBe(3);
              } else {
                await stand.click();
              }
            }
          }
          await expect.poll(progress, { timeout: 15_000 }).not.toBe(before);
        }
        // The dealer plays; every surface shows the same settled round with a result at every seat.
        await expect.poll(async () => (await state()).phase, { timeout: 30_000 }).toBe("settled");
        const settled = await sameEverywhere([ann, ben, ...(catAway ? [] : [catApp]), dee]);
        expect(settled).toMatch(/^settled/);
        for (const seat of seats)
          expect(await dee.getByTestId(`table-seat-${seat}-net`).textContent()).toMatch(/^(Won \+[\d,]+|Lost -[\d,]+|Push 0)$/);
        expect(await dee.getByTestId("table-dealer").locator("[role=img]:not([data-card])").count()).toBe(0);
        // Each card's corner (rank and suit) shows whole beside the card dealt over it: a 10 never reads "1".
        const covered = await dee.locator('[data-testid^="table-seat-"] [data-card]').evaluateAll((cards) =>
          cards.flatMap((card) => {
            const next = card.nextElementSibling;
            if (!next?.hasAttribute("data-card")) return [];
            const corner = card.querySelector("span")!.getBoundingClientRect();
            return corner.right > next.getBoundingClientRect().left + 0.5 ? [card.getAttribute("data-card")] : [];
          }),
        );
        expect(covered, "cards whose corner the next card covers").toEqual([]);
        // Seats were played in seat order, each once.
        expect(order).toEqual([...order].sort((a, b) => a - b));
        // the pause after the round, then the next betting window
        await clock.advance(SETTLED_MS);
        if (catAway) {
          // Cat comes back in a new page, within the grace: the seat is still hers, and she plays on.
          const seat5 = dee.getByTestId("table-seat-5");
          expect(await seat5.getAttribute("data-player")).toBe(catId);
          cat = await openActivity([CAT], INSTANCE, 700);
          catApp = cat.apps[0]!;
          await joinTable(catApp);
          expect(await attr(catApp, "data-my-seat")).toBe("5");
          expect(await catApp.getByTestId("table-seat-5").textContent()).toContain("Cat (you)");
          await expect.poll(() => seat5.textContent(), { timeout: 15_000 }).not.toContain("away");
          catAway = false;
        }
      }
      expect(rounds).toBeGreaterThanOrEqual(5);

      // The record of the rounds: the seat left to its timer and the seat whose player dropped were each
      // stood for (a stand neither of them pressed), and the split is there.
      const dealt = await sql(`SELECT id, actions FROM table_rounds WHERE dealt_at IS NOT NULL ORDER BY dealt_at`);
      expect(dealt).toHaveLength(rounds);
      /** A seat's moves in a round, its insurance decision aside. */
      const actionsOf = (round: number, seat: number) =>
        (dealt[round - 1]!.actions as { seat: number; action: { type: string } }[])
          .filter((a) => a.seat === seat && a.action.type !== "insurance")
          .map((a) => a.action.type);
      expect(actionsOf(happened.timeout!, 3)).toEqual(["stand"]);
      expect(actionsOf(happened.drop!, 5)).toEqual(["stand"]);
      expect(actionsOf(happened.split!.round, happened.split!.seat)).toContain("split");

      // Every bet settled, each player's balance is what the rounds paid, as their header shows it, and
      // the ledger audit is clean.
      const bets = await sql(`SELECT player_id, status, staked, payout FROM table_bets`);
      expect(bets).toHaveLength(3 * rounds);
      expect(bets.filter((b) => b.status !== "settled")).toEqual([]);
      for (const [app, who] of [
        [ann, ANN],
        [ben, BEN],
        [catApp, CAT],
      ] as const) {
        const [player] = await sql(`SELECT id, balance FROM players WHERE discord_id = $1`, [who.split(":")[0]]);
        const net = bets.filter((b) => b.player_id === player.id).reduce((sum, b) => sum + Number(b.payout) - Number(b.staked), 0);
        expect(Number(player.balance)).toBe(1000 + net);
        await expect.poll(() => app.getByTestId("balance").textContent(), { timeout: 15_000 }).toBe((1000 + net).toLocaleString("en-US"));
      }
      await t.expectLedgerInvariant();
      await cat.page.close();
      await main.page.close();
    },
    400_000,
  );
});

describe("the shared blackjack table on a phone", () => {
  // Windows long enough for a loaded machine: the round is dealt when everyone is ready, and the turn is
  // played by a click, never by the timer; a closed page gives its seat up soon.
  const { server, browser } = setupBrowserApp({
    env: { TABLE_BETTING_MS: "60000", TABLE_TURN_MS: "60000", TABLE_SETTLED_MS: "15000", TABLE_RECONNECT_SECONDS: "2" },
    timeout: 180_000,
  });

  it.each([
    { width: 360, height: 640 },
    { width: 390, height: 844 },
  ])(
    "on a $width×$height phone the table has no horizontal scroll and the actions are in view",
    async (viewport) => {
      const page = await browser.newPage({ viewport, isMobile: true, hasTouch: true });
      await enterAsGuest(page, server.baseUrl);
      await joinTable(page);
      const free = page.locator('[data-testid^="table-sit-"]').first();
      const seat = Number(((await free.getAttribute("data-testid")) ?? "").replace("table-sit-", ""));
      await sit(page, seat);
      const noSideScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      const inView = async (l: Locator) => {
        const box = await l.boundingBox();
        return !!box && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width;
      };
      // Bet, then Ready: both in view without scrolling.
      await expect.poll(() => attr(page, "data-phase"), { timeout: 60_000 }).toBe("betting");
      expect(await noSideScroll()).toBe(true);
      expect(await inView(page.getByTestId("bet-button"))).toBe(true);
      let turn = false;
      for (let round = 0; round < 6 && !turn; round++) {
        await betAndReady(page, 10);
        await expect
          .poll(async () => ((await attr(page, "data-to-act")) === String(seat) ? "turn" : await attr(page, "data-phase")), {
            timeout: 30_000,
          })
          .toMatch(/^(turn|settled)$/);
        turn = (await attr(page, "data-to-act")) === String(seat);
        if (!turn) await expect.poll(() => attr(page, "data-phase"), { timeout: 30_000 }).toBe("betting");
      }
      expect(turn).toBe(true);
      const action = (await attr(page, "data-phase")) === "insurance" ? "table-insurance-decline" : "table-stand";
      const button = page.getByTestId(action);
      await button.waitFor();
      expect(await noSideScroll()).toBe(true);
      expect(await inView(button)).toBe(true);
      const box = (await button.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(32);
      await shot(page, `blackjack-table-${viewport.width}x${viewport.height}`);
      await button.click();
      await page.close();
    },
    240_000,
  );

  it.each([
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])(
    "at $width×$height a long own name is cut with an ellipsis inside its seat and given whole in its title",
    async (viewport) => {
      const page = await browser.newPage({ viewport });
      const longName = "Maximilian Alexander Worthington";
      // The guest is created with the longest name there is (32 characters).
      await page.route("**/api/guest", (route) => route.continue({ postData: JSON.stringify({ username: longName }) }));
      await enterAsGuest(page, server.baseUrl);
      await joinTable(page);
      const free = page.locator('[data-testid^="table-sit-"]').first();
      const seat = Number(((await free.getAttribute("data-testid")) ?? "").replace("table-sit-", ""));
      await sit(page, seat);
      const names = page.getByTestId(`table-seat-${seat}-name`);
      await names.first().waitFor();
      await shot(page, `blackjack-table-long-name-${viewport.width}x${viewport.height}`);
      for (let i = 0; i < (await names.count()); i++) {
        const name = names.nth(i);
        if (!(await name.isVisible())) continue;
        const drawn = await name.evaluate((el) => {
          const seatBox = el.closest('[data-testid^="table-seat-"]:not([data-testid*="-name"])')!.getBoundingClientRect();
          const box = el.getBoundingClientRect();
          return {
            cut: el.scrollWidth > el.clientWidth,
            ellipsis: getComputedStyle(el).textOverflow,
            inside: box.left >= seatBox.left - 0.5 && box.right <= seatBox.right + 0.5,
          };
        });
        expect(drawn).toEqual({ cut: true, ellipsis: "ellipsis", inside: true });
        expect(await name.getAttribute("title")).toBe(longName);
      }
      await expect.poll(() => page.getByLabel(`${longName} (you), seat ${seat}`).count()).toBeGreaterThan(0);
      await page.close();
    },
    120_000,
  );
});
