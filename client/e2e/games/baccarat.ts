import { expect } from "vitest";
import { cardName } from "@casino/common/games/cards";
import { attr, cardsIn, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** A chip on the banker and one on the tie. */
export default {
  id: "baccarat",
  amount: 10,
  chips: 2,
  bets: 2,
  play: async (page) => {
    await page.getByTestId("baccarat-banker").click();
    await page.getByTestId("baccarat-tie").click();
    await press(page, "bet-button");
  },
  check: async (page, outcome, stake) => {
    expect(outcome.bets).toEqual({ banker: stake, tie: stake });
    expect(await attr(page, "baccarat-winner", "data-winner")).toBe(outcome.winner);
    expect(await cardsIn(page, "baccarat-player-hand")).toEqual(outcome.player.map(cardName));
    expect(await cardsIn(page, "baccarat-banker-hand")).toEqual(outcome.banker.map(cardName));
  },
} satisfies GameCase;
