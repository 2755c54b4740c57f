import { expect } from "vitest";
import { cardName } from "@casino/common/games/cards";
import { attr, cardsIn, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** The ante and Pair Plus, then play (a bet the size of the ante) on whatever is dealt. */
export default {
  id: "three-card-poker",
  amount: 5,
  chips: 3,
  bets: 2,
  play: async (page) => {
    await page.getByTestId("tcp-ante").click();
    await page.getByTestId("tcp-pairPlus").click();
    await press(page, "bet-button");
    await press(page, "tcp-play");
  },
  check: async (page, outcome, stake) => {
    expect([outcome.ante, outcome.pairPlus]).toEqual([stake, stake]);
    expect(await attr(page, "tcp-outcome", "data-outcome")).toBe(outcome.anteOutcome);
    expect(await cardsIn(page, "tcp-dealer")).toEqual(outcome.dealer.map(cardName));
  },
  openRound: { before: ["tcp-ante"], finish: ["tcp-fold"] },
} satisfies GameCase;
