import { describe, expect, it } from "vitest";
import { fixedRng, floatStream } from "../../src/fairness/stream";
import { cardCode, rankOf, type Card } from "../../src/games/cards";
import { type Step } from "../../src/games/engine";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import {
  basicStrategy,
  blackjackEngine,
  canDouble,
  canSplit,
  handValue,
  type BlackjackAction,
  type BlackjackState,
} from "../../src/games/blackjack/engine";
import { dealerOutcomes } from "../../src/games/blackjack/rtp";
import { ruleError, shoeFloats } from "../helpers";
import { independentDerivation, pay, rank, shoe, stream } from "../fairness-pages";

const engine = requireEngine("blackjack");
const DECKS = 6;
const J = 11;
const Q = 12;
const K = 13;
const A = 14;

/** A card of the given rank (2–10, J, Q, K, A = 14); the suit only varies the code. */
const c = (rank: number, suit = 0): Card => cardCode(rank, suit);

/** A round dealt from exactly these cards: player, dealer up, player, hole, then every draw in order. */
function table(ranks: readonly number[], bet = 10) {
  const rng = fixedRng(
    shoeFloats(
      ranks.map((r, i) => c(r, i % 4)),
      DECKS,
    ),
  );
  const steps: Step<unknown>[] = [startRound(engine, bet, {}, rng)];
  const last = () => steps[steps.length - 1]!;
  return {
    rng,
    steps,
    get step() {
      return last();
    },
    get state() {
      return last().state as BlackjackState;
    },
    act(action: BlackjackAction) {
      steps.push(actRound(engine, last().state, action, rng));
      return last();
    },
    get totalStake() {
      return steps.reduce((s, x) => s + x.stake, 0);
    },
    get totalPayout() {
      return steps.reduce((s, x) => s + x.payout, 0);
    },
  };
}

const ranksOf = (cards: readonly Card[]) => cards.map(rankOf);

describe("blackjack: hand values", () => {
  it("counts aces as 11 when that does not bust", () => {
    expect(handValue([c(A), c(6)])).toEqual({ total: 17, soft: true });
    expect(handValue([c(A), c(6), c(9)])).toEqual({ total: 16, soft: false });
    expect(handValue([c(A), c(A)])).toEqual({ total: 12, soft: true });
    expect(handValue([c(A), c(A), c(9)])).toEqual({ total: 21, soft: true });
    expect(handValue([c(K), c(Q), c(2)])).toEqual({ total: 22, soft: false });
    expect(handValue([c(J), c(A)])).toEqual({ total: 21, soft: true });
  });
});

