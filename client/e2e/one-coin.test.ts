import { describe, expect, it } from "vitest";
import { GAMES } from "@casino/common/catalogue";
import { ENGINES } from "@casino/common/games/registry";
import { backToLobby, history, openAsGuest, openGame, serverBalance, setAmount, settled, shownBalance, shownResult } from "./games-helpers";
import { caseOf, CHANCE_GAMES } from "./games-cases";
import { setupBrowserApp } from "./browser-app";

/**
 * 1-coin bets on every chance game, through the tables in real Chromium against the real server, with
 * Turbo on: each game is played until a 1-coin round pays (a new table each round, so chips never
 * stack), and every round's stake, payout and words are checked against the server's record. Skill games
 * take no stake (the catalogue says which are which). Each game is played with its driver
 * (games/<game>.ts), or the driver's `playToBePaid` where its usual play rarely pays at 1 coin; the
 * driver says what its round stakes in 1-coin chips (`chips`) and how many separate bets it holds (`bets`).
 */
const { server: t, browser } = setupBrowserApp();

/**
 * A game gets this many 1-coin rounds to pay once. Slots pays something on about one 1-coin spin in
 * four (0.26 of 20,000 seeded spins), so 12 tries left it unpaid in about 3 runs of 100; at 60 a
 * false failure is about one run in 70 million.
 */
const MAX_ROUNDS = 60;

describe("1-coin bets in the browser", () => {
  it("cover every game that takes a stake", () => {
    expect(CHANCE_GAMES).toEqual(Object.keys(ENGINES));
    expect(GAMES.filter((g) => g.kind !== "chance").every((g) => g.kind === "skill")).toBe(true);
  });

  it("are accepted and paid on every chance game, and the words say what was paid", { timeout: 600_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    try {
      const s = await session();
      await openGame(page, "dice");
      await page.getByTestId("turbo-toggle").click();
      await expect.poll(() => page.getByTestId("turbo-toggle").getAttribute("aria-checked")).toBe("true");
      let seen = 0;
      const paidRounds: Record<string, number> = {};
      for (const id of CHANCE_GAMES) {
        const game = caseOf(id);
        for (let round = 1; !paidRounds[id]; round++) {
          expect(round, `${id}: no 1-coin round paid in ${MAX_ROUNDS}`).toBeLessThanOrEqual(MAX_ROUNDS);
          await backToLobby(page);
          await openGame(page, id);
          await setAmount(page, 1);
          await (game.playToBePaid ?? game.play)(page);
          await settled(page);
          const shown = await shownResult(page);
          const rows = await history(t.baseUrl, s);
          expect(rows, id).toHaveLength(seen + 1);
          seen += 1;
          const row = rows[0]!;
          expect(row.gameType).toBe(id);
          // every chip was 1 coin
          expect(row.betAmount, id).toBe(game.chips ?? 1);
          // the table shows what the server recorded
          expect({ payout: shown.payout, result: shown.result }, id).toEqual({ payout: row.payout, result: row.result });
          // a payout rounded to whole coins is told as such, never as a plain push
          const unrounded = await page.getByTestId("round-result").getAttribute("data-unrounded");
          if (unrounded !== null) {
            expect(shown.text, `${id}: ${shown.text}`).not.toContain("Push: 0 coins, your bet is returned");
            // a win says its net and the multiplier before rounding; anything else says the rounding
            if (shown.result === "win") expect(shown.text).toMatch(/^You won: \+[\d,]+ coins?/);
            else expect(shown.text).toContain("after rounding");
            // (a round of several bets is told as a whole)
            if (shown.result === "push" && Number(unrounded) > shown.stake && (game.bets ?? 1) === 1)
              expect(shown.text).toMatch(/^Win at [\d,.]+×/);
          }
          if (row.payout > 0) paidRounds[id] = round;
        }
      }
      expect(Object.keys(paidRounds).sort()).toEqual([...CHANCE_GAMES].sort());
      const balance = await serverBalance(t.baseUrl, s);
      await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});
