import { expect } from "vitest";
import { attr, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** A chip each on red, straight 17, the split 17-20, the corner 1-2-4-5 and the second dozen. */
export default {
  id: "roulette",
  amount: 5,
  chips: 5,
  bets: 5,
  play: async (page) => {
    await page.getByTestId("roulette-red").click();
    await page.getByTestId("roulette-straight-17").click();
    await page.getByTestId("roulette-split-17-20").click();
    await page.getByTestId("roulette-corner-1-2-4-5").click();
    await page.getByTestId("roulette-dozen-2").click();
    await press(page, "bet-button");
  },
  check: async (page, outcome, stake) => {
    expect(outcome.bets.map((b: any) => b.bet.type)).toEqual(["red", "straight", "split", "corner", "dozen"]);
    expect(outcome.bets.every((b: any) => b.bet.amount === stake)).toBe(true);
    expect(Number(await attr(page, "roulette-pocket", "data-value"))).toBe(outcome.pocket);
  },
  layout: { prefix: "roulette-", exclude: ["roulette-undo", "roulette-clear", "roulette-pocket"], spots: 157 },
} satisfies GameCase;
