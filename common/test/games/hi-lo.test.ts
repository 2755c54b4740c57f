import { describe, expect, it } from "vitest";
import { fixedRng, floatStream } from "../../src/fairness/stream";
import { cardCode, rankOf } from "../../src/games/cards";
import { type Step } from "../../src/games/engine";
import { actRound, replayRound, requireEngine, startRound } from "../../src/games/runner";
import { MAX_SKIPS, type HiLoAction, type HiLoState } from "../../src/games/hi-lo/engine";
import { MAX_PAYOUT } from "../../src/limits";
import { likelier, riskier, strategyRtp } from "../../src/games/hi-lo/rtp";
import { ruleError } from "../helpers";
import { big, independentDerivation, index, pay, rank, run, type Stream } from "../fairness-pages";
import { exactRtpOf } from "../exact-rtp";
import { choices, K, mcInput, playRound } from "./hi-lo.cases";

const engine = requireEngine("hi-lo");
const A = 14;

/** The float that deals the card of `rank` and `suit` from the 52 codes (unlimited deck). */
const cardFloat = (rank: number, suit = 0) => (cardCode(rank, suit) + 0.5) / 52;

/** A round whose cards are dealt in the given order: the first by start, one more per guess or skip. */
function table(amount: number, ranks: number[]) {
  const rng = fixedRng(ranks.map((r, i) => cardFloat(r, i % 4)));
  let step = startRound(engine, amount, {}, rng) as Step<HiLoState>;
  const steps = [step];
  return {
    get step() {
      return step;
    },
    steps,
    act(action: HiLoAction) {
      step = actRound(engine, step.state, action, rng) as Step<HiLoState>;
      steps.push(step);
      return step;
    },
  };
}

