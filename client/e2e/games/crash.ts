import { expect } from "vitest";
import { attr, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** An instant round (the table opens live: its Instant tab) with an automatic cash-out at 1.50×. */
export default {
  id: "crash",
  amount: 10,
  play: async (page) => {
    await page.getByRole("tab", { name: "Instant" }).click();
    await page.getByTestId("crash-cashout").fill("1.50");
    await press(page, "bet-button");
  },
  check: async (page, outcome) => {
    expect(outcome.cashOutAt).toBe(1.5);
    await page.getByTestId("crash-point").waitFor();
    expect(Number(await attr(page, "crash-point", "data-value"))).toBe(outcome.crashPoint);
  },
} satisfies GameCase;
