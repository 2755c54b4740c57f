import { expect } from "vitest";
import { press, roundDone } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** Three mines; the centre tile, then a cash-out if it was a gem. */
export default {
  id: "mines",
  amount: 10,
  play: async (page) => {
    await page.getByTestId("mines-count").selectOption("3");
    await press(page, "bet-button");
    await press(page, "mines-tile-12");
    if (!(await roundDone(page))) await press(page, "mines-cashout");
  },
  check: async (page, outcome) => {
    expect(outcome.mineCount).toBe(3);
    const mines = await page
      .locator('[data-testid^="mines-tile-"][data-state="mine"]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-testid")!.slice(11))));
    expect(mines.sort((a, b) => a - b)).toEqual([...outcome.mines].sort((a: number, b: number) => a - b));
  },
  ownSettings: ["mines-count"],
  // played on its grid (cash out waits for the first gem)
  openRound: {
    before: [],
    onTable: ["mines-tile-0", "mines-tile-24"],
    finish: ["mines-cashout", ...Array.from({ length: 25 }, (_, i) => `mines-tile-${i}`)],
  },
} satisfies GameCase;
