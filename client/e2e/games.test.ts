import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { cardName } from "@casino/common/games/cards";
import { STARTING_BALANCE } from "@casino/common/constants";
import { matchMaker } from "@colyseus/core";
import {
  attr,
  cardsIn,
  firstEnabled,
  history,
  MAX_STEPS,
  openAsGuest,
  openGame,
  playOut,
  press,
  roundDone,
  screenshots,
  serverBalance,
  setAmount,
  settled,
  shownBalance,
  shownResult,
} from "./games-helpers";
import { CASES, caseOf, CHANCE_GAMES, driverGaps, playFirstRound, stakeOf } from "./games-cases";
import { setupBrowserApp } from "./browser-app";

/**
 * Every chance game played through its table in real Chromium against the real server: a bet placed
 * with the table's own controls, the round finished with its actions, and what the table shows checked
 * against the server's record (history and balance). The drivers, one per game, are in games/<game>.ts.
 */
const { server: t, browser } = setupBrowserApp();

describe("every chance game's table", () => {
  it("has a driver, and every driver is of a chance game of the catalogue", () => {
    expect(driverGaps()).toEqual([]);
  });

  it.each(CHANCE_GAMES.map((id) => ({ id })))(
    "$id: a bet placed and finished in the UI shows the server's outcome and balance",
    { timeout: 90_000 },
    async ({ id }) => {
      const game = caseOf(id);
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      try {
        const round = await playFirstRound(page, game, t.baseUrl, await session());

        // "My bets" lists the round as the server recorded it
        const row = page.getByTestId("my-bets").getByTestId("my-bet-row").first();
        await expect
          .poll(async () => [await row.getAttribute("data-stake"), await row.getAttribute("data-payout")], { timeout: 10_000 })
          .toEqual([String(round.betAmount), String(round.payout)]);
        await expect.poll(() => page.getByTestId("live-feed").getByTestId("feed-row").count()).toBe(1);

        // the help lists the rules and the game's exact RTP
        await page.getByTestId("help-button").click();
        await expect.poll(() => page.getByTestId("help-rtp").textContent()).toMatch(/\d\d\.\d{4} %/);
        await page.keyboard.press("Escape");
        await page.getByTestId("help-dialog").waitFor({ state: "detached" });

        await screenshots(page, game.id);
      } finally {
        await context.close();
      }
      await t.expectLedgerInvariant();
    },
  );
});

describe("every spot of a betting layout is a bet the server accepts", () => {
  it.each(CASES.flatMap((game) => (game.layout ? [{ id: game.id, ...game.layout }] : [])))(
    "$id: one chip on each of its $spots spots, in one round",
    { timeout: 90_000 },
    async ({ id, prefix, exclude, spots }) => {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      try {
        await openGame(page, id);
        const chip = 1;
        await setAmount(page, chip);
        const ids = await page
          .locator(`button[data-testid^="${prefix}"]`)
          .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!));
        const layout = ids.filter((x) => !exclude.includes(x));
        expect(layout).toHaveLength(spots);
        for (const spot of layout) await page.getByTestId(spot).click();
        expect(await page.getByTestId("bet-total").textContent()).toBe(`Total ${(spots * chip).toLocaleString("en-US")}`);
        await press(page, "bet-button");
        const shown = await shownResult(page);
        const [round] = await history(t.baseUrl, await session());
        expect(round!.betAmount).toBe(spots * chip);
        expect(round!.outcome.bets).toHaveLength(spots);
        expect([shown.stake, shown.payout]).toEqual([round!.betAmount, round!.payout]);
      } finally {
        await context.close();
      }
    },
  );
});

