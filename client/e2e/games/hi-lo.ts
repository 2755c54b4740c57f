import { expect } from "vitest";
import { attr, firstEnabled, isEnabled, playOut, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** Guesses the likelier side, and cashes out after the first correct guess. */
export default {
  id: "hi-lo",
  amount: 10,
  play: async (page) => {
    await press(page, "bet-button");
    await playOut(page, async () => {
      if (await isEnabled(page, "hilo-cashout")) return "hilo-cashout";
      const card = Number(await attr(page, "hilo-card", "data-card"));
      const rank = Math.floor(card / 4) + 2;
      const preferred = rank <= 8 ? "hilo-higher" : "hilo-lower";
      return (await firstEnabled(page, [preferred, "hilo-higher", "hilo-lower", "hilo-skip"])()) ?? null;
    });
  },
  check: async (page, outcome) => {
    expect(await attr(page, "hilo-status", "data-status")).toBe(outcome.status);
    expect(Number(await attr(page, "hilo-card", "data-card"))).toBe(outcome.card);
  },
  // on a 2 "higher or same" cannot lose and is refused, on an ace "lower or same": either may be the one offered
  openRound: { before: [], finish: ["hilo-cashout", "hilo-higher", "hilo-lower"] },
} satisfies GameCase;
