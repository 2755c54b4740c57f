import { expect } from "vitest";
import { attr, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** Tails. */
export default {
  id: "coin-flip",
  amount: 10,
  play: async (page) => {
    await page.getByTestId("coin-tails").click();
    await press(page, "bet-button");
  },
  check: async (page, outcome) => {
    expect(outcome.side).toBe("tails");
    expect(await attr(page, "coin-outcome", "data-outcome")).toBe(outcome.outcome);
  },
} satisfies GameCase;