describe("blackjack: the deal and the dealer", () => {
  it("deals player, up card, player, hole card and hides the hole card and the shoe while open", () => {
    const t = table([10, 9, 7, 8]);
    expect(t.step.done).toBe(false);
    expect(ranksOf(t.state.hands[0]!.cards)).toEqual([10, 7]);
    expect(ranksOf(t.state.dealer)).toEqual([9, 8]);
    const open = blackjackEngine.view(t.state, false) as Record<string, unknown>;
    expect(open.dealer).toEqual([c(9, 1), null]);
    expect(open.dealt).toBeUndefined();
    expect(JSON.stringify(open)).not.toContain(`"dealerTotal":17`);
    expect(open.actions).toEqual(["hit", "stand", "double"]);
    t.act({ type: "stand" }); // 17 against the dealer's 9 + 8 = 17
    expect(t.step.done).toBe(true);
    expect(t.step.payout).toBe(10);
    expect(t.state.hands[0]!.result).toBe("push");
    const shown = blackjackEngine.view(t.state, true) as Record<string, unknown>;
    expect(shown.dealer).toEqual([c(9, 1), c(8, 3)]);
    expect(shown.dealt).toEqual(t.state.dealt);
  });

  it("stands on soft 17 and hits 16 and soft 16", () => {
    const soft17 = table([10, 6, 8, A, 9]); // 18 against A + 6: the dealer stands
    soft17.act({ type: "stand" });
    expect(soft17.state.dealer).toHaveLength(2);
    expect(soft17.step.payout).toBe(20);
    const hard16 = table([10, 10, 8, 6, 5]); // 18 against 16: the dealer draws to 21
    hard16.act({ type: "stand" });
    expect(ranksOf(hard16.state.dealer)).toEqual([10, 6, 5]);
    expect(hard16.step.payout).toBe(0);
    const soft16 = table([10, 5, 8, A, 2]); // A + 5 draws a 2: soft 18 pushes the player's 18
    soft16.act({ type: "stand" });
    expect(ranksOf(soft16.state.dealer)).toEqual([5, A, 2]);
    expect(soft16.state.hands[0]!.result).toBe("push");
    const drawsTo21 = table([10, 6, 9, 10, 5, 10]); // 19 against 6 + 10; the dealer draws 5 and stops on 21
    drawsTo21.act({ type: "stand" });
    expect(ranksOf(drawsTo21.state.dealer)).toEqual([6, 10, 5]);
    expect(drawsTo21.step.payout).toBe(0);
  });

  it("does not draw for the dealer when every hand has bust", () => {
    const t = table([10, 6, 6, 10, K]); // only five cards in the stream: a dealer draw would exhaust it
    t.act({ type: "hit" });
    expect(t.step.done).toBe(true);
    expect(t.state.hands[0]!.result).toBe("bust");
    expect(t.state.dealer).toHaveLength(2);
    expect(t.totalPayout).toBe(0);
  });

  it("stands a hand that reaches 21", () => {
    const t = table([10, 9, 5, 8, 6, 3]);
    t.act({ type: "hit" }); // 21: no more decisions, the dealer's 17 loses
    expect(t.step.done).toBe(true);
    expect(t.step.payout).toBe(20);
  });
});

describe("blackjack: naturals and the peek", () => {
  it("pays a blackjack 3:2 in whole coins at once", () => {
    expect(table([A, 9, K, 7]).step).toMatchObject({ done: true, stake: 10, payout: 25 });
    expect(table([A, 9, K, 7], 3).step.payout).toBe(7); // 3 + floor(4.5)
    expect(table([A, 9, K, 7], 1).step.payout).toBe(2);
    expect(table([Q, 10, A, 9]).step.payout).toBe(25); // ten up: the dealer peeks, has 19, the natural is paid
  });

  it("ends the round at once on a dealer blackjack under a ten", () => {
    const t = table([10, K, 9, A]);
    expect(t.step).toMatchObject({ done: true, stake: 10, payout: 0 });
    expect(t.state.dealerBlackjack).toBe(true);
    expect(t.rng.cursor).toBe(4);
    const both = table([A, Q, J, A]);
    expect(both.step).toMatchObject({ done: true, payout: 10 });
    expect(both.state.hands[0]!.result).toBe("push");
  });

  it("offers insurance under an ace, before the peek, at half the bet rounded down", () => {
    const t = table([10, A, 9, K], 11);
    expect(t.step.done).toBe(false);
    expect(t.state.phase).toBe("insurance");
    expect((blackjackEngine.view(t.state, false) as { actions: string[] }).actions).toEqual(["insurance"]);
    expect(ruleError(() => t.act({ type: "hit" })).code).toBe("insurance_pending");
    t.act({ type: "insurance", take: true });
    // insurance 5 pays 2:1 (15 back), the main bet of 11 loses to the blackjack
    expect(t.step).toMatchObject({ done: true, stake: 5, payout: 15 });
    expect(t.totalStake).toBe(16);
  });

  it("loses a declined insurance decision's main bet to a dealer blackjack", () => {
    const t = table([10, A, 9, K]);
    t.act({ type: "insurance", take: false });
    expect(t.step).toMatchObject({ done: true, stake: 0, payout: 0 });
  });

  it("loses the insurance and plays on when the dealer has no blackjack", () => {
    const t = table([10, A, 9, 7]);
    t.act({ type: "insurance", take: true });
    expect(t.step).toMatchObject({ done: false, stake: 5, payout: 0 });
    expect(t.state.insurance).toEqual({ stake: 5, payout: 0 });
    t.act({ type: "stand" }); // 19 against soft 18
    expect(t.step.payout).toBe(20);
    expect(t.totalStake).toBe(15);
    expect(ruleError(() => t.act({ type: "hit" })).code).toBe("round_over");
    expect(ruleError(() => t.act({ type: "insurance", take: false })).code).toBe("round_over");
  });

  it("makes insurance on a blackjack worth even money either way", () => {
    const noDealerBj = table([A, A, K, 7]);
    noDealerBj.act({ type: "insurance", take: true });
    const dealerBj = table([A, A, K, Q]);
    dealerBj.act({ type: "insurance", take: true });
    for (const t of [noDealerBj, dealerBj]) {
      expect(t.step.done).toBe(true);
      expect(t.totalPayout - t.totalStake).toBe(10);
    }
  });

  it("offers no insurance on a 1-coin bet", () => {
    const t = table([10, A, 9, 7], 1);
    expect(t.state.phase).toBe("playing");
    expect(ruleError(() => t.act({ type: "insurance", take: true })).code).toBe("no_insurance");
    expect(table([10, A, 9, K], 1).step).toMatchObject({ done: true, payout: 0 });
  });
});