describe("hi-lo rules", () => {
  it("deals the first card at the bet, from one float over the 52 codes", () => {
    const t = table(100, [7]);
    expect(t.step.stake).toBe(100);
    expect(t.step.done).toBe(false);
    expect(t.step.state.cards).toEqual([cardCode(7, 0)]);
    expect(startRound(engine, 1, {}, fixedRng([0])).state).toMatchObject({ cards: [0] }); // 2♦
    expect(startRound(engine, 1, {}, fixedRng([1 - 2 ** -32])).state).toMatchObject({ cards: [51] }); // A♣
  });

  it("higher or same wins on the same rank (any suit) and pays 0.99 × 13/7 on an 8 (8 to ace)", () => {
    const t = table(700, [8, 8]);
    expect(t.act({ type: "higher" }).done).toBe(false);
    const cash = t.act({ type: "cashout" });
    expect(cash.done).toBe(true);
    expect(cash.payout).toBe(1287); // 700 × 13/7 × 0.99
    const onSeven = table(800, [7, 7]);
    onSeven.act({ type: "higher" }); // 7 to ace: 8 ranks
    expect(onSeven.act({ type: "cashout" }).payout).toBe(1287); // 800 × 13/8 × 0.99
    expect(cash.state.status).toBe("cashed");
  });

  it("higher or same loses on a lower card, with nothing paid", () => {
    const t = table(700, [8, 7]);
    const step = t.act({ type: "higher" });
    expect(step.done).toBe(true);
    expect(step.payout).toBe(0);
    expect(step.state.status).toBe("lost");
  });

  it("lower or same wins on the same rank and loses on a higher one", () => {
    expect(table(100, [8, 8]).act({ type: "lower" }).done).toBe(false);
    expect(table(100, [8, 9]).act({ type: "lower" }).state.status).toBe("lost");
    expect(table(100, [8, 2]).act({ type: "lower" }).done).toBe(false);
    const t = table(600, [7, 5]);
    t.act({ type: "lower" }); // 2 to 7: 6 ranks
    expect(t.act({ type: "cashout" }).payout).toBe(1287); // 600 × 13/6 × 0.99
  });

  it("treats the ace as the highest card and the 2 as the lowest: 12.87× on the one-rank guesses", () => {
    const onAce = table(100, [A, A]);
    onAce.act({ type: "higher" });
    expect(onAce.act({ type: "cashout" }).payout).toBe(1287); // only an ace: 0.99 × 13
    expect(table(100, [A, K]).act({ type: "higher" }).state.status).toBe("lost");
    const onTwo = table(100, [2, 2]);
    onTwo.act({ type: "lower" });
    expect(onTwo.act({ type: "cashout" }).payout).toBe(1287);
    expect(table(100, [2, 3]).act({ type: "lower" }).state.status).toBe("lost");
  });

  it("refuses a guess that cannot lose: higher or same on a 2, lower or same on an ace", () => {
    expect(ruleError(() => table(100, [2, 9]).act({ type: "higher" })).code).toBe("certain_guess");
    expect(ruleError(() => table(100, [A, 9]).act({ type: "lower" })).code).toBe("certain_guess");
  });

  it("applies the edge once over several guesses: 5 ↑ 9 ↓ 3 pays 0.99 × 13/10 × 13/8", () => {
    const t = table(1000, [5, 9, 3]);
    t.act({ type: "higher" }); // 5..A: 10 ranks of 13
    t.act({ type: "lower" }); // 2..9: 8 ranks of 13
    expect(t.act({ type: "cashout" }).payout).toBe(2091); // 1000 × 0.99 × 169 / 80 = 2091.375
  });

  it("keeps the multiplier exact far beyond 2⁵³ in numerator and denominator", () => {
    const guesses = 60;
    const t = table(
      1,
      Array.from({ length: guesses + 1 }, () => 3),
    );
    for (let i = 0; i < guesses; i++) expect(t.act({ type: "higher" }).done).toBe(false); // 12 of 13 ranks
    expect(t.step.state.numerator).toBe((13n ** 60n).toString());
    const expected = (99n * 13n ** 60n) / (100n * 12n ** 60n);
    const payout = t.act({ type: "cashout" }).payout;
    expect(payout).toBe(Number(expected));
    expect(payout).toBe(Math.floor(0.99 * (13 / 12) ** 60)); // 121.4…: no rounding edge nearby
  });

  it("skip replaces the card without touching the multiplier, up to the skip limit", () => {
    const t = table(100, [7, 9, ...Array.from({ length: MAX_SKIPS }, () => 9)]);
    const skipped = t.act({ type: "skip" });
    expect(skipped.done).toBe(false);
    expect(skipped.state.cards.map(rankOf)).toEqual([7, 9]);
    expect(skipped.state.moves).toEqual(["skip"]);
    expect(skipped.state.numerator).toBe("1");
    expect(ruleError(() => t.act({ type: "cashout" })).code).toBe("nothing_to_cash_out");
    for (let i = 1; i < MAX_SKIPS; i++) t.act({ type: "skip" });
    expect(t.step.state.skips).toBe(MAX_SKIPS);
    expect(ruleError(() => t.act({ type: "skip" })).code).toBe("skip_limit");
  });

  it("refuses a cash-out before a correct guess and any action after the round", () => {
    expect(ruleError(() => table(100, [7]).act({ type: "cashout" })).code).toBe("nothing_to_cash_out");
    const lost = table(100, [7, 6]);
    lost.act({ type: "higher" });
    expect(ruleError(() => lost.act({ type: "cashout" })).code).toBe("round_over");
    const cashed = table(100, [7, 8, 9]);
    cashed.act({ type: "higher" });
    cashed.act({ type: "cashout" });
    expect(ruleError(() => cashed.act({ type: "higher" })).code).toBe("round_over");
  });

  it("cashes out by itself at the payout cap, where another guess could only lose", () => {
    const t = table(1_000_000, [A, A, A, A]);
    expect(t.act({ type: "higher" }).done).toBe(false); // 12.87 × 10⁶
    const capped = t.act({ type: "higher" }); // 165.6 × 10⁶ > cap
    expect(capped.done).toBe(true);
    expect(capped.payout).toBe(MAX_PAYOUT);
    expect(capped.state.status).toBe("cashed");
    expect(engine.maxPayout(1, {})).toBe(MAX_PAYOUT);
  });

  it("shows the multipliers on offer, rounded down to four decimals", () => {
    const t = table(100, [8, 8]);
    expect(engine.view(t.step.state, false)).toMatchObject({ higher: 1.8385, lower: 1.8385, multiplier: 0, cashValue: 0 });
    t.act({ type: "higher" });
    // 100 × 0.99 × 13/7 = 183.857…: a cash-out pays 183 or 184, and the view says both
    const view = engine.view(t.step.state, false) as { cashValueExact: number };
    expect(view).toMatchObject({ multiplier: 1.8385, cashValue: 183, cashValueUp: 184, skipsLeft: MAX_SKIPS });
    expect(view.cashValueExact).toBeCloseTo((100 * 99 * 13) / (100 * 7), 9);
    expect(engine.view(table(100, [2]).step.state, false)).toMatchObject({ higher: 0, lower: 12.87 });
  });

  it("refuses malformed actions and parameters", () => {
    const state = table(100, [7]).step.state;
    const bad = (action: unknown) => ruleError(() => actRound(engine, state, action, fixedRng([0.5]))).code;
    expect(bad({ type: "same" })).toBe("invalid_action");
    expect(bad({ type: "higher", amount: 5 })).toBe("invalid_action");
    expect(bad({})).toBe("invalid_action");
    expect(ruleError(() => startRound(engine, 100, { decks: 1 }, fixedRng([0.5]))).code).toBe("invalid_params");
  });
});

