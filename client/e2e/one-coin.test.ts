import { describe, expect, it } from "vitest";
import { GAMES } from "@casino/common/catalogue";
import {
  backToLobby,
  history,
  openAsGuest,
  openGame,
  press,
  serverBalance,
  setAmount,
  settled,
  shownBalance,
  shownResult,
  type Table,
} from "./games-helpers";
import { caseOf } from "./games-cases";
import { setupBrowserApp } from "./browser-app";

/**
 * 1-coin bets on every chance game, through the tables in real Chromium against the real server, with
 * Turbo on: each game is played until a 1-coin round pays (a new table each round, so chips never
 * stack), and every round's stake, payout and words are checked against the server's record. Skill games
 * take no stake (the catalogue says which are which).
 */
const { server: t, browser } = setupBrowserApp();

/**
 * What a round of the driver stakes in all with 1-coin chips (the history's stake): one coin, or a chip
 * per spot, and the poker games' raise (2 × the ante) and play (the ante).
 */
const CHIPS: Record<string, number> = {
  poker: 3,
  baccarat: 2,
  "three-card-poker": 3,
  craps: 2,
  "sic-bo": 3,
  roulette: 5,
};

/** The games' drivers (games-cases.ts), but keno on one low-risk pick: it pays 0.70× even on a miss. */
const play = async (page: Table, id: string) => {
  if (id !== "keno") return caseOf(id).play(page);
  await page.getByTestId("keno-tile-7").click();
  await page.getByTestId("keno-risk").selectOption("low");
  await press(page, "bet-button");
};

/**
 * A game gets this many 1-coin rounds to pay once. Slots pays something on about one 1-coin spin in
 * four (0.26 of 20,000 seeded spins), so 12 tries left it unpaid in about 3 runs of 100; at 60 a
 * false failure is about one run in 70 million.
 */
const MAX_ROUNDS = 60;

describe("1-coin bets in the browser", () => {
  const chance = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);

  it("cover every game that takes a stake", () => {
    expect(chance).toHaveLength(16);
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
      for (const id of chance) {
        for (let round = 1; !paidRounds[id]; round++) {
          expect(round, `${id}: no 1-coin round paid in ${MAX_ROUNDS}`).toBeLessThanOrEqual(MAX_ROUNDS);
          await backToLobby(page);
          await openGame(page, id);
          await setAmount(page, 1);
          await play(page, id);
          await settled(page);
          const shown = await shownResult(page);
          const rows = await history(t.baseUrl, s);
          expect(rows, id).toHaveLength(seen + 1);
          seen += 1;
          const row = rows[0]!;
          expect(row.gameType).toBe(id);
          // every chip was 1 coin
          expect(row.betAmount, id).toBe(CHIPS[id] ?? 1);
          // the table shows what the server recorded
          expect({ payout: shown.payout, result: shown.result }, id).toEqual({ payout: row.payout, result: row.result });
          // a payout rounded to whole coins is told as such, never as a plain push
          const unrounded = await page.getByTestId("round-result").getAttribute("data-unrounded");
          if (unrounded !== null) {
            expect(shown.text, `${id}: ${shown.text}`).not.toContain("Push: your bet is returned");
            // a win says its net and the multiplier before rounding; anything else says the rounding
            if (shown.result === "win") expect(shown.text).toMatch(/^You won \+[\d,]+ coins?/);
            else expect(shown.text).toContain("after rounding");
            if (
              shown.result === "push" &&
              Number(unrounded) > shown.stake &&
              !["baccarat", "three-card-poker", "craps", "sic-bo", "roulette"].includes(id)
            )
              expect(shown.text).toMatch(/^Win at [\d,.]+×/);
          }
          if (row.payout > 0) paidRounds[id] = round;
        }
      }
      expect(Object.keys(paidRounds).sort()).toEqual([...chance].sort());
      const balance = await serverBalance(t.baseUrl, s);
      await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(balance);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});
