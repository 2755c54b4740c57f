import { describe, expect, it } from "vitest";
import { fixedRng } from "../../src/fairness/stream";
import { cardCode, rankOf, type Card } from "../../src/games/cards";
import { requireEngine, startRound } from "../../src/games/runner";
import { baccaratEngine, bankerDraws, type BaccaratSide, type BaccaratState } from "../../src/games/baccarat/engine";
import { baccaratRtp, coupOdds } from "../../src/games/baccarat/rtp";
import { ruleError, shoeFloats } from "../helpers";
import { independentDerivation, pay, rank, run, shoe, type Stream } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("baccarat");
const DECKS = 8;

// Cards by baccarat points: 0 is a king, 1 an ace, 2–9 face value; suits vary so the shoe sees different codes.
const pts = (points: number, suit = 0): Card => cardCode(points === 0 ? 13 : points === 1 ? 14 : points, suit);

/** Deals P1 B1 P2 B2 [P3] [B3] in that order. */
function coup(cards: Card[], bets: Partial<Record<BaccaratSide, number>> = { player: 10 }) {
  const amount = Object.values(bets).reduce((a, b) => a + b, 0);
  const step = startRound(engine, amount, { bets }, fixedRng(shoeFloats(cards, DECKS)));
  return { step, state: step.state as BaccaratState };
}

describe("baccarat: dealing and drawing rules", () => {
  it("deals Player, Banker, Player, Banker from the canonical shoe", () => {
    const cards = [pts(2, 1), pts(3, 2), pts(4, 3), pts(4, 0)]; // 6 against 7: both stand
    const { state } = coup(cards);
    expect(state.player).toEqual([cards[0], cards[2]]);
    expect(state.banker).toEqual([cards[1], cards[3]]);
    // the last code of the shoe is the ace of clubs
    const last = startRound(engine, 1, { bets: { tie: 1 } }, fixedRng([0.9999999, 0, 0, 0, 0, 0])).state as BaccaratState;
    expect(rankOf(last.player[0]!)).toBe(14);
  });

  it("counts A as 1, 2–9 at face value, tens and faces as 0, totals mod 10", () => {
    const { state } = coup([cardCode(10, 0), cardCode(11, 0), cardCode(12, 0), cardCode(14, 0), pts(5), pts(2)]);
    // player 10 + Q = 0 draws 5; banker J + A = 1 draws on player third 5
    expect(state.playerTotal).toBe(5);
    expect(state.player).toHaveLength(3);
    expect(state.banker).toHaveLength(3);
  });

  it("stands on a natural: nobody draws", () => {
    const { state, step } = coup([pts(4), pts(3), pts(4), pts(4)]); // player 8 natural, banker 7
    expect(state.player).toHaveLength(2);
    expect(state.banker).toHaveLength(2);
    expect(state.winner).toBe("player");
    expect(step.payout).toBe(20);
    const banker9 = coup([pts(2), pts(4), pts(3), pts(5)]); // player 5 would draw, but banker has 9
    expect(banker9.state.player).toHaveLength(2);
    expect(banker9.state.winner).toBe("banker");
    const bothNatural = coup([pts(4), pts(5), pts(4), pts(3)], { tie: 2 }); // 8 against 8
    expect(bothNatural.state.winner).toBe("tie");
    expect(bothNatural.step.payout).toBe(18);
  });

  it("player draws on 0–5 and stands on 6–7", () => {
    for (let p = 0; p <= 7; p++) {
      // banker 7 stands either way; player total p from a king and p points
      const cards = [pts(0), pts(3), pts(p, 1), pts(4), pts(1, 2), pts(1, 3)];
      const { state } = coup(cards);
      expect(state.player.length, `player ${p}`).toBe(p <= 5 ? 3 : 2);
      expect(state.banker).toHaveLength(2);
    }
  });

  it("banker draws on 0–5 and stands on 6–7 when the player stood", () => {
    for (let b = 0; b <= 7; b++) {
      const cards = [pts(3), pts(0), pts(3), pts(b, 1), pts(1, 2)]; // player 6 stands
      const { state } = coup(cards);
      expect(state.player).toHaveLength(2);
      expect(state.banker.length, `banker ${b}`).toBe(b <= 5 ? 3 : 2);
    }
  });

  // The printed third-card chart: rows banker 0–7, columns the player's third card 0–9 (D draw, S stand).
  const CHART: Record<number, string> = {
    0: "DDDDDDDDDD",
    1: "DDDDDDDDDD",
    2: "DDDDDDDDDD",
    3: "DDDDDDDDSD",
    4: "SSDDDDDDSS",
    5: "SSSSDDDDSS",
    6: "SSSSSSDDSS",
    7: "SSSSSSSSSS",
  };

  it("follows the banker's third-card table in full", () => {
    for (let b = 0; b <= 7; b++) {
      for (let v = 0; v <= 9; v++) {
        expect(bankerDraws(b, v), `banker ${b}, player third ${v}`).toBe(CHART[b]![v] === "D");
      }
    }
  });

  it("applies the table in real coups", () => {
    // player 0 + 0 draws the third card v; banker total b from two cards
    const play = (b: number, v: number) => {
      const bankerCards = b >= 2 ? [pts(1, 1), pts(b - 1, 2)] : [pts(0, 1), pts(b, 2)];
      const cards = [pts(0), bankerCards[0]!, pts(0, 3), bankerCards[1]!, pts(v, 3), pts(2, 3)];
      return coup(cards).state;
    };
    expect(play(3, 8).banker).toHaveLength(2); // banker 3 stands on a player 8
    expect(play(3, 9).banker).toHaveLength(3);
    expect(play(6, 6).banker).toHaveLength(3); // banker 6 draws on 6 and 7
    expect(play(6, 7).banker).toHaveLength(3);
    expect(play(6, 5).banker).toHaveLength(2);
    expect(play(4, 1).banker).toHaveLength(2);
    expect(play(4, 2).banker).toHaveLength(3);
    expect(play(5, 3).banker).toHaveLength(2);
    expect(play(5, 4).banker).toHaveLength(3);
    expect(play(2, 8).banker).toHaveLength(3);
    expect(play(7, 6).banker).toHaveLength(2);
    // banker 6 drawing a 2 makes 8 against the player's 0 + 0 + 6 = 6
    const s = play(6, 6);
    expect(s.bankerTotal).toBe(8);
    expect(s.winner).toBe("banker");
  });
});

