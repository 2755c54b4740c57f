import { describe, expect, it } from "vitest";
import { fixedRng, floatStream } from "../../src/fairness/stream";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import { MAX_ANTE, pokerEngine, settleRaise, type PokerState } from "../../src/games/poker/engine";
import { FIVE_CARD_CATEGORIES, evaluateFive } from "../../src/games/poker-hands";
import { aceKingRaiseSum, shouldRaise } from "../../src/games/poker/rtp";
import { hand, ruleError, shoeFloats } from "../helpers";
import { independentDerivation, run, shoe } from "../fairness-pages";

const engine = requireEngine("poker");

const deal = (player: string, dealer: string, ante = 10) => {
  const step = startRound(engine, ante, {}, fixedRng(shoeFloats([...hand(player), ...hand(dealer)])));
  return step;
};

/** Raises and returns the payout of the raise step. */
const raise = (player: string, dealer: string, ante = 10) =>
  actRound(engine, deal(player, dealer, ante).state, { type: "raise" }, fixedRng([]));

describe("poker hands: five-card ranking", () => {
  it("orders hands by category, then by the grouped ranks, with the wheel as the lowest straight", () => {
    const ascending = [
      "7d 5h 4s 3c 2d", // the worst hand
      "Ad Kh Qs Jc 9d",
      "2d 2h 3s 4c 5d",
      "Kd Kh Qs 9c 8d",
      "Kd Kh As 5c 3d", // a kicker decides between equal pairs
      "Ad Ah Ks Qc Jd",
      "4d 4h 3s 3c Ad",
      "Jd Jh 3s 3c Ad",
      "Jd Jh 4s 4c 2d", // 4s over 3s beat the ace kicker
      "2d 2h 2s 3c 4d",
      "Ad 2h 3s 4c 5d", // wheel
      "2d 3h 4s 5c 6d",
      "Td Jh Qs Kc Ad",
      "2h 3h 4h 5h 7h",
      "Kh Qh Jh 9h 7h",
      "Ah 3h 4h 5h 6h",
      "2d 2h 2s Ac Ad",
      "3d 3h 3s 2c 2d",
      "5d 5h 5s 5c 2d",
      "5d 5h 5s 5c 3d",
      "Ah 2h 3h 4h 5h", // steel wheel: the lowest straight flush
      "9s Ts Js Qs Ks",
      "Ts Js Qs Ks As",
    ].map((h) => evaluateFive(hand(h)));
    for (let i = 1; i < ascending.length; i++) expect(ascending[i]!.value, `hand ${i}`).toBeGreaterThan(ascending[i - 1]!.value);
    expect(ascending.map((h) => h.category)).toEqual([
      "high-card",
      "high-card",
      "pair",
      "pair",
      "pair",
      "pair",
      "two-pair",
      "two-pair",
      "two-pair",
      "three-of-a-kind",
      "straight",
      "straight",
      "straight",
      "flush",
      "flush",
      "flush",
      "full-house",
      "full-house",
      "four-of-a-kind",
      "four-of-a-kind",
      "straight-flush",
      "straight-flush",
      "royal-flush",
    ]);
    // K-A-2-3-4 does not wrap around
    expect(evaluateFive(hand("Kd Ah 2s 3c 4d")).category).toBe("high-card");
    // suits never break a tie
    expect(evaluateFive(hand("Ad Kc 9h 7s 4d")).value).toBe(evaluateFive(hand("Ah Kd 9s 7c 4h")).value);
    expect(FIVE_CARD_CATEGORIES).toHaveLength(10);
  });
});

