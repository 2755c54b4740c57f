import { describe, expect, it } from "vitest";
import { fixedRng, floatStream } from "../../src/fairness/stream";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import { THREE_CARD_CATEGORIES, evaluateThree } from "../../src/games/poker-hands";
import { playsByStrategy, threeCardPokerEngine, type ThreeCardPokerState } from "../../src/games/three-card-poker/engine";
import { analyseThreeCardPoker } from "../../src/games/three-card-poker/rtp";
import { hand, ruleError, shoeFloats } from "../helpers";
import { independentDerivation, run, shoe } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";

const engine = requireEngine("three-card-poker");

const deal = (player: string, dealer: string, ante: number, pairPlus = 0) =>
  startRound(engine, ante + pairPlus, { ante, pairPlus }, fixedRng(shoeFloats([...hand(player), ...hand(dealer)])));

const play = (player: string, dealer: string, ante = 10, pairPlus = 0) =>
  actRound(engine, deal(player, dealer, ante, pairPlus).state, { type: "play" }, fixedRng([]));

describe("three card poker: hand ranking", () => {
  it("counts the 22,100 hands per category as game-rules A4 lists them", () => {
    const counts = new Array<number>(6).fill(0);
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++)
        for (let c = b + 1; c < 52; c++) counts[THREE_CARD_CATEGORIES.indexOf(evaluateThree([a, b, c]).category)]! += 1;
    // high card, pair, flush, straight, trips, straight flush
    expect(counts).toEqual([16440, 3744, 1096, 720, 52, 48]);
  });

  it("ranks a straight above a flush, A-2-3 as the lowest straight and Q-K-A as the highest", () => {
    const ascending = [
      "5d 3h 2s",
      "Qd 3h 2s",
      "Qd 6h 4s",
      "Ad Kh Js",
      "2d 2h 3s",
      "2d 2h As",
      "Ad Ah Ks",
      "2h 4h 6h",
      "Ah Kh Jh",
      "Ad 2h 3s", // A-2-3
      "2d 3h 4s",
      "Qd Kh As",
      "2d 2h 2s",
      "Ad Ah As",
      "Ah 2h 3h",
      "Qh Kh Ah",
    ].map((h) => evaluateThree(hand(h)));
    for (let i = 1; i < ascending.length; i++) expect(ascending[i]!.value, `hand ${i}`).toBeGreaterThan(ascending[i - 1]!.value);
    expect(evaluateThree(hand("Kd Ah 2s")).category).toBe("high-card"); // no wrap-around
    expect(evaluateThree(hand("Qd Kh As")).value).toBe(evaluateThree(hand("Qc Ks Ah")).value);
  });
});