describe("blackjack: doubling and splitting", () => {
  it("doubles any two cards: the bet again and exactly one card", () => {
    const t = table([5, 6, 6, 10, 10, 10]); // 11 against 6: doubles to 21, the dealer's 16 busts
    t.act({ type: "double" });
    expect(t.step).toMatchObject({ done: true, stake: 10, payout: 40 });
    expect(t.state.hands[0]).toMatchObject({ stake: 20, doubled: true });
    expect(t.state.hands[0]!.cards).toHaveLength(3);
    const fifteen = table([10, 9, 5, 8, 2, 10]); // 15 doubled: one card only, 17 against 17
    fifteen.act({ type: "double" });
    expect(fifteen.state.hands[0]!.cards).toHaveLength(3);
    expect(fifteen.step).toMatchObject({ done: true, payout: 20 });
    const bust = table([10, 7, 6, 10, 9]);
    bust.act({ type: "double" });
    expect(bust.step).toMatchObject({ done: true, stake: 10, payout: 0 });
  });

  it("refuses to double three cards", () => {
    const t = table([2, 9, 3, 8, 4]);
    t.act({ type: "hit" });
    expect(canDouble(t.state)).toBe(false);
    expect(ruleError(() => t.act({ type: "double" })).code).toBe("cannot_double");
  });

  it("splits a pair, deals each hand its second card when it is played, and doubles after the split", () => {
    // 8,8 against 6: hand 1 gets 3 (11) and doubles to 21; hand 2 gets K (18); the dealer's 16 busts with a 9
    const t = table([8, 6, 8, 10, 3, 10, K, 9]);
    t.act({ type: "split" });
    expect(t.step).toMatchObject({ stake: 10, done: false });
    expect(t.state.hands.map((h) => ranksOf(h.cards))).toEqual([[8, 3], [8]]);
    t.act({ type: "double" });
    expect(t.state.hands.map((h) => ranksOf(h.cards))).toEqual([
      [8, 3, 10],
      [8, K],
    ]);
    expect(t.state.active).toBe(1);
    t.act({ type: "stand" });
    expect(t.step.done).toBe(true);
    expect(t.state.hands.map((h) => h.payout)).toEqual([40, 20]);
    expect(t.totalStake).toBe(30);
    expect(t.totalPayout).toBe(60);
  });

  it("splits only identical ranks", () => {
    const t = table([K, 6, Q, 10]);
    expect(canSplit(t.state)).toBe(false);
    const e = ruleError(() => t.act({ type: "split" }));
    expect(e.code).toBe("cannot_split");
    expect(e.message).toContain("same rank");
    expect(ruleError(() => table([9, 6, 8, 10]).act({ type: "split" })).code).toBe("cannot_split");
  });

  it("does not count 21 after a split as a blackjack", () => {
    const t = table([K, 6, K, 10, A, 9, 10]); // K,K split: K+A = 21 stands by itself, K+9 = 19
    t.act({ type: "split" });
    expect(t.state.active).toBe(1);
    t.act({ type: "stand" });
    expect(t.state.hands.map((h) => h.result)).toEqual(["win", "win"]);
    expect(t.state.hands.map((h) => h.payout)).toEqual([20, 20]);
  });

  it("splits up to four hands", () => {
    const t = table([8, 6, 8, 10, 8, 8, 8, 2, 3, 4, 10]);
    t.act({ type: "split" });
    t.act({ type: "split" });
    t.act({ type: "split" });
    expect(t.state.hands).toHaveLength(4);
    expect(ranksOf(t.state.hands[0]!.cards)).toEqual([8, 8]);
    expect(canSplit(t.state)).toBe(false);
    expect((blackjackEngine.view(t.state, false) as { actions: string[] }).actions).toEqual(["hit", "stand", "double"]);
    const e = ruleError(() => t.act({ type: "split" }));
    expect(e.code).toBe("cannot_split");
    expect(e.message).toContain("4 hands");
    for (let i = 0; i < 4; i++) t.act({ type: "stand" });
    expect(t.state.hands.map((h) => ranksOf(h.cards))).toEqual([
      [8, 8],
      [8, 2],
      [8, 3],
      [8, 4],
    ]);
    expect(t.step.done).toBe(true); // the dealer's 16 busts with the 10
    expect(t.totalStake).toBe(40);
    expect(t.totalPayout).toBe(80);
  });

  it("splits aces once, one card each, and stops", () => {
    const t = table([A, 9, A, 7, K, 5, 2]); // A+K = 21 (not a blackjack), A+5; the dealer's 16 draws 2
    t.act({ type: "split" });
    expect(t.step.done).toBe(true);
    expect(t.state.hands.map((h) => ranksOf(h.cards))).toEqual([
      [A, K],
      [A, 5],
    ]);
    expect(t.state.hands.map((h) => h.payout)).toEqual([20, 0]);
    const again = table([A, 9, A, 7, A, 5, 10]); // a third ace does not split again: A,A stands as soft 12
    again.act({ type: "split" });
    expect(again.step.done).toBe(true);
    expect(again.state.hands).toHaveLength(2);
    expect(again.state.hands.map((h) => h.payout)).toEqual([20, 20]);
    expect(ruleError(() => again.act({ type: "hit" })).code).toBe("round_over");
  });

  it("refuses unknown actions and shows the most a bet can pay", () => {
    const t = table([10, 9, 7, 8]);
    expect(ruleError(() => actRound(engine, t.state, { type: "surrender" }, t.rng)).code).toBe("invalid_action");
    expect(ruleError(() => actRound(engine, t.state, { type: "insurance" }, t.rng)).code).toBe("invalid_action");
    expect(ruleError(() => startRound(engine, 10, { decks: 1 }, t.rng)).code).toBe("invalid_params");
    expect(blackjackEngine.maxPayout(10, {})).toBe(160);
  });
});

