import { describe, expect, it } from "vitest";
import { fixedRng } from "../src/fairness/stream";
import { cardCode, type Card } from "../src/games/cards";
import { floatForFace } from "../src/games/dice-faces";
import { GameRuleError, type AnyGameEngine } from "../src/games/engine";
import { type CrapsState } from "../src/games/craps";
import { winningRanks } from "../src/games/hi-lo";
import { minesMultiplier, type MinesState } from "../src/games/mines";
import { betStakes, minBetFor } from "../src/games/min-bet";
import { LIVE_PLAY, actRound, replayRound, requireEngine, startRound } from "../src/games/runner";
import { MAX_PAYOUT, MIN_BET, minimumStake, roundingLoss } from "../src/limits";
import { coupOdds } from "../rtp/baccarat";
import { ruleError, shoeFloats } from "./helpers";

/**
 * The minimum bets are checked against the engines themselves: each bet's outcomes are played through
 * its engine at every stake from the minimum on, and the coins lost to rounding are measured against the
 * same bet at a stake large enough that nothing rounds (the payout at stake × scale, divided by scale).
 */

/** One way the bet can end: how often (weight), and the payout the engine gives at a stake. */
interface Outcome {
  weight: bigint;
  payout: (stake: number) => number;
}

/** Loss to rounding ≤ 1 % of the stake, exactly: 100 · Σ w · (payout(s·scale) − scale · payout(s)) ≤ s · scale · Σ w. */
function withinLimit(outcomes: readonly Outcome[], scale: number, stake: number): boolean {
  let total = 0n;
  let lost = 0n;
  for (const o of outcomes) {
    total += o.weight;
    if (o.weight === 0n) continue;
    const exact = o.payout(stake * scale);
    expect(exact).toBeLessThan(MAX_PAYOUT);
    lost += o.weight * (BigInt(exact) - BigInt(scale) * BigInt(o.payout(stake)));
  }
  return 100n * lost <= BigInt(stake) * BigInt(scale) * total;
}

const SPAN = 300;

/** Merges outcomes that pay alike (the same payout at a large stake), so each class is played once per stake. */
function grouped(outcomes: readonly Outcome[], keyStake: number): Outcome[] {
  const classes = new Map<number, Outcome>();
  for (const o of outcomes) {
    const key = o.payout(keyStake);
    const known = classes.get(key);
    classes.set(key, known ? { ...known, weight: known.weight + o.weight } : o);
  }
  return [...classes.values()];
}

/** The minimum is the smallest stake from which on, through the engine, rounding costs at most 1 %. */
function expectMinimum(minimum: number, outcomes: readonly Outcome[], scale: number) {
  if (minimum > MIN_BET) expect(withinLimit(outcomes, scale, minimum - 1), `stake ${minimum - 1} should lose more than 1 %`).toBe(false);
  const failing = Array.from({ length: SPAN }, (_, i) => minimum + i).filter((s) => !withinLimit(outcomes, scale, s));
  expect(failing, `stakes from ${minimum} on that lose more than 1 %`).toEqual([]);
}

const payoutOf = (engine: AnyGameEngine, params: unknown, floats: number[]) => (stake: number) =>
  engine.start(stake, params, fixedRng(floats)).payout;

describe("minimum bets: the arithmetic", () => {
  it("measures the loss to rounding exactly", () => {
    const coin = [{ chance: [1n, 2n] as const, numerator: 198n, denominator: 100n }];
    expect(roundingLoss(1, coin)).toEqual([98n, 200n]); // 1.98 paid as 1, half the time
    expect(roundingLoss(50, coin)).toEqual([0n, 1n]);
    expect(minimumStake(coin)).toBe(25); // 25 × 1.98 = 49.5: half a coin, half the time = 1 % of 25
    expect(minimumStake([{ chance: [1n, 3n], numerator: 7n, denominator: 1n }])).toBe(1);
  });
});

