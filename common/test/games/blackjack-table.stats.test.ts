import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/fairness/stream";
import { newShoe, nextRound, shoeFinished } from "../../src/games/blackjack-table";
import { RTP_TABLE } from "../../src/rtp-table";
import { passesChiSquare, rtpBand, summarise } from "../stats";
import { basic, bets, playRound, SEEDS, soloReplay, type Policy } from "./blackjack.cases";

/**
 * The statistical and exhaustive proofs of blackjack-table.test.ts (the stats tier, `npm run test:stats`): seconds each,
 * so they are kept out of the unit tier. The rules and the exact RTP are checked in blackjack-table.test.ts.
 */

/** The solo game's exact RTP under basic strategy, as docs/rtp.md publishes it (the generated copy, checked against the computation). */
const SOLO_RTP = RTP_TABLE.blackjack!.find((b) => b.bet === "main bet, basic strategy")!.rtp;

describe("blackjack table: pays exactly what the solo engine pays on the same cards", () => {
  it("over many shoes of 7 seats playing basic strategy, with insurance and timeouts, seat by seat; its RTP is the solo engine's", () => {
    const ROUNDS = 6_000;
    const roundReturns: number[] = [];
    const firstCard = new Array<number>(52).fill(0);
    const upRank = new Array<number>(13).fill(0);
    let stakes = 0;
    let shoeNo = 0;
    let s = newShoe(sha256Hex("rtp 0"), SEEDS);
    // a cheap deterministic choice of who takes insurance and who times out, from the shoe position
    const mixed: Policy = (state, seat) => {
      const k = (state.shoe.next * 7 + seat * 3 + state.round) % 11;
      if (state.phase === "insurance") return { type: "insurance", take: k < 3 };
      return k === 0 ? "timeout" : basic(state, seat);
    };
    const allSeats = bets([1, 10], [2, 10], [3, 10], [4, 10], [5, 10], [6, 10], [7, 10]);
    for (let round = 0; round < ROUNDS; round++) {
      if (shoeFinished(s)) s = newShoe(sha256Hex(`rtp ${++shoeNo}`), SEEDS);
      else if (s.phase === "settled") s = nextRound(s);
      const measured = round % 2 === 0; // half the rounds measure basic strategy's RTP; the other half exercise insurance and timeouts
      const played = playRound(s, allSeats, measured ? basic : mixed);
      s = played.state;
      upRank[Math.floor(s.dealer[0]! / 4)]! += 1;
      for (const seat of s.seats) {
        firstCard[seat.hands[0]!.cards[0]!]! += 1;
        const alone = soloReplay(s, seat.seat, played.logs.get(seat.seat));
        expect(alone.stake).toBe(seat.staked);
        expect(alone.payout).toBe(seat.payout);
      }
      stakes += s.seats.reduce((sum, x) => sum + x.staked, 0);
      if (measured) roundReturns.push(s.seats.reduce((sum, x) => sum + 1 + (x.payout! - x.staked) / x.bet, 0) / s.seats.length);
    }
    expect(shoeNo).toBeGreaterThan(400);
    expect(stakes).toBeGreaterThan(ROUNDS * 70);
    // one sample per round (its seats share the dealer's cards, so they are not independent)
    const sample = summarise(roundReturns);
    const [lo, hi] = rtpBand(SOLO_RTP, sample, 0.99);
    console.log(
      `table RTP over ${sample.n} rounds of 7 seats: ${(sample.mean * 100).toFixed(3)} % (99 % band ${(lo * 100).toFixed(3)}–${(hi * 100).toFixed(3)} %)`,
    );
    expect(sample.mean).toBeGreaterThan(lo);
    expect(sample.mean).toBeLessThan(hi);
    // every seat's cards come out of a uniformly shuffled shoe
    expect(passesChiSquare(firstCard)).toBe(true);
    expect(passesChiSquare(upRank)).toBe(true);
  });
});