describe("hi-lo RTP", () => {
  it("is exactly 99 % for every tabled strategy, and for 1–4 guesses of each kind", () => {
    for (const row of exactRtpOf("hi-lo")) expect(row.rtp).toBe(0.99);
    for (const strategy of [likelier, riskier]) {
      for (let n = 1; n <= 4; n++) {
        const rtp = strategyRtp(strategy, n);
        expect(rtp.n * 100n).toBe(99n * rtp.d);
      }
    }
  });

  it("replays a multi-step round from its seeds, the stream continuing across steps", () => {
    const pick = choices(99);
    for (let nonce = 0; nonce < 20; nonce++) {
      const input = mcInput(500_000 + nonce);
      const { step, actions } = playRound(floatStream(input), pick, 25);
      const replay = replayRound(input, { game: "hi-lo", amount: 25, params: {}, actions });
      expect(replay.done).toBe(true);
      expect(replay.totalStake).toBe(25);
      expect(replay.totalPayout).toBe(step.payout);
      expect(replay.steps[replay.steps.length - 1]!.state).toEqual(step.state);
    }
  });
});

// Its fairness page's worked examples, re-derived from the page's mapping alone: nothing of the
// project's code, only the stream and shared procedures the specification gives.
independentDerivation("hi-lo", (e) => {
  const cards: number[] = [];
  const moves: string[] = [];
  let [num, den, correct, status, payout] = [1n, 1n, 0, "open", 0];
  const current = () => rank(cards[cards.length - 1]!);
  const actions = e.actions.map((a: any) => (s: Stream) => {
    if (a.type === "cashout") {
      // made whole by the example's rule, from the floats after the last card (section 4)
      [status, payout] = ["cashed", pay(e, s, e.amount, 99n * num, 100n * den)];
      return;
    }
    const r = current();
    const k = a.type === "higher" ? 15 - r : a.type === "lower" ? r - 1 : 0;
    cards.push(index(s, 52));
    moves.push(a.type);
    if (a.type === "skip") return;
    const next = current();
    if (a.type === "higher" ? next >= r : next <= r) [num, den, correct] = [num * 13n, den * big(k), correct + 1];
    else status = "lost";
  });
  const steps = run(e, [(s) => cards.push(index(s, 52)), ...actions]);
  return { steps, outcome: { cards, moves, status, correct }, payout };
});