describe("poker (Caribbean Stud): dealing, folding and the dealer's qualification", () => {
  it("deals five cards to the player, then five to the dealer, and shows only the dealer's first card", () => {
    const player = hand("2d 7h 9s Jc Kd");
    const dealer = hand("3c 8d Th Qs Ac");
    const step = deal("2d 7h 9s Jc Kd", "3c 8d Th Qs Ac");
    const state = step.state as PokerState;
    expect(state.player).toEqual(player);
    expect(state.dealer).toEqual(dealer);
    expect(step).toMatchObject({ stake: 10, payout: 0, done: false });
    const open = engine.view(state, false) as Record<string, unknown>;
    expect(open.dealerUp).toBe(dealer[0]);
    expect(open).not.toHaveProperty("dealer");
    expect(JSON.stringify(open)).not.toContain(`${dealer[1]}`);
    const closed = engine.view(actRound(engine, state, { type: "fold" }, fixedRng([])).state, true) as Record<string, unknown>;
    expect(closed.dealer).toEqual(dealer);
  });

  it("folding ends the round and loses the ante", () => {
    const step = actRound(engine, deal("2d 7h 9s Jc Kd", "3c 8d Th Qs Ac").state, { type: "fold" }, fixedRng([]));
    expect(step).toMatchObject({ stake: 0, payout: 0, done: true });
    expect((step.state as PokerState).outcome).toBe("fold");
  });

  it("a dealer below A-K high pays the ante 1:1 and pushes the raise, whatever the player holds", () => {
    const step = raise("2d 3h 5s 8c Js", "Ad Qc 9h 7s 4d"); // A-Q high does not qualify
    expect(step).toMatchObject({ stake: 20, payout: 40, done: true });
    expect((step.state as PokerState).outcome).toBe("dealer-not-qualified");
    // A-K high qualifies, and beats the player's jack high
    const lost = raise("2d 3h 5s 8c Js", "Ad Kc 9h 7s 4d");
    expect(lost).toMatchObject({ stake: 20, payout: 0 });
    expect((lost.state as PokerState).outcome).toBe("lose");
  });

  it("an exact tie pushes ante and raise; a better dealer takes both", () => {
    expect(raise("Ad Kc 9h 7s 4d", "Ah Kd 9s 7c 4h").payout).toBe(30);
    expect(raise("Kd Kh Qs 9c 8d", "Ks Kc As 5c 3d").payout).toBe(0);
  });

  it("pays the ante 1:1 and the raise per the A2 table when the player beats a qualifying dealer", () => {
    // ante 10, raise 20: payout = 20 (ante back + 1:1) + 20 × (1 + raise pays)
    const cases: [string, string, number][] = [
      ["As Kh Qd Jc 9s", "Ad Kc Qs Jh 8d", 1], // A-K high against a lower A-K high
      ["2d 2h 5s 8c Js", "Ac Kd 9h 7s 4d", 1],
      ["3d 3h 6s 6c Js", "Ah Ac 9h 7s 4d", 2],
      ["4d 4h 4s 9c Js", "Kh Kc 9h 7s 2d", 3],
      ["5d 6h 7s 8c 9s", "Ah Ac 9h 7d 4d", 4],
      ["2h 6h 9h Jh Kh", "5d 6d 7s 8c 9s", 5],
      ["Td Th Ts 3c 3d", "2h 6h 9h Jh Kh", 7],
      ["8d 8h 8s 8c 2d", "Td Th Ts 3c 3h", 20],
      ["5h 6h 7h 8h 9h", "Jd Jh Js Jc 2d", 50],
      ["Ts Js Qs Ks As", "5h 6h 7h 8h 9h", 100],
    ];
    for (const [player, dealer, pays] of cases) {
      const step = raise(player, dealer);
      expect(step.payout, player).toBe(20 + 20 * (1 + pays));
      expect((step.state as PokerState).outcome).toBe("win");
    }
    // the wheel is a straight (4:1) but loses to any higher straight
    expect(raise("Ad 2h 3s 4c 5d", "Kh Kc Ks 7d 2c").payout).toBe(20 + 20 * 5);
    expect(raise("Ad 2h 3s 4c 5d", "2d 3h 4s 5c 6h").payout).toBe(0);
  });

  it("settles with a one-coin ante in whole coins and shows the most a hand can pay", () => {
    expect(raise("Ts Js Qs Ks As", "5h 6h 7h 8h 9h", 1).payout).toBe(204);
    expect(pokerEngine.maxPayout(10, {})).toBe(2040);
    expect(pokerEngine.maxPayout(MAX_ANTE, {})).toBe(100_000_000); // capped at MAX_PAYOUT
  });

  it("refuses bad bets and actions", () => {
    const floats = () => fixedRng(shoeFloats(hand("2d 7h 9s Jc Kd 3c 8d Th Qs Ac")));
    expect(ruleError(() => startRound(engine, MAX_ANTE + 1, {}, floats())).code).toBe("invalid_amount");
    expect(ruleError(() => startRound(engine, 10, { ante: 10 }, floats())).code).toBe("invalid_params");
    const state = startRound(engine, 10, {}, floats()).state;
    expect(ruleError(() => actRound(engine, state, { type: "call" }, fixedRng([]))).code).toBe("invalid_action");
    expect(ruleError(() => actRound(engine, state, { type: "raise", amount: 5 }, fixedRng([]))).code).toBe("invalid_action");
    const done = actRound(engine, state, { type: "raise" }, fixedRng([])).state;
    expect(ruleError(() => actRound(engine, done, { type: "fold" }, fixedRng([]))).code).toBe("round_over");
  });
});