describe("baccarat: bets and payouts", () => {
  // player 9 natural beats banker 8 / banker 9 beats player 8 / 7 against 7
  const playerWins = [pts(4), pts(4), pts(5), pts(4)];
  const bankerWins = [pts(4), pts(4), pts(4), pts(5)];
  const tie = [pts(3), pts(3), pts(4), pts(4)];

  it("pays Player 1:1, Banker 0.95:1 rounded down, Tie 8:1", () => {
    expect(coup(playerWins, { player: 7 }).step.payout).toBe(14);
    expect(coup(bankerWins, { banker: 100 }).step.payout).toBe(195);
    expect(coup(bankerWins, { banker: 20 }).step.payout).toBe(39);
    expect(coup(bankerWins, { banker: 1 }).step.payout).toBe(1); // 1.95 rounds down
    expect(coup(bankerWins, { banker: 7 }).step.payout).toBe(7 + 6); // 7 × 0.95 = 6.65
    expect(coup(tie, { tie: 5 }).step.payout).toBe(45);
  });

  it("pushes Player and Banker on a tie, loses the others", () => {
    const t = coup(tie, { player: 10, banker: 20, tie: 3 });
    expect(t.state.payouts).toEqual({ player: 10, banker: 20, tie: 27 });
    expect(t.step.payout).toBe(57);
    expect(t.step.stake).toBe(33);
    const p = coup(playerWins, { player: 10, banker: 20, tie: 3 });
    expect(p.state.payouts).toEqual({ player: 20, banker: 0, tie: 0 });
    expect(p.step.payout).toBe(20);
    expect(coup(bankerWins, { player: 4 }).step.payout).toBe(0);
  });

  it("refuses an amount that differs from the bets on the table", () => {
    const rng = () => fixedRng(shoeFloats(tie, DECKS));
    expect(ruleError(() => startRound(engine, 10, { bets: { player: 5, tie: 4 } }, rng())).code).toBe("invalid_amount");
    expect(ruleError(() => startRound(engine, 10, { bets: {} }, rng())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, {}, rng())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { bets: { player: 9.5, tie: 0.5 } }, rng())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { bets: { player: 10, banker: 0 } }, rng())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { bets: { dragon: 10 } }, rng())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { bets: { player: 10 }, side: 1 }, rng())).code).toBe("invalid_params");
  });

  it("shows the most a bet can pay back", () => {
    expect(baccaratEngine.maxPayout(100, { bets: { banker: 100 } })).toBe(195);
    expect(baccaratEngine.maxPayout(30, { bets: { player: 10, banker: 10, tie: 10 } })).toBe(110); // tie: 90 + 10 + 10
    expect(baccaratEngine.maxPayout(101, { bets: { player: 100, tie: 1 } })).toBe(200);
  });
});