describe("three card poker: bets, dealer qualification and payouts", () => {
  it("deals three cards to the player, then three to the dealer, hidden until the round ends", () => {
    const step = deal("2d 7h 9s", "3c 8d Qh", 10);
    const state = step.state as ThreeCardPokerState;
    expect(state.player).toEqual(hand("2d 7h 9s"));
    expect(state.dealer).toEqual(hand("3c 8d Qh"));
    expect(step).toMatchObject({ stake: 10, payout: 0, done: false });
    const open = engine.view(state, false) as Record<string, unknown>;
    expect(open).not.toHaveProperty("dealer");
    const over = actRound(engine, state, { type: "fold" }, fixedRng([]));
    expect((engine.view(over.state, true) as Record<string, unknown>).dealer).toEqual(hand("3c 8d Qh"));
  });

  it("folding loses the ante and pays no ante bonus", () => {
    const step = actRound(engine, deal("Qh Kh Ah", "2d 3c 5s", 10).state, { type: "fold" }, fixedRng([]));
    expect(step).toMatchObject({ stake: 0, payout: 0, done: true });
  });

  it("a dealer below queen high pays the ante 1:1 and pushes the play", () => {
    const step = play("2d 4h 7s", "Jd 9c 5s"); // J-high dealer does not qualify
    expect(step).toMatchObject({ stake: 10, payout: 30, done: true });
    expect((step.state as ThreeCardPokerState).anteOutcome).toBe("dealer-not-qualified");
    expect(play("2d 4h 7s", "Qd 3c 2s").payout).toBe(0); // Q-3-2 qualifies and wins
  });

  it("against a qualifying dealer the higher hand wins both bets 1:1 and a tie pushes", () => {
    expect(play("Kd 9h 7s", "Qd 9c 7h").payout).toBe(40);
    expect(play("Kd 9h 7s", "Kc 9c 7h").payout).toBe(20);
    expect(play("Kd 9h 7s", "2c 2h 3s").payout).toBe(0);
    expect(play("2d 2h 3s", "Ac Kc Jh").payout).toBe(40);
  });

  it("pays the ante bonus on a played straight, trips or straight flush even when the dealer wins or does not qualify", () => {
    expect(play("4d 5h 6s", "7c 7h 7s").payout).toBe(10); // straight loses to trips: bonus 1 only
    expect(play("4d 5h 6s", "Jc 9h 2s").payout).toBe(30 + 10); // not qualifying: 3 × ante + bonus
    expect(play("8d 8h 8s", "2c 3h 5s").payout).toBe(30 + 40);
    expect(play("8d 8h 8s", "Ac Kh 5s").payout).toBe(40 + 40);
    expect(play("8h 9h Th", "Jc Qc Kc").payout).toBe(50); // beaten straight flush still earns 5:1
    expect(play("Qh Kh Ah", "Jc Qc Kc").payout).toBe(40 + 50);
    expect(play("2h 5h 9h", "3c 3d 4s").payout).toBe(40); // flush: no ante bonus
  });

  it("pays Pair Plus on the player's hand alone, also after a fold", () => {
    const pairPlusOnly = (player: string) => deal(player, "Ac Ad Ah", 0, 10);
    const cases: [string, number][] = [
      ["Kd 9h 7s", 0],
      ["2d 2h 7s", 10 * 2],
      ["2h 5h 9h", 10 * 5],
      ["4d 5h 6s", 10 * 7],
      ["8d 8h 8s", 10 * 31],
      ["8h 9h Th", 10 * 41],
    ];
    for (const [player, payout] of cases) {
      const step = pairPlusOnly(player);
      expect(step, player).toMatchObject({ stake: 10, payout, done: true });
    }
    // with an ante as well: the fold keeps the Pair Plus win
    const folded = actRound(engine, deal("2d 2h 7s", "Ac Kd 5h", 5, 3).state, { type: "fold" }, fixedRng([]));
    expect(folded).toMatchObject({ stake: 0, payout: 6, done: true });
    // and a played pair that beats the dealer collects both: 4 × 5 + 2 × 3
    expect(play("2d 2h 7s", "Ac Kd 5h", 5, 3).payout).toBe(26);
  });

  it("requires the amount to equal ante + Pair Plus and refuses bad bets and actions", () => {
    const floats = () => fixedRng(shoeFloats(hand("2d 7h 9s 3c 8d Qh")));
    expect(ruleError(() => startRound(engine, 10, { ante: 5, pairPlus: 4 }, floats())).code).toBe("invalid_amount");
    expect(ruleError(() => startRound(engine, 10, { ante: 0, pairPlus: 0 }, floats())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { ante: 10.5, pairPlus: 0 }, floats())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { ante: -1, pairPlus: 11 }, floats())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { ante: 10 }, floats())).code).toBe("invalid_params");
    expect(ruleError(() => startRound(engine, 10, { ante: 10, pairPlus: 0, bonus: 1 }, floats())).code).toBe("invalid_params");
    const open = startRound(engine, 10, { ante: 10, pairPlus: 0 }, floats()).state;
    expect(ruleError(() => actRound(engine, open, { type: "raise" }, fixedRng([]))).code).toBe("invalid_action");
    const done = actRound(engine, open, { type: "play" }, fixedRng([])).state;
    expect(ruleError(() => actRound(engine, done, { type: "fold" }, fixedRng([]))).code).toBe("round_over");
    const ppOnly = startRound(engine, 10, { ante: 0, pairPlus: 10 }, floats()).state;
    expect(ruleError(() => actRound(engine, ppOnly, { type: "play" }, fixedRng([]))).code).toBe("round_over");
  });

  it("shows the most a bet can pay back", () => {
    expect(threeCardPokerEngine.maxPayout(10, { ante: 10, pairPlus: 0 })).toBe(90); // SF beating the dealer: 4 + 5
    expect(threeCardPokerEngine.maxPayout(10, { ante: 0, pairPlus: 10 })).toBe(410);
    expect(threeCardPokerEngine.maxPayout(3, { ante: 1, pairPlus: 2 })).toBe(9 + 82);
  });
});

describe("three card poker: exact RTP and simulation", () => {
  it("reproduces the published house edges (A4: 3.373 % and 2.317 %)", () => {
    const rows = exactRtpOf("three-card-poker");
    expect(rows).toHaveLength(2);
    expect(Math.abs(rows[0]!.rtp - (1 - 0.03373))).toBeLessThan(5e-6);
    expect(Math.abs(rows[1]!.rtp - (1 - 0.02317))).toBeLessThan(5e-6);
    for (const row of rows) expect(Math.abs(row.rtp - row.reference!)).toBeLessThan(5e-6);
  });

  it("finds by exact expectation that playing Q-6-4 or better is optimal for every hand", () => {
    const { hands } = analyseThreeCardPoker();
    expect(hands).toHaveLength(22100);
    const disagreements = hands.filter((h) => h.playEdge > -1 !== playsByStrategy(h.cards));
    expect(disagreements).toEqual([]);
  });

  it("replays a round to the same result from its seeds", () => {
    const input = { serverSeed: "d".repeat(64), clientSeed: "tcp", nonce: 3 };
    const params = { ante: 4, pairPlus: 2 };
    const rng = floatStream(input);
    const first = startRound(engine, 6, params, rng);
    const second = actRound(engine, first.state, { type: "play" }, rng);
    const replay = replayRound(input, { game: "three-card-poker", amount: 6, params, actions: [{ type: "play" }] });
    expect(replay.steps).toEqual([first, second]);
    expect(replay.totalStake).toBe(10);
    expect(replay.view).toEqual(engine.view(second.state, true));
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("three-card-poker", (e) => {
  const deal = shoe(1);
  let cards: number[] = [];
  const steps = run(e, [(s) => (cards = Array.from({ length: 6 }, () => deal(s))), () => undefined]);
  return { steps, outcome: { player: cards.slice(0, 3), dealer: cards.slice(3) } };
});
