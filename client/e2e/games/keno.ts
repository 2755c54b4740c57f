import { expect } from "vitest";
import { press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** Five picks at high risk. */
export default {
  id: "keno",
  amount: 10,
  play: async (page) => {
    for (const tile of [3, 8, 13, 21, 34]) await page.getByTestId(`keno-tile-${tile}`).click();
    await page.getByTestId("keno-risk").selectOption("high");
    await press(page, "bet-button");
  },
  check: async (page, outcome) => {
    expect(outcome).toMatchObject({ picks: [3, 8, 13, 21, 34], risk: "high" });
    expect(await page.getByTestId("keno-hit").count()).toBe(outcome.hits.length);
    // a hit keeps its number in sight (the gem is only a mark beside it)
    const hitNumbers = await page.getByTestId("keno-hit").allTextContents();
    expect(hitNumbers.map(Number).sort((a, b) => a - b)).toEqual([...outcome.hits].sort((a: number, b: number) => a - b));
    expect(await page.getByTestId("keno-drawn").count()).toBe(outcome.drawn.length - outcome.hits.length);
  },
  // one low-risk pick pays 0.70× even on a miss
  playToBePaid: async (page) => {
    await page.getByTestId("keno-tile-7").click();
    await page.getByTestId("keno-risk").selectOption("low");
    await press(page, "bet-button");
  },
} satisfies GameCase;
