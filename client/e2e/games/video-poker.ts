import { expect } from "vitest";
import { cardName } from "@casino/common/games/cards";
import { cardsIn, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** The first and fourth cards held, the rest drawn again. */
export default {
  id: "video-poker",
  amount: 10,
  play: async (page) => {
    await press(page, "bet-button");
    await page.getByTestId("vp-card-0").click();
    await page.getByTestId("vp-card-3").click();
    await press(page, "vp-draw");
  },
  check: async (page, outcome) => {
    expect(outcome.held).toEqual([true, false, false, true, false]);
    expect(await cardsIn(page, "vp-hand")).toEqual(outcome.final.map(cardName));
    const lit = page.locator('[data-testid^="vp-line-"][data-lit="true"]');
    if (outcome.paysPerCredit > 0) expect(await lit.getAttribute("data-testid")).toBe(`vp-line-${outcome.finalHand}`);
    else expect(await lit.count()).toBe(0);
  },
  openRound: { before: [], finish: ["vp-draw"] },
} satisfies GameCase;
