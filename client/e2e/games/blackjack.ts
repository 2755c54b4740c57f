import { expect } from "vitest";
import { cardName } from "@casino/common/games/cards";
import { attr, cardsIn, firstEnabled, playOut, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** One hand, stood on at once (insurance declined when the dealer shows an ace). */
export default {
  id: "blackjack",
  amount: 10,
  play: async (page) => {
    await press(page, "bet-button");
    await playOut(page, firstEnabled(page, ["bj-insurance-decline", "bj-stand"]));
  },
  check: async (page, outcome) => {
    expect(await cardsIn(page, "bj-dealer")).toEqual(outcome.dealer.map(cardName));
    expect(await attr(page, "bj-hand-0", "data-result")).toBe(outcome.hands[0].result);
  },
  // a guest outside Discord has the public tables, so the switch is there
  ownSettings: ["blackjack-mode-solo", "blackjack-mode-table"],
  openRound: { before: [], finish: ["bj-insurance-decline", "bj-stand"] },
} satisfies GameCase;