describe("blackjack: basic strategy (6 decks, S17, DAS, no surrender)", () => {
  // The printed chart, columns dealer 2–10 then A. H hit, S stand, D double (else hit), d double (else stand), P split.
  const HARD: Record<number, string> = {
    5: "HHHHHHHHHH",
    6: "HHHHHHHHHH",
    7: "HHHHHHHHHH",
    8: "HHHHHHHHHH",
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHHH",
    16: "SSSSSHHHHH",
    17: "SSSSSSSSSS",
    18: "SSSSSSSSSS",
    19: "SSSSSSSSSS",
    20: "SSSSSSSSSS",
  };
  const SOFT: Record<number, string> = {
    2: "HHHDDHHHHH",
    3: "HHHDDHHHHH",
    4: "HHDDDHHHHH",
    5: "HHDDDHHHHH",
    6: "HDDDDHHHHH",
    7: "SddddSSHHH",
    8: "SSSSSSSSSS",
    9: "SSSSSSSSSS",
  };
  const PAIRS: Record<number, string> = {
    2: "PPPPPPHHHH",
    3: "PPPPPPHHHH",
    4: "HHHPPHHHHH",
    5: "DDDDDDDDHH",
    6: "PPPPPHHHHH",
    7: "PPPPPPHHHH",
    8: "PPPPPPPPPP",
    9: "PPPPPSPPSS",
    10: "SSSSSSSSSS",
    14: "PPPPPPPPPP",
  };
  const UPS = [2, 3, 4, 5, 6, 7, 8, 9, 10, A];
  const move = (cell: string, canDouble: boolean) =>
    ({ H: "hit", S: "stand", P: "split", D: canDouble ? "double" : "hit", d: canDouble ? "double" : "stand" })[cell];

  it("matches the chart for hard totals (two different ranks)", () => {
    for (const [total, row] of Object.entries(HARD)) {
      const t = Number(total);
      const hand = t <= 11 ? [c(2), c(t - 2)] : t === 20 ? [c(10), c(Q)] : [c(t - 10), c(K)];
      UPS.forEach((up, i) => {
        expect(basicStrategy(hand, c(up, 2), true, true), `hard ${t} v ${up}`).toBe(move(row[i]!, true));
        expect(basicStrategy(hand, c(up, 2), false, false), `hard ${t} v ${up}, no double`).toBe(move(row[i]!, false));
      });
    }
  });

  it("matches the chart for soft totals", () => {
    for (const [other, row] of Object.entries(SOFT)) {
      const hand = [c(A), c(Number(other))];
      UPS.forEach((up, i) => {
        expect(basicStrategy(hand, c(up, 3), true, false), `A,${other} v ${up}`).toBe(move(row[i]!, true));
        expect(basicStrategy(hand, c(up, 3), false, false), `A,${other} v ${up}, no double`).toBe(move(row[i]!, false));
      });
    }
    // three-card soft 18 (A,3,4) cannot double: stands against 2–8, hits 9, 10, A
    expect(UPS.map((up) => basicStrategy([c(A), c(3), c(4)], c(up), true, false))).toEqual([
      ...Array(7).fill("stand"),
      ...Array(3).fill("hit"),
    ]);
  });

  it("matches the chart for pairs, and plays a pair by its total when it may not split", () => {
    for (const [rank, row] of Object.entries(PAIRS)) {
      const hand = [c(Number(rank), 0), c(Number(rank), 1)];
      UPS.forEach((up, i) => expect(basicStrategy(hand, c(up, 2), true, true), `pair ${rank} v ${up}`).toBe(move(row[i]!, true)));
    }
    expect(basicStrategy([c(8), c(8, 1)], c(10), true, false)).toBe("hit");
    expect(basicStrategy([c(A), c(A, 1)], c(6), true, false)).toBe("hit"); // soft 12
  });
});