describe("craps through a whole round", () => {
  it(
    "pass line with odds, a come bet with its own odds, a place bet taken down: the table follows the server",
    { timeout: 180_000 },
    async () => {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      const visible = async (id: string) => (await page.getByTestId(id).count()) > 0 && (await page.getByTestId(id).isEnabled());
      const used = new Set<string>();
      try {
        await openGame(page, "craps");
        await setAmount(page, stakeOf({ id: "craps", amount: 5 }));
        // rounds repeat until one has covered every move (a come-out 7 or 11, or craps, ends a round at once)
        for (let roundNo = 0; roundNo < 12 && used.size < 4; roundNo++) {
          await page.getByTestId("craps-pass").click();
          await page.getByTestId("craps-place-6").click();
          await press(page, "bet-button");
          const moves = new Set<string>();
          for (let step = 0; step < MAX_STEPS && !(await roundDone(page)); step++) {
            const point = await attr(page, "craps-puck", "data-point");
            if (point && !moves.has("passOdds") && (await visible("craps-passOdds"))) {
              await page.getByTestId("craps-passOdds").click();
              moves.add("passOdds");
            } else if (point && !moves.has("come") && (await visible("craps-come"))) {
              await page.getByTestId("craps-come").click();
              moves.add("come");
            } else if (!moves.has("comeOdds")) {
              const comeOdds = page.locator('[data-testid^="craps-comeOdds-"]');
              if ((await comeOdds.count()) > 0 && (await comeOdds.first().isEnabled())) {
                await comeOdds.first().click();
                moves.add("comeOdds");
              }
            }
            if (!moves.has("takeDown") && (await visible("craps-down-place-6"))) {
              await press(page, "craps-down-place-6");
              moves.add("takeDown");
              continue;
            }
            await press(page, "craps-roll");
          }
          expect(await roundDone(page)).toBe(true);
          const shown = await shownResult(page);
          const s = await session();
          const [round] = await history(t.baseUrl, s);
          expect(round!.gameType).toBe("craps");
          expect([shown.stake, shown.payout]).toEqual([round!.betAmount, round!.payout]);
          expect(round!.outcome.bets).toEqual([]);
          // the server recorded exactly the moves made at the table
          const actions = round!.actions as { type: string; bets?: { type: string }[]; bet?: string }[];
          const placed = actions.filter((a) => a.type === "bet").flatMap((a) => a.bets!.map((b) => b.type));
          expect(placed.sort()).toEqual([...moves].filter((m) => m !== "takeDown").sort());
          expect(actions.some((a) => a.type === "takeDown" && a.bet === "place")).toBe(moves.has("takeDown"));
          const balance = await serverBalance(t.baseUrl, s);
          await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
          for (const m of moves) used.add(m);
        }
        expect([...used].sort()).toEqual(["come", "comeOdds", "passOdds", "takeDown"]);
        await screenshots(page, "craps-round");
      } finally {
        await context.close();
      }
      await t.expectLedgerInvariant();
    },
  );
});

