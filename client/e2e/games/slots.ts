import { expect } from "vitest";
import { attr, press } from "../games-helpers";
import type { GameCase } from "../games-cases";

/** One spin. */
export default {
  id: "slots",
  amount: 10,
  play: async (page) => press(page, "bet-button"),
  check: async (page, outcome) => {
    expect(await attr(page, "slots-line", "data-line")).toBe(outcome.line.join(" "));
  },
} satisfies GameCase;
