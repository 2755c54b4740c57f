import { expect } from "vitest";
import { press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** Under 60. */
export default {
  id: "dice",
  amount: 10,
  play: async (page) => {
    await page.getByTestId("dice-target").fill("60");
    await press(page, "bet-button");
  },
  check: async (page, outcome) => {
    expect(outcome).toMatchObject({ target: 60, direction: "under" });
    expect(await page.getByTestId("dice-roll").textContent()).toBe(outcome.roll.toFixed(2));
  },
} satisfies GameCase;
