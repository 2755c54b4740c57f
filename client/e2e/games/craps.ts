import { expect } from "vitest";
import { attr, firstEnabled, playOut, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** The pass line and the field, then rolls until every bet is settled. */
export default {
  id: "craps",
  amount: 10,
  chips: 2,
  bets: 2,
  play: async (page) => {
    await page.getByTestId("craps-pass").click();
    await page.getByTestId("craps-field").click();
    await press(page, "bet-button");
    await playOut(page, firstEnabled(page, ["craps-roll"]));
  },
  check: async (page, outcome) => {
    const last = outcome.rolls[outcome.rolls.length - 1];
    expect(await attr(page, "craps-dice", "data-dice")).toBe(last.join(","));
    expect(outcome.bets).toEqual([]);
  },
  // the come-out roll comes with the bet; a point keeps the round open for the next rolls
  openRound: { before: ["craps-pass"], finish: ["craps-roll"] },
} satisfies GameCase;
