import { expect } from "vitest";
import { formatMultiplier } from "@casino/common/format";
import { attr, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** A target of 1.75×. */
export default {
  id: "limbo",
  amount: 10,
  play: async (page) => {
    await page.getByTestId("limbo-target").fill("1.75");
    await press(page, "bet-button");
  },
  check: async (page, outcome) => {
    expect(outcome.target).toBe(1.75);
    expect(Number(await attr(page, "limbo-result", "data-value"))).toBe(outcome.result);
    await expect.poll(() => page.getByTestId("limbo-result").textContent()).toBe(formatMultiplier(outcome.result));
  },
} satisfies GameCase;
