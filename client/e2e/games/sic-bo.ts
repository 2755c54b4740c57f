import { expect } from "vitest";
import { attr, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** A chip each on small, a total of 10 and the combination 1-2. */
export default {
  id: "sic-bo",
  amount: 10,
  chips: 3,
  bets: 3,
  play: async (page) => {
    await page.getByTestId("sicbo-small").click();
    await page.getByTestId("sicbo-total-10").click();
    await page.getByTestId("sicbo-combination-1-2").click();
    await press(page, "bet-button");
  },
  check: async (page, outcome) => {
    expect(outcome.bets.map((b: any) => b.bet.type)).toEqual(["small", "total", "combination"]);
    expect(await attr(page, "sicbo-dice", "data-dice")).toBe(outcome.dice.join(","));
  },
  layout: {
    prefix: "sicbo-",
    exclude: ["sicbo-undo", "sicbo-clear", "sicbo-dice", "sicbo-die-0", "sicbo-die-1", "sicbo-die-2"],
    spots: 50,
  },
} satisfies GameCase;