describe("baccarat: exact RTP and simulation", () => {
  it("matches the published exact house edges for 8 and 6 decks", () => {
    const rows = exactRtpOf("baccarat");
    expect(rows.map((r) => r.bet)).toEqual(["player", "banker", "tie"]);
    for (const row of rows) expect(Math.abs(row.rtp - row.reference!), row.bet).toBeLessThan(1e-6);
    // game-rules A3: 6 decks 1.0558 % / 1.2374 % / 14.4382 %, P(banker) 0.458597 and P(player) 0.446247 in 8 decks
    expect(1 - baccaratRtp("banker", 6)).toBeCloseTo(0.010558, 6);
    expect(1 - baccaratRtp("player", 6)).toBeCloseTo(0.012374, 6);
    expect(1 - baccaratRtp("tie", 6)).toBeCloseTo(0.144382, 6);
    const { ways, total } = coupOdds(8);
    expect(Number(ways.banker) / Number(total)).toBeCloseTo(0.458597, 6);
    expect(Number(ways.player) / Number(total)).toBeCloseTo(0.446247, 6);
    expect(ways.player + ways.banker + ways.tie).toBe(total);
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("baccarat", (e) => {
  const deal = shoe(8);
  const points = (code: number) => (rank(code) === 14 ? 1 : rank(code) >= 10 ? 0 : rank(code));
  const total = (hand: number[]) => hand.reduce((t, c) => t + points(c), 0) % 10;
  const player: number[] = [];
  const banker: number[] = [];
  let payout = 0;
  const dealCoup = (s: Stream) => {
    player.push(deal(s));
    banker.push(deal(s));
    player.push(deal(s));
    banker.push(deal(s));
    const [p, b] = [total(player), total(banker)];
    if (p >= 8 || b >= 8) return;
    let third: number | null = null;
    if (p <= 5) {
      player.push(deal(s));
      third = points(player[2]!);
    }
    const draws =
      third === null
        ? b <= 5
        : b <= 2 ||
          (b === 3 && third !== 8) ||
          (b === 4 && third >= 2 && third <= 7) ||
          (b === 5 && third >= 4 && third <= 7) ||
          (b === 6 && third >= 6);
    if (draws) banker.push(deal(s));
  };
  // the bets are made whole in the page's order, player, banker, tie, from the floats after the cards
  const settle = (s: Stream) => {
    const [p, b] = [total(player), total(banker)];
    const winner = p === b ? "tie" : p > b ? "player" : "banker";
    const returns: Record<string, [number, number]> = { player: [2, 1], banker: [195, 100], tie: [9, 1] };
    for (const side of ["player", "banker", "tie"]) {
      const amount = (e.params.bets as Record<string, number | undefined>)[side];
      if (amount === undefined) continue;
      payout += side === winner ? pay(e, s, amount, ...returns[side]!) : winner === "tie" ? amount : 0;
    }
  };
  const steps = run(e, [
    (s) => {
      dealCoup(s);
      settle(s);
    },
  ]);
  const [p, b] = [total(player), total(banker)];
  const winner = p === b ? "tie" : p > b ? "player" : "banker";
  return { steps, outcome: { player, banker, playerTotal: p, bankerTotal: b, winner }, payout };
});
