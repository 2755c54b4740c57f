import { describe, expect, it } from "vitest";
import { drawWithoutReplacement, fixedRng, floatStream } from "../../src/fairness/stream";
import { FULL_DECK } from "../../src/games/cards";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import { optimalHold, payPerCredit, videoPokerEngine, type VideoPokerState } from "../../src/games/video-poker/engine";
import { hand, ruleError, shoeFloats } from "../helpers";
import { independentDerivation, pickAndRemove, run } from "../fairness-pages";

const engine = requireEngine("video-poker");

/** Deals `dealt`, then draws with the given holds from the replacements `next` (cards 6–10; default: any unused). */
function round(dealt: string, next: string | null, hold: boolean[], bet = 1) {
  const cards = hand(dealt);
  const replacements = next === null ? FULL_DECK.filter((c) => !cards.includes(c)).slice(0, 5) : hand(next);
  const floats = shoeFloats([...cards, ...replacements]);
  const rng = fixedRng(floats);
  const first = startRound(engine, bet, {}, rng);
  const second = actRound(engine, first.state, { type: "draw", hold }, rng);
  return { first, second, state: second.state as VideoPokerState, floatsUsed: rng.cursor };
}

const HOLD_ALL = [true, true, true, true, true];

describe("video poker: the ten-card removal draw", () => {
  it("deals cards 1–5 and fills the discards with cards 6–10 in order, as one ten-card removal draw", () => {
    const floats = [0.99, 0, 0.5, 0.25, 0.75, 0.1, 0.9, 0.3, 0.6, 0.45];
    const tenCards = drawWithoutReplacement(fixedRng(floats), FULL_DECK, 10);
    const rng = fixedRng(floats);
    const first = startRound(engine, 1, {}, rng);
    expect((first.state as VideoPokerState).hand).toEqual(tenCards.slice(0, 5));
    expect(first).toMatchObject({ stake: 1, payout: 0, done: false });
    const second = actRound(engine, first.state, { type: "draw", hold: [true, false, true, false, false] }, rng);
    const state = second.state as VideoPokerState;
    expect(state.replacements).toEqual(tenCards.slice(5));
    expect(state.final).toEqual([tenCards[0], tenCards[5], tenCards[2], tenCards[6], tenCards[7]]);
    expect(rng.cursor).toBe(10);
  });

  it("always uses ten floats, whatever is held", () => {
    const dealt = "2d 7h 9s Jc Kd";
    const next = "3c 8d Th Qs Ac";
    expect(round(dealt, next, HOLD_ALL).floatsUsed).toBe(10);
    expect(round(dealt, next, [false, false, false, false, false]).floatsUsed).toBe(10);
    expect(round(dealt, next, [false, false, false, false, false]).state.final).toEqual(hand(next));
    expect(round(dealt, next, HOLD_ALL).state.final).toEqual(hand(dealt));
  });

  it("shows the dealt hand only until the draw", () => {
    const { first, second } = round("2d 7h 9s Jc Kd", "3c 8d Th Qs Ac", HOLD_ALL);
    expect(engine.view(first.state, false)).toEqual({ bet: 1, hand: hand("2d 7h 9s Jc Kd"), dealtHand: "high-card" });
    expect(engine.view(second.state, true)).toMatchObject({ final: hand("2d 7h 9s Jc Kd"), replacements: hand("3c 8d Th Qs Ac") });
  });
});

