import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/fairness/stream";
import { act, deal, dealerTurn, defaultAction, newShoe, nextRound, seatToAct, shoeFinished } from "../src/games/blackjack-table";
import { SEEDS } from "./games/blackjack.cases";

/**
 * The shared table's rounding of an odd-stake natural, sampled over many shoes: seconds, so in the stats tier
 * (`npm run test:stats`); the worked example and the shoe's derivation are checked in shoe.test.ts.
 */

describe("docs/fairness.md: a natural on an odd stake at the table (rule 2)", () => {
  it("pays an odd-stake natural q + 1 about half the time over many shoes, and never draws for an even stake", () => {
    let naturals = 0;
    let up = 0;
    for (let i = 0; naturals < 400; i++) {
      let s = newShoe(sha256Hex(`rounding-${i}`), SEEDS, 2);
      for (let r = 0; r < 20 && !shoeFinished(s); r++) {
        if (s.phase === "settled") s = nextRound(s);
        s = deal(s, [
          { seat: 1, amount: 101 },
          { seat: 3, amount: 100 },
        ]);
        for (const st of s.seats) {
          if (st.hands[0]!.result !== "blackjack" || s.dealerBlackjack) continue;
          const paid = st.hands[0]!.payout;
          if (st.bet === 100) expect(paid).toBe(250);
          else {
            naturals += 1;
            if (paid === 253) up += 1;
            else expect(paid).toBe(252);
          }
        }
        while (seatToAct(s) !== null) s = act(s, seatToAct(s)!, defaultAction(s)!.action).state;
        if (s.phase === "dealer") s = dealerTurn(s);
      }
    }
    // 400 fair coin tosses: outside 150–250 has a chance below 1 in 10^6
    expect(up).toBeGreaterThan(150);
    expect(up).toBeLessThan(250);
  });
});