describe("an open round survives a reload", () => {
  /** Bets until a round stays open (a natural blackjack, or a mine on the first tile, ends it at once). */
  async function openRound(page: Page, start: () => Promise<void>): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      await start();
      if ((await page.getByTestId("bet-panel").getAttribute("data-locked")) === "true") return;
    }
    throw new Error("no round stayed open in 10 tries");
  }

  it("blackjack: reload mid-hand, the same cards come back and the hand can be finished", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "blackjack");
      await setAmount(page, stakeOf({ id: "blackjack", amount: 10 }));
      await openRound(page, () => press(page, "bet-button"));
      const before = { hand: await cardsIn(page, "bj-hand-0"), dealer: await cardsIn(page, "bj-dealer") };
      expect(before.dealer).toHaveLength(1); // the hole card is face down

      await page.reload();
      await openGame(page, "blackjack");
      await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
      await expect.poll(() => cardsIn(page, "bj-hand-0")).toEqual(before.hand);
      expect(await cardsIn(page, "bj-dealer")).toEqual(before.dealer);

      await playOut(page, firstEnabled(page, ["bj-insurance-decline", "bj-stand"]));
      const shown = await shownResult(page);
      const s = await session();
      const [round] = await history(t.baseUrl, s);
      expect(round!.outcome.hands[0].cards.slice(0, 2).map(cardName)).toEqual(before.hand.slice(0, 2));
      expect([shown.stake, shown.payout]).toEqual([round!.betAmount, round!.payout]);
      expect(shown.balance).toBe(await serverBalance(t.baseUrl, s));
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });

  it("mines: reload after a gem, the grid comes back and the round can be cashed out", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "mines");
      // one gem with 2 mines pays 1.07×: 100 coins (above the game's minimum) make it a win of 107
      await setAmount(page, stakeOf({ id: "mines", amount: 100 }));
      await page.getByTestId("mines-count").selectOption("2");
      let tile = 0;
      await openRound(page, async () => {
        if ((await page.getByTestId("bet-panel").getAttribute("data-locked")) !== "true") await press(page, "bet-button");
        await press(page, `mines-tile-${tile++ % 25}`);
      });
      const gem = await page.locator('[data-testid^="mines-tile-"][data-state="gem"]').getAttribute("data-testid");
      const multiplier = await page.getByTestId("mines-multiplier").textContent();

      await page.reload();
      await openGame(page, "mines");
      await expect.poll(() => page.getByTestId(gem!).getAttribute("data-state"), { timeout: 15_000 }).toBe("gem");
      expect(await page.getByTestId("mines-multiplier").textContent()).toBe(multiplier);
      expect(await page.locator('[data-testid^="mines-tile-"][data-state="mine"]').count()).toBe(0); // still hidden

      await press(page, "mines-cashout");
      const shown = await shownResult(page);
      const s = await session();
      const [round] = await history(t.baseUrl, s);
      expect(round!.result).toBe("win");
      expect(round!.outcome.revealed).toEqual([Number(gem!.slice(11))]);
      expect([shown.stake, shown.payout]).toEqual([round!.betAmount, round!.payout]);
      const balance = await serverBalance(t.baseUrl, s);
      expect(shown.balance).toBe(balance);
      await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });

  it(
    "hi-lo: reload after a correct guess, the card and the multiplier come back and the round can be cashed out",
    { timeout: 90_000 },
    async () => {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      try {
        await openGame(page, "hi-lo");
        await setAmount(page, stakeOf({ id: "hi-lo", amount: 100 }));
        const rank = async () => Math.floor(Number(await attr(page, "hilo-card", "data-card")) / 4) + 2;
        // a wrong first guess ends the round: bet again until one guess was right and the round stays open
        await openRound(page, async () => {
          if ((await page.getByTestId("bet-panel").getAttribute("data-locked")) !== "true") await press(page, "bet-button");
          // on a 2 or an ace one guess cannot lose and is not offered: skip to a card with two real guesses
          while ([2, 14].includes(await rank())) await press(page, "hilo-skip");
          await press(page, (await rank()) <= 8 ? "hilo-higher" : "hilo-lower");
        });
        const before = {
          card: await attr(page, "hilo-card", "data-card"),
          correct: await page.getByTestId("hilo-correct").textContent(),
          multiplier: await page.getByTestId("hilo-multiplier").textContent(),
          cashout: await page.getByTestId("hilo-cashout").textContent(),
        };
        expect(before.correct).toBe("1");

        await page.reload();
        await openGame(page, "hi-lo");
        await expect.poll(() => page.getByTestId("bet-panel").getAttribute("data-locked"), { timeout: 15_000 }).toBe("true");
        await expect.poll(() => attr(page, "hilo-card", "data-card")).toBe(before.card);
        expect(await page.getByTestId("hilo-correct").textContent()).toBe(before.correct);
        expect(await page.getByTestId("hilo-multiplier").textContent()).toBe(before.multiplier);
        expect(await page.getByTestId("hilo-cashout").textContent()).toBe(before.cashout);

        await press(page, "hilo-cashout");
        const shown = await shownResult(page);
        const s = await session();
        const rounds = await history(t.baseUrl, s);
        const round = rounds[0]!; // the newest: the round played across the reload
        expect(round.gameType).toBe("hi-lo");
        expect(round.outcome.status).toBe("cashed");
        expect(round.outcome.cards.at(-1)).toBe(Number(before.card));
        // the round is the one played across the reload: its moves, then the cash-out after the reload
        expect(round.actions.map((a: { type: string }) => a.type)).toEqual([...round.outcome.moves, "cashout"]);
        expect(round.outcome.moves.at(-1)).not.toBe("skip");
        expect([shown.stake, shown.payout, shown.result]).toEqual([round.betAmount, round.payout, round.result]);
        const balance = await serverBalance(t.baseUrl, s);
        expect(balance).toBe(STARTING_BALANCE + rounds.reduce((sum, r) => sum + r.payout - r.betAmount, 0));
        expect(shown.balance).toBe(balance);
        await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
      } finally {
        await context.close();
      }
      await t.expectLedgerInvariant();
    },
  );
});