describe("poker (Caribbean Stud): exact RTP and simulation", () => {
  it("counts an A-K hand's raise result exactly as a brute-force pass over the dealer's hole cards", () => {
    for (const [player, up] of [
      ["Ad Kh 9s 7c 4d", "2d"], // the up card shares a suit with two of the player's cards
      ["Ad Kh 9s 7c 4d", "9h"], // and pairs one of them
      ["Ac Kc Qc Jc 2h", "3c"], // four to a flush in the up card's suit
    ] as const) {
      const cards = hand(player);
      const upCard = hand(up)[0]!;
      const rest = Array.from({ length: 52 }, (_, i) => i).filter((c) => c !== upCard && !cards.includes(c));
      let sum = 0;
      for (let a = 0; a < rest.length; a++)
        for (let b = a + 1; b < rest.length; b++)
          for (let c = b + 1; c < rest.length; c++)
            for (let d = c + 1; d < rest.length; d++) {
              sum += settleRaise(cards, [upCard, rest[a]!, rest[b]!, rest[c]!, rest[d]!]).antesBack - 3;
            }
      expect(aceKingRaiseSum(cards, upCard), `${player} / ${up}`).toBe(sum);
    }
  });

  it("raises pairs, folds below A-K, and with A-K follows the exact expectation (the A2 rules of thumb)", () => {
    const decide = (player: string, up: string) => shouldRaise(hand(player), hand(up)[0]!);
    expect(decide("2d 2h 5s 8c Js", "Ac")).toBe(true);
    expect(decide("Ad Qh Js 9c 8d", "2c")).toBe(false);
    for (const up of ["2h", "9s", "Qd", "Ah", "Kc"]) expect(decide("Ad Kh Qs Jc 9d", up), up).toBe(true);
    expect(decide("Ad Kh 8s 5c 3d", "5h")).toBe(true); // the up card matches one of the player's ranks
    expect(decide("Ad Kh 6s 4c 2d", "9h")).toBe(false); // no match, no queen
    expect(decide("Ad Kh Js 5c 3d", "Kd")).toBe(true); // up card A/K and the player holds a jack
  });

  it("replays a round to the same result from its seeds", () => {
    const input = { serverSeed: "c".repeat(64), clientSeed: "poker", nonce: 7 };
    const rng = floatStream(input);
    const first = startRound(engine, 25, {}, rng);
    const second = actRound(engine, first.state, { type: "raise" }, rng);
    const replay = replayRound(input, { game: "poker", amount: 25, params: {}, actions: [{ type: "raise" }] });
    expect(replay.steps).toEqual([first, second]);
    expect(replay.totalStake).toBe(75);
    expect(replay.totalPayout).toBe(second.payout);
    expect(replay.done).toBe(true);
    expect(replay.view).toEqual(engine.view(second.state, true));
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("poker", (e) => {
  const deal = shoe(1);
  let cards: number[] = [];
  const steps = run(e, [(s) => (cards = Array.from({ length: 10 }, () => deal(s))), () => undefined]);
  return { steps, outcome: { player: cards.slice(0, 5), dealer: cards.slice(5) } };
});
