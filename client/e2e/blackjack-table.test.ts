import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, FrameLocator, Locator, Page } from "playwright-core";
import { startTestApp, type TestApp } from "../../server/test/harness";
import { enterAsGuest, launchChromium, shot } from "./support";
import { acceptTerms, HOST_ORIGIN, startFakeHost, type FakeHost } from "./fake-discord-host";

/**
 * The shared blackjack table in real Chromium against the real server: players of one activity
 * instance (launched by the fake Discord host) sit, bet, press Ready and play in seat order while a
 * player without a seat watches the same cards; and on a phone the table fits the screen with the
 * actions in view.
 */
let t: TestApp;
let host: FakeHost;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp({
    CLIENT_DIST: "client/dist",
    FRAME_ANCESTORS: HOST_ORIGIN,
    // Windows long enough for a loaded machine: the round is dealt when everyone is ready, and every
    // turn is played by a click, never by the timer.
    TABLE_BETTING_MS: "60000",
    TABLE_TURN_MS: "60000",
    TABLE_SETTLED_MS: "15000",
    TABLE_RECONNECT_SECONDS: "2",
  });
  host = await startFakeHost();
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await t?.close();
});

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

describe("the shared blackjack table", () => {
  it("three players of one instance sit, bet, and play in seat order; a watcher sees every card as it is dealt", async () => {
    const page = await browser.newPage({ viewport: { width: 2100, height: 1000 } });
    const players = ["100000000000000061:Ann", "100000000000000062:Ben", "100000000000000063:Cat", "100000000000000064:Dee"];
    await page.goto(host.url(`${t.baseUrl}/`, { players, instanceId: "i-bj-table" }));
    const [ann, ben, cat, dee] = players.map((_, i) => page.frameLocator("iframe").nth(i)) as [
      FrameLocator,
      FrameLocator,
      FrameLocator,
      FrameLocator,
    ];
    for (const app of [ann, ben, cat, dee]) await acceptTerms(app);
    for (const app of [ann, ben, cat, dee]) await joinTable(app);
    const seated: [FrameLocator, number][] = [
      [ann, 1],
      [ben, 3],
      [cat, 5],
    ];
    for (const [app, seat] of seated) await sit(app, seat);

    // The watcher sees the three seated players and no controls of a seat.
    await expect.poll(() => dee.locator('[data-testid^="table-seat-"][data-player]').count(), { timeout: 15_000 }).toBe(3);
    expect(await dee.getByTestId("table-watch-panel").isVisible()).toBe(true);
    expect(await dee.getByTestId("table-hit").count()).toBe(0);

    // Rounds until one with turns to play (a dealer blackjack settles a round at once).
    const order: number[] = [];
    for (let round = 0; round < 4 && order.length === 0; round++) {
      for (const [app] of seated) await betAndReady(app, 10);
      await expect.poll(() => attr(dee, "data-phase"), { timeout: 30_000 }).not.toBe("betting");
      while (["insurance", "turns", "dealer"].includes(await attr(dee, "data-phase")) || (await attr(dee, "data-to-act")) !== "") {
        const phase = await attr(dee, "data-phase");
        const toAct = Number(await attr(dee, "data-to-act"));
        if (!toAct) {
          await expect.poll(() => attr(dee, "data-phase"), { timeout: 30_000 }).toBe("settled");
          break;
        }
        const [app] = seated.find(([, s]) => s === toAct)!;
        // Only the seat to act has actions; the others wait.
        for (const [other, s] of seated) if (s !== toAct) expect(await other.getByTestId("table-hit").count()).toBe(0);
        if (phase === "insurance") {
          await app.getByTestId("table-insurance-decline").click();
        } else {
          if (order.at(-1) !== toAct) order.push(toAct);
          const seatOnWatcher = dee.getByTestId(`table-seat-${toAct}`);
          const before = await cardsOf(seatOnWatcher);
          const hit = app.getByTestId("table-hit");
          if (toAct === 1 && (await hit.isEnabled()) && before.split(" ").length === 2) {
            // Ann hits once: the watcher sees the third card come, the same card Ann sees.
            await hit.click();
            await expect.poll(() => cardsOf(seatOnWatcher), { timeout: 15_000 }).not.toBe(before);
            expect(await cardsOf(seatOnWatcher)).toBe(await cardsOf(app.getByTestId("table-seat-1")));
            if ((await attr(dee, "data-to-act")) !== "1") continue;
          }
          await app.getByTestId("table-stand").click();
        }
        await expect
          .poll(async () => `${await attr(dee, "data-phase")}:${await attr(dee, "data-to-act")}`, { timeout: 15_000 })
          .not.toBe(`${phase}:${toAct}`);
      }
      await expect.poll(() => attr(dee, "data-phase"), { timeout: 30_000 }).toBe("settled");
      if (order.length === 0) await expect.poll(() => attr(dee, "data-phase"), { timeout: 30_000 }).toBe("betting");
    }
    // Seats were played in seat order, each once.
    expect(order.length).toBeGreaterThan(0);
    expect(order).toEqual([...order].sort((a, b) => a - b));

    // Settled: every player and the watcher see the same cards and a result in words at every seat.
    for (const [, seat] of seated) {
      const watched = dee.getByTestId(`table-seat-${seat}`);
      expect(await watched.getByTestId(`table-seat-${seat}-net`).textContent()).toMatch(/^(Won \d+|Lost \d+|Push)$/);
      for (const [app] of seated) expect(await cardsOf(app.getByTestId(`table-seat-${seat}`))).toBe(await cardsOf(watched));
    }
    const dealer = await dee.getByTestId("table-dealer").locator("[role=img]").count();
    expect(dealer).toBeGreaterThanOrEqual(2);
    expect(await ann.getByTestId("table-dealer").locator("[role=img]").count()).toBe(dealer);
    await page.close();
  }, 300_000);

  it.each([
    { width: 360, height: 640 },
    { width: 390, height: 844 },
  ])(
    "on a $width×$height phone the table has no horizontal scroll and the actions are in view",
    async (viewport) => {
      const page = await browser.newPage({ viewport, isMobile: true, hasTouch: true });
      await enterAsGuest(page, t.baseUrl);
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
      await enterAsGuest(page, t.baseUrl);
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