describe("blackjack: exact return and simulation", () => {
  it("reproduces published dealer probabilities", () => {
    // Wizard of Odds, blackjack appendix 2: 1 deck, S17, after the peek; final 17, 18, 19, 20, 21, bust
    const oneDeck: Record<number, number[]> = {
      1: [0.183786, 0.19089, 0.18868, 0.191692, 0.075137, 0.169815],
      2: [0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0.352973],
      6: [0.166948, 0.106454, 0.107192, 0.100705, 0.097879, 0.420823],
      9: [0.121886, 0.103921, 0.357391, 0.12225, 0.061109, 0.233442],
      10: [0.124156, 0.122486, 0.124421, 0.356869, 0.03957, 0.232499],
    };
    for (const [up, row] of Object.entries(oneDeck)) {
      const joint = dealerOutcomes(Number(up), 1);
      const noBlackjack = joint.reduce((a, b) => a + b, 0);
      joint.forEach((p, i) => expect(p / noBlackjack, `up ${up}, outcome ${i}`).toBeCloseTo(row[i]!, 5));
    }
    // infinite deck bust rates under 7, 8, 9 (A. Krigman, Casino City Times, 2006): 26.23 %, 24.47 %, 22.84 %
    [0.2623, 0.2447, 0.2284].forEach((b, i) => expect(dealerOutcomes(i + 7)[5]).toBeCloseTo(b, 4));
    // after the peek an ace up has no ten underneath: 4/13 of the infinite deck's mass is gone
    expect(dealerOutcomes(1).reduce((a, b) => a + b, 0)).toBeCloseTo(9 / 13, 12);
  });

  it("replays a multi-step round to the same result from its seeds", () => {
    for (let nonce = 0; ; nonce++) {
      const input = { serverSeed: "c".repeat(64), clientSeed: "blackjack", nonce };
      const rng = floatStream(input);
      const steps = [startRound(engine, 20, {}, rng)];
      const actions: BlackjackAction[] = [];
      while (!steps[steps.length - 1]!.done) {
        const s = steps[steps.length - 1]!.state as BlackjackState;
        const action: BlackjackAction =
          s.phase === "insurance"
            ? { type: "insurance", take: true }
            : { type: basicStrategy(s.hands[s.active]!.cards, s.dealer[0]!, canDouble(s), canSplit(s)) };
        actions.push(action);
        steps.push(actRound(engine, s, action, rng));
      }
      if (actions.length < 2) continue;
      const replay = replayRound(input, { game: "blackjack", amount: 20, params: {}, actions });
      expect(replay.steps).toEqual(steps);
      expect(replay.done).toBe(true);
      expect(replay.totalStake).toBe(steps.reduce((a, s) => a + s.stake, 0));
      expect(replay.view).toEqual(blackjackEngine.view(steps[steps.length - 1]!.state as BlackjackState, true));
      break;
    }
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("blackjack", (e) => {
  // Every card leaves the 6-deck shoe in order, one float each: the outcome's `dealt` list must be the
  // shoe's sequence; the dealer holds the 2nd and 4th cards and draws last.
  const deal = shoe(6);
  const s = stream(e.serverSeed, e.clientSeed, e.nonce);
  const count = e.outcome.dealt.length;
  const floats: number[] = [];
  const recording = { next: () => (floats.push(s.next()), floats[floats.length - 1]!), cursor: 0 };
  const dealt = Array.from({ length: count }, () => deal(recording));
  const draws = e.outcome.dealer.length - 2;
  // A natural (an ace and a ten-value card) against a dealer without one is paid 5 × bet / 2 at once,
  // made whole by the example's rule from the float after the four cards (section 4); insurance, if
  // taken, then pays nothing. Other rounds' payouts are not re-derived here.
  const value = (code: number) => (rank(code) === 14 ? 11 : Math.min(rank(code), 10));
  const natural = (a: number, b: number) => value(a) + value(b) === 21;
  const payout =
    count === 4 && natural(dealt[0]!, dealt[2]!) && !natural(dealt[1]!, dealt[3]!) ? pay(e, recording, e.amount, 5, 2) : undefined;
  return { floats, outcome: { dealt, dealer: [dealt[1], dealt[3], ...dealt.slice(count - draws)] }, payout };
});
