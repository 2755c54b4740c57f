import { expect } from "vitest";
import { cardName } from "@casino/common/games/cards";
import { attr, cardsIn, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** The ante, then a raise (twice the ante) on whatever is dealt. */
export default {
  id: "poker",
  amount: 10,
  chips: 3,
  play: async (page) => {
    await press(page, "bet-button");
    await press(page, "poker-raise");
  },
  check: async (page, outcome) => {
    expect(await attr(page, "poker-outcome", "data-outcome")).toBe(outcome.outcome);
    expect(await cardsIn(page, "poker-dealer")).toEqual(outcome.dealer.map(cardName));
    expect(await cardsIn(page, "poker-player")).toEqual(outcome.player.map(cardName));
  },
  openRound: { before: [], finish: ["poker-fold"] },
} satisfies GameCase;