describe("video poker: the 9/6 pay table", () => {
  it("pays every line per credit, the royal 800 at any bet", () => {
    const cases: [string, number][] = [
      ["Ts Js Qs Ks As", 800],
      ["9h Th Jh Qh Kh", 50],
      ["Ah 2h 3h 4h 5h", 50],
      ["7d 7h 7s 7c 2d", 25],
      ["7d 7h 7s 2c 2d", 9],
      ["2h 6h 9h Jh Kh", 6],
      ["Ad 2h 3s 4c 5d", 4],
      ["Td Jh Qs Kc Ad", 4],
      ["3d 3h 3s Kc 2d", 3],
      ["3d 3h 5s 5c 2d", 2],
      ["Jd Jh 5s 4c 2d", 1],
      ["Ad Ah 5s 4c 2d", 1],
      ["Td Th 5s 4c 2d", 0],
      ["Kd Ah 2s 3c 4d", 0],
    ];
    for (const [cards, pays] of cases) {
      expect(payPerCredit(hand(cards)), cards).toBe(pays);
      const { second } = round(cards, null, HOLD_ALL, 3);
      expect(second.payout, cards).toBe(3 * pays);
    }
    expect(round("Ts Js Qs Ks 2d", "As 3c 4c 5c 6c", [true, true, true, true, false], 7).second.payout).toBe(5600);
    expect(videoPokerEngine.maxPayout(5, {})).toBe(4000);
    expect(videoPokerEngine.maxPayout(1_000_000, {})).toBe(100_000_000);
  });

  it("refuses bad holds, params and a second draw", () => {
    const floats = () => fixedRng(shoeFloats(hand("2d 7h 9s Jc Kd 3c 8d Th Qs Ac")));
    expect(ruleError(() => startRound(engine, 1, { coins: 5 }, floats())).code).toBe("invalid_params");
    const state = startRound(engine, 1, {}, floats()).state;
    expect(ruleError(() => actRound(engine, state, { type: "draw", hold: [true, true] }, floats())).code).toBe("invalid_action");
    expect(ruleError(() => actRound(engine, state, { type: "draw", hold: [1, 0, 0, 0, 0] }, floats())).code).toBe("invalid_action");
    expect(ruleError(() => actRound(engine, state, { type: "hold" }, floats())).code).toBe("invalid_action");
    const rng = floats();
    const done = startRound(engine, 1, {}, rng);
    const after = actRound(engine, done.state, { type: "draw", hold: HOLD_ALL }, rng).state;
    expect(ruleError(() => actRound(engine, after, { type: "draw", hold: HOLD_ALL }, floats())).code).toBe("round_over");
  });
});

describe("video poker: optimal holds", () => {
  it("follows the textbook strategy on clear-cut hands", () => {
    const hold = (cards: string) => optimalHold(hand(cards)).hold;
    expect(hold("Ts Js Qs Ks As")).toEqual(HOLD_ALL);
    expect(optimalHold(hand("Ts Js Qs Ks As")).expectedReturn).toBe(800);
    expect(hold("Th Jh Qh Kh 3h")).toEqual([true, true, true, true, false]); // break a flush for four to a royal
    expect(hold("4d 5h 6s 7c 8d")).toEqual(HOLD_ALL); // a pat straight
    expect(hold("4d 4h 5s 6c 7d")).toEqual([true, true, false, false, false]); // a low pair over four to a straight
    expect(hold("4d 4h 9s Kc 2s")).toEqual([true, true, false, false, false]); // a low pair
    expect(hold("2d 7h 9s 4c 3h").every((h) => !h)).toBe(true); // nothing worth keeping
  });

  it("replays a round to the same result from its seeds", () => {
    const input = { serverSeed: "e".repeat(64), clientSeed: "vp", nonce: 5 };
    const rng = floatStream(input);
    const first = startRound(engine, 5, {}, rng);
    const hold = optimalHold((first.state as VideoPokerState).hand).hold;
    const second = actRound(engine, first.state, { type: "draw", hold }, rng);
    const replay = replayRound(input, { game: "video-poker", amount: 5, params: {}, actions: [{ type: "draw", hold }] });
    expect(replay.steps).toEqual([first, second]);
    expect(replay.totalPayout).toBe(second.payout);
    expect(replay.view).toEqual(engine.view(second.state, true));
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("video-poker", (e) => {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  let hand: number[] = [];
  let replacements: number[] = [];
  const hold: boolean[] = e.actions[0].hold;
  const steps = run(e, [
    (s) => (hand = pickAndRemove(s, deck, 5)),
    (s) =>
      (replacements = pickAndRemove(
        s,
        deck.filter((c) => !hand.includes(c)),
        5,
      )),
  ]);
  let k = 0;
  const final = hand.map((card, i) => (hold[i] ? card : replacements[k++]!));
  return { steps, outcome: { hand, held: hold, replacements, final } };
});