describe("minimum bets checked through the engines", () => {
  it("coin flip: 25 (a 1-coin win pays 1, a 25-coin win 49)", () => {
    const engine = requireEngine("coin-flip");
    const outcomes = [
      { weight: 1n, payout: payoutOf(engine, { side: "heads" }, [0.75]) },
      { weight: 1n, payout: payoutOf(engine, { side: "heads" }, [0.25]) },
    ];
    expect(minBetFor("coin-flip", { side: "tails" })).toBe(minBetFor("coin-flip"));
    expectMinimum(minBetFor("coin-flip"), outcomes, 50);
    expect(minBetFor("coin-flip")).toBe(25);
  });

  it("dice: every roll through the engine, for targets over and under", () => {
    const engine = requireEngine("dice");
    const cases = [
      { target: 50, direction: "under" },
      { target: 49.5, direction: "under" },
      { target: 49.5, direction: "over" },
      { target: 33.33, direction: "over" },
      { target: 98, direction: "under" },
      { target: 1.99, direction: "over" },
      { target: 0.01, direction: "under" },
      { target: 12.34, direction: "under" },
      { target: 97.01, direction: "over" },
    ];
    for (const params of cases) {
      const rollFloat = (roll: number) => [(roll + 0.5) / 10_000];
      let wins = 0n;
      let winning = -1;
      for (let roll = 0; roll < 10_000; roll++) {
        if (engine.start(1, params, fixedRng(rollFloat(roll))).state.win) [wins, winning] = [wins + 1n, roll];
      }
      const losing = params.direction === "under" ? 9_999 : 0;
      const outcomes = [
        { weight: wins, payout: payoutOf(engine, params, rollFloat(winning)) },
        { weight: 10_000n - wins, payout: payoutOf(engine, params, rollFloat(losing)) },
      ];
      expectMinimum(minBetFor("dice", params), outcomes, Number(wins));
      expect(minBetFor("dice")).toBeGreaterThanOrEqual(minBetFor("dice", params));
    }
  });

  it("limbo and crash: the winning draws counted by searching the engine's threshold", () => {
    const floatsFor = (r: bigint) => [(Number(r >> 26n) + 0.5) / 2 ** 26, (Number(r & (2n ** 26n - 1n)) + 0.5) / 2 ** 26];
    for (const [game, key, target] of [
      ["limbo", "target", 1.01],
      ["limbo", "target", 1.5],
      ["limbo", "target", 2.5],
      ["limbo", "target", 7.77],
      ["crash", "cashOutAt", 1.7],
      ["crash", "cashOutAt", 3.33],
    ] as const) {
      const engine = requireEngine(game);
      const params = { [key]: target };
      const wins = (r: bigint) => engine.start(1, params, fixedRng(floatsFor(r))).state.win as boolean;
      let [lo, hi] = [0n, 2n ** 52n - 1n]; // the draws that win are the top ones
      while (lo < hi) {
        const mid = (lo + hi) / 2n;
        if (wins(mid)) hi = mid;
        else lo = mid + 1n;
      }
      const outcomes = [
        { weight: 2n ** 52n - lo, payout: payoutOf(engine, params, floatsFor(lo)) },
        { weight: lo, payout: payoutOf(engine, params, floatsFor(0n)) },
      ];
      expectMinimum(minBetFor(game, params), outcomes, 100);
      expect(minBetFor(game)).toBeGreaterThanOrEqual(minBetFor(game, params));
    }
    expect(minBetFor("crash")).toBe(minBetFor("limbo"));
  });

  it("roulette and sic bo: every pocket and every roll through the engine; all pays are whole", () => {
    const roulette = requireEngine("roulette");
    const bets = [
      { type: "straight", numbers: [17] },
      { type: "split", numbers: [0, 3] },
      { type: "street", numbers: [4, 5, 6] },
      { type: "corner", numbers: [1, 2, 4, 5] },
      { type: "sixLine", numbers: [31, 32, 33, 34, 35, 36] },
      { type: "trio", numbers: [0, 1, 2] },
      { type: "firstFour", numbers: [0, 1, 2, 3] },
      { type: "red" },
      { type: "odd" },
      { type: "high" },
      { type: "dozen", value: 2 },
      { type: "column", value: 3 },
    ];
    for (const bet of bets) {
      const pockets = Array.from({ length: 37 }, (_, pocket) => ({
        weight: 1n,
        payout: (stake: number) => roulette.start(stake, { bets: [{ ...bet, amount: stake }] }, fixedRng([(pocket + 0.5) / 37])).payout,
      }));
      const outcomes = grouped(pockets, 36_000);
      expectMinimum(minBetFor("roulette", bet), outcomes, 1);
      expect(minBetFor("roulette", bet)).toBe(1);
    }
    const sicBo = requireEngine("sic-bo");
    for (const bet of [
      { type: "small" },
      { type: "total", value: 9 },
      { type: "double", value: 2 },
      { type: "single", value: 6 },
      { type: "combination", numbers: [1, 5] },
    ]) {
      const rolls: Outcome[] = [];
      for (let a = 1; a <= 6; a++)
        for (let b = 1; b <= 6; b++)
          for (let c = 1; c <= 6; c++) {
            const dice = [a, b, c].map(floatForFace);
            rolls.push({
              weight: 1n,
              payout: (stake: number) => sicBo.start(stake, { bets: [{ ...bet, amount: stake }] }, fixedRng(dice)).payout,
            });
          }
      expectMinimum(minBetFor("sic-bo", bet), grouped(rolls, 1_000), 1);
    }
    expect(minBetFor("roulette")).toBe(1);
    expect(minBetFor("sic-bo")).toBe(1);
  });

  it("keno: each catch count through the engine, weighted by the hypergeometric ways", () => {
    const engine = requireEngine("keno");
    const choose = (n: number, k: number): bigint => {
      let c = 1n;
      for (let i = 1; i <= k; i++) c = (c * BigInt(n - k + i)) / BigInt(i);
      return k < 0 || k > n ? 0n : c;
    };
    const tiles = Array.from({ length: 40 }, (_, i) => i + 1);
    let strictest = 0;
    for (const risk of ["classic", "low", "medium", "high"] as const) {
      for (let n = 1; n <= 10; n++) {
        const picks = tiles.slice(0, n);
        const outcomes = Array.from({ length: n + 1 }, (_, hits) => {
          // a draw that catches exactly `hits` of the picks: the first `hits` picks and 10 − hits other tiles
          const drawn = [...picks.slice(0, hits), ...tiles.slice(n, n + 10 - hits)];
          const remaining = [...tiles];
          const floats = drawn.map((t) => {
            const i = remaining.indexOf(t);
            remaining.splice(i, 1);
            return (i + 0.5) / (remaining.length + 1);
          });
          return { weight: choose(n, hits) * choose(40 - n, 10 - hits), payout: payoutOf(engine, { picks, risk }, floats) };
        });
        const minimum = minBetFor("keno", { picks, risk });
        if (n === 1 || n === 5 || n === 10) expectMinimum(minimum, outcomes, 100);
        else if (minimum > 1) expect(withinLimit(outcomes, 100, minimum - 1)).toBe(false);
        strictest = Math.max(strictest, minimum);
      }
    }
    expect(minBetFor("keno")).toBe(strictest);
  });

  it("mines: the worst cash-out point, each played through the engine", () => {
    const engine = requireEngine("mines");
    let strictest = 0;
    for (let m = 1; m <= 24; m++) {
      const minimum = minBetFor("mines", { mines: m });
      strictest = Math.max(strictest, minimum);
      if (![1, 3, 10, 24].includes(m)) continue;
      const mines = Array.from({ length: m }, (_, i) => 24 - i);
      let worst = MIN_BET;
      for (let k = 1; k <= 25 - m; k++) {
        const cashOut = (stake: number) => {
          const state: MinesState = {
            amount: stake,
            mineCount: m,
            mines,
            revealed: Array.from({ length: k }, (_, i) => i),
            hit: null,
            status: "open",
          };
          return engine.act!(state, { type: "cashout" }, fixedRng([])).payout;
        };
        // survives k reveals with chance C(25 − m, k) / C(25, k); the exact value from the pay table's multiplier
        let survive = 1n;
        let all = 1n;
        for (let i = 0; i < k; i++) [survive, all] = [survive * BigInt(25 - m - i), all * BigInt(25 - i)];
        const [num, den] = minesMultiplier(m, k).map(BigInt) as [bigint, bigint];
        const within = (stake: number) => {
          const lost = BigInt(stake) * num - den * BigInt(cashOut(stake)); // in 1/den coins
          return 100n * survive * lost <= BigInt(stake) * den * all;
        };
        // stakes whose payout reaches the payout cap lose to the cap, not to rounding
        const belowCap = (stake: number) => BigInt(stake) * num < BigInt(MAX_PAYOUT) * den;
        let failing = 0;
        for (let stake = 1; stake < minimum + SPAN && belowCap(stake); stake++) if (!within(stake)) failing = stake;
        expect(failing, `${m} mines, cash out after ${k}`).toBeLessThan(minimum);
        worst = Math.max(worst, failing + 1);
      }
      expect(worst, `${m} mines`).toBe(minimum);
    }
    expect(minBetFor("mines")).toBe(strictest);
  });

  it("baccarat: only the banker's 0.95:1 rounds", () => {
    const engine = requireEngine("baccarat");
    const { ways, total } = coupOdds(8);
    const card = (points: number, suit = 0): Card => cardCode(points === 0 ? 13 : points === 1 ? 14 : points, suit);
    // player 2 + 3 = 5, banker 9 + K = 9: a banker natural
    const bankerWins = shoeFloats([card(2), card(9), card(3), card(0)], 8);
    const playerWins = shoeFloats([card(9), card(2), card(0), card(3)], 8);
    const outcomes = [
      { weight: ways.banker, payout: payoutOf(engine, null, []) },
      { weight: total - ways.banker, payout: () => 0 },
    ].map((o, i) => (i === 0 ? { ...o, payout: (s: number) => engine.start(s, { bets: { banker: s } }, fixedRng(bankerWins)).payout } : o));
    expectMinimum(minBetFor("baccarat", { side: "banker" }), outcomes, 20);
    expect(engine.start(41, { bets: { banker: 41 } }, fixedRng(bankerWins)).payout).toBe(79); // 79.95 paid as 79
    expect(engine.start(3, { bets: { player: 3 } }, fixedRng(playerWins)).payout).toBe(6);
    expect(minBetFor("baccarat", { side: "player" })).toBe(1);
    expect(minBetFor("baccarat", { side: "tie" })).toBe(1);
    expect(minBetFor("baccarat")).toBe(minBetFor("baccarat", { side: "banker" }));
  });

  it("craps: place bets and odds pay fractions on their number; every other bet pays whole", () => {
    const engine = requireEngine("craps");
    const dice = (total: number): number[] => {
      const a = Math.max(1, total - 6);
      return [floatForFace(a), floatForFace(total - a)];
    };
    const ways = (total: number) => 6 - Math.abs(total - 7);
    const roll = (state: unknown) => (total: number) => actRound(engine, state, { type: "roll" }, fixedRng(dice(total)));
    for (const n of [4, 5, 6, 8, 9, 10]) {
      // place n: settled once, won when n comes before a 7
      const place = (stake: number) =>
        engine.start(stake, { bets: [{ type: "place", number: n, amount: stake }] }, fixedRng(dice(n))).payout;
      expectMinimum(
        minBetFor("craps", { type: "place", number: n }),
        [
          { weight: BigInt(ways(n)), payout: place },
          { weight: 6n, payout: () => 0 },
        ],
        30,
      );
      // pass line odds and don't pass lay odds on point n, behind a large flat bet (the flat's even money is exact)
      const flat = 100_000;
      for (const [line, odds, wins, winWeight] of [
        ["pass", "passOdds", n, BigInt(ways(n))],
        ["dontPass", "dontPassOdds", 7, 6n],
      ] as const) {
        const point = startRound(engine, flat, { bets: [{ type: line, amount: flat }] }, fixedRng(dice(n)));
        const oddsPayout = (stake: number) => {
          const withOdds = actRound(engine, point.state, { type: "bet", bets: [{ type: odds, amount: stake }] }, fixedRng([]));
          return roll(withOdds.state)(wins).payout - 2 * flat;
        };
        const loseWeight = BigInt(ways(n) + 6) - winWeight;
        expectMinimum(
          minBetFor("craps", { type: odds, number: n }),
          [
            { weight: winWeight, payout: oddsPayout },
            { weight: loseWeight, payout: () => 0 },
          ],
          30,
        );
      }
    }
    for (const type of ["pass", "dontPass", "come", "dontCome", "field", "anySeven", "anyCraps", "hard"]) {
      expect(minBetFor("craps", { type, number: 6 }), type).toBe(1);
    }
    const numbered = ["place", "passOdds", "comeOdds", "dontPassOdds", "dontComeOdds"].flatMap((type) =>
      [4, 5, 6, 8, 9, 10].map((number) => minBetFor("craps", { type, number })),
    );
    expect(minBetFor("craps")).toBe(Math.max(...numbered));
  });

  it("blackjack: the natural's 3:2 is the only fractional pay", () => {
    const engine = requireEngine("blackjack");
    // ordered deals p1, up, p2, hole from 312 cards: the player's natural (2 · 24 aces · 96 tens) times the
    // dealer's pairs that are not one (310 · 309 − 2 · 23 · 95)
    const paid = 2n * 24n * 96n * (310n * 309n - 2n * 23n * 95n);
    const all = 312n * 311n * 310n * 309n;
    const natural = shoeFloats([cardCode(14, 2), cardCode(5, 0), cardCode(13, 2), cardCode(9, 0)], 6);
    const outcomes = [
      { weight: paid, payout: (s: number) => engine.start(s, {}, fixedRng(natural)).payout },
      { weight: all - paid, payout: () => 0 },
    ];
    expect(outcomes[0]!.payout(3)).toBe(7); // 7.5 paid as 7
    expectMinimum(minBetFor("blackjack"), outcomes, 2);
    expect(minBetFor("blackjack")).toBe(2);
  });

  it("whole-number pay tables have no minimum above 1: poker, three card poker, video poker, slots", () => {
    for (const game of ["poker", "three-card-poker", "video-poker", "slots"]) expect(minBetFor(game), game).toBe(1);
    const slots = requireEngine("slots");
    // every stop combination returns a whole multiple of the stake
    for (let a = 0; a < 20; a++)
      for (let b = 0; b < 20; b += 3)
        for (let c = 0; c < 20; c += 7) {
          const floats = [a, b, c].map((s) => (s + 0.5) / 20);
          const p1 = slots.start(1, {}, fixedRng(floats)).payout;
          expect(slots.start(37, {}, fixedRng(floats)).payout).toBe(37 * p1);
        }
  });

  it("hi-lo: the bound is at least the exact worst one-guess strategy, played through the engine", () => {
    const engine = requireEngine("hi-lo");
    const minimum = minBetFor("hi-lo");
    expect(minimum).toBe(Math.ceil((100 * 12) / 13)); // a rounded payout needs a correct guess: at most 12 of 13 ranks
    let worstFailing = 0;
    for (let rank = 2; rank <= 14; rank++) {
      for (const guess of ["higher", "lower"] as const) {
        const start = (stake: number) => engine.start(stake, {}, fixedRng([(cardCode(rank, 0) + 0.5) / 52])).state;
        const probe = (() => {
          try {
            return engine.act!(start(1), { type: guess }, fixedRng([0.5]));
          } catch (e) {
            return e;
          }
        })();
        if (probe instanceof GameRuleError) continue; // a guess that cannot lose is refused
        // each of the 13 next ranks (one code each), then cash out on a win
        const outcomes = Array.from({ length: 13 }, (_, i) => ({
          weight: 1n,
          payout: (stake: number) => {
            const after = engine.act!(start(stake), { type: guess }, fixedRng([(cardCode(i + 2, 1) + 0.5) / 52]));
            return after.done ? after.payout : engine.act!(after.state, { type: "cashout" }, fixedRng([])).payout;
          },
        }));
        const scale = 100 * winningRanks(rank, guess); // a win returns 0.99 × 13 / k
        const failing = Array.from({ length: minimum + 50 }, (_, i) => i + 1).filter((s) => !withinLimit(outcomes, scale, s));
        expect(Math.max(0, ...failing), `${guess} on rank ${rank}`).toBeLessThan(minimum);
        worstFailing = Math.max(worstFailing, ...failing);
      }
    }
    // the bound overshoots the exact worst case by less than what one guess alone already forces
    expect(minimum - (worstFailing + 1)).toBeLessThanOrEqual(10);
  });
});