describe("auto-bet", () => {
  it("20 dice bets with a profit target reached early: it stops there, and the count is the server's", { timeout: 180_000 }, async () => {
    // 98 % to win 1 coin on 100: three wins in a row reach +3 almost always; a loss (−100) makes the
    // target unreachable in 20 bets, and then all 20 must be played. Each run is checked either way;
    // runs repeat until one stops early.
    const TARGET = 3;
    let stoppedEarly = false;
    for (let run = 0; run < 5 && !stoppedEarly; run++) {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      try {
        await openGame(page, "dice");
        await setAmount(page, stakeOf({ id: "dice", amount: 100 }));
        await page.getByTestId("dice-target").fill("98");
        await page.getByTestId("mode-auto").click();
        await page.getByTestId("auto-count").fill("20");
        await page.getByTestId("auto-stop-profit").fill(String(TARGET));
        await page.getByTestId("auto-start").click();
        await page.getByTestId("auto-status").waitFor({ timeout: 120_000 });
        await settled(page);
        const played = Number(await page.getByTestId("auto-played").textContent());
        const s = await session();
        const rounds = (await history(t.baseUrl, s)).reverse();
        expect(rounds).toHaveLength(played);
        let profit = 0;
        let expected = 20;
        for (const [i, r] of rounds.entries()) {
          profit += r.payout - r.betAmount;
          if (profit >= TARGET) {
            expected = i + 1;
            break;
          }
        }
        expect(played).toBe(expected);
        const status = await page.getByTestId("auto-status").textContent();
        expect(status).toBe(expected < 20 ? "Stopped: Profit target reached" : "Stopped: 20 bets placed");
        expect(Number((await page.getByTestId("auto-profit").textContent())!.replace(/[+,]/g, ""))).toBe(
          rounds.reduce((sum, r) => sum + r.payout - r.betAmount, 0),
        );
        stoppedEarly = expected < 20;
        if (stoppedEarly) await screenshots(page, "dice-auto");
      } finally {
        await context.close();
      }
    }
    expect(stoppedEarly).toBe(true);
    await t.expectLedgerInvariant();
  });

  it("stops at once when the connection drops, and counts a bet answered after the reconnect", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "dice");
      // the smallest stake, 1 coin, on a 98 % chance, so the balance lasts
      await setAmount(page, 1);
      await page.getByTestId("dice-target").fill("98");
      await page.getByTestId("mode-auto").click();
      await page.getByTestId("auto-count").fill("0");
      await page.getByTestId("auto-start").click();
      await expect
        .poll(async () => Number(await page.getByTestId("auto-played").textContent()), { timeout: 20_000 })
        .toBeGreaterThanOrEqual(2);
      // cut the player's socket from the server side, as a network drop would
      const s = await session();
      const rooms = await matchMaker.query({ name: "casino" });
      const sockets = rooms
        .map((r) => matchMaker.getLocalRoomById(r.roomId))
        .flatMap((room) => (room ? [...room.clients] : []))
        .filter((c) => (c.auth as { playerId?: string } | undefined)?.playerId === s.playerId);
      expect(sockets).toHaveLength(1);
      (sockets[0]!.ref as unknown as { terminate(): void }).terminate();

      await page.getByTestId("auto-status").waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("auto-status").textContent()).toBe("Stopped: the connection was lost");
      // the room comes back; a bet that was in flight is answered once and counted
      await page.getByTestId("bet-offline").waitFor({ state: "detached", timeout: 30_000 });
      await settled(page);
      const played = Number(await page.getByTestId("auto-played").textContent());
      await expect.poll(async () => (await history(t.baseUrl, s)).length, { timeout: 10_000 }).toBe(played);
      const balance = await serverBalance(t.baseUrl, s);
      await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });

  it("stops at once when the page is hidden", { timeout: 90_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      await openGame(page, "dice");
      // the smallest stake, 1 coin, on a 98 % chance, so the balance lasts
      await setAmount(page, 1);
      await page.getByTestId("dice-target").fill("98");
      await page.getByTestId("mode-auto").click();
      await page.getByTestId("auto-count").fill("0");
      await page.getByTestId("auto-start").click();
      await expect
        .poll(async () => Number(await page.getByTestId("auto-played").textContent()), { timeout: 20_000 })
        .toBeGreaterThanOrEqual(2);
      await page.evaluate(() => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
        document.dispatchEvent(new Event("visibilitychange"));
      });
      await page.getByTestId("auto-status").waitFor();
      expect(await page.getByTestId("auto-status").textContent()).toBe("Stopped: the page was hidden");
      await settled(page);
      const s = await session();
      const played = Number(await page.getByTestId("auto-played").textContent());
      // nothing more is sent once stopped: the server's count stays at the table's count
      expect(await history(t.baseUrl, s)).toHaveLength(played);
      expect(await page.getByTestId("auto-start").isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