describe("minimum bets enforced on live play", () => {
  it("refuses a stake below its minimum with a precise message, and takes the minimum", () => {
    const coin = requireEngine("coin-flip");
    const min = minBetFor("coin-flip");
    const refused = ruleError(() => startRound(coin, min - 1, { side: "heads" }, fixedRng([0.7]), LIVE_PLAY));
    expect(refused.code).toBe("below_minimum");
    expect(refused.message).toBe(
      `The minimum bet on coin-flip is ${min} coins: below it, rounding payouts down to whole coins would cost more than 1 % of the stake`,
    );
    expect(startRound(coin, min, { side: "heads" }, fixedRng([0.7]), LIVE_PLAY).payout).toBe(Math.floor(min * 1.98));
    // without the live checks (a replay of a recorded round) the same stake plays
    expect(startRound(coin, min - 1, { side: "heads" }, fixedRng([0.7])).payout).toBe(Math.floor((min - 1) * 1.98));
    expect(() =>
      replayRound({ serverSeed: "s", clientSeed: "c", nonce: 0 }, { game: "coin-flip", amount: 1, params: { side: "heads" }, actions: [] }),
    ).not.toThrow();
  });

  it("checks every chip of a table bet, and the chips an action adds", () => {
    const baccarat = requireEngine("baccarat");
    const banker = minBetFor("baccarat", { side: "banker" });
    const low = ruleError(() =>
      startRound(baccarat, banker + 4, { bets: { player: 5, banker: banker - 1 } }, fixedRng([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), LIVE_PLAY),
    );
    expect(low.code).toBe("below_minimum");
    expect(low.message).toMatch(/^The minimum bet on banker is \d+ coins/);
    startRound(baccarat, banker + 1, { bets: { player: 1, banker } }, fixedRng([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]), LIVE_PLAY);

    const craps = requireEngine("craps");
    const place6 = minBetFor("craps", { type: "place", number: 6 });
    expect(
      ruleError(() =>
        startRound(craps, place6 - 1, { bets: [{ type: "place", number: 6, amount: place6 - 1 }] }, fixedRng([0.1, 0.1]), LIVE_PLAY),
      ).message,
    ).toMatch(/^The minimum bet on place 6 is/);
    // pass line 20 with the point on 5, then odds: the minimum follows the table's point
    const point = startRound(craps, 20, { bets: [{ type: "pass", amount: 20 }] }, fixedRng([floatForFace(1), floatForFace(4)]), LIVE_PLAY);
    expect((point.state as CrapsState).point).toBe(5);
    const oddsOn5 = minBetFor("craps", { type: "passOdds", number: 5 });
    const add = (amount: number) =>
      actRound(craps, point.state, { type: "bet", bets: [{ type: "passOdds", amount }] }, fixedRng([]), LIVE_PLAY);
    expect(ruleError(() => add(oddsOn5 - 1)).message).toMatch(/^The minimum bet on pass line odds 5 is/);
    expect(add(oddsOn5).stake).toBe(oddsOn5);
    expect(actRound(craps, point.state, { type: "bet", bets: [{ type: "passOdds", amount: 1 }] }, fixedRng([])).stake).toBe(1);
  });

  it("lists the stakes of a bet with their minimums", () => {
    expect(
      betStakes("roulette", 3, {
        bets: [
          { type: "red", amount: 2 },
          { type: "straight", numbers: [7], amount: 1 },
        ],
      }),
    ).toEqual([
      { label: "red", amount: 2, minimum: 1 },
      { label: "straight 7", amount: 1, minimum: 1 },
    ]);
    expect(betStakes("dice", 30, { target: 50, direction: "under" })).toEqual([{ label: "dice under 50", amount: 30, minimum: 25 }]);
    expect(betStakes("hi-lo", 100, {})).toEqual([{ label: "hi-lo", amount: 100, minimum: minBetFor("hi-lo") }]);
  });

  it("refuses to answer for a bet that is not one of the game's", () => {
    expect(() => minBetFor("dice", { target: 99.5, direction: "under" })).toThrow(GameRuleError);
    expect(() => minBetFor("craps", { type: "buy", number: 4 })).toThrow(GameRuleError);
    expect(minBetFor("dots")).toBe(1);
  });
});
