import { describe, expect, it } from "vitest";
import {
  afterAutoBet,
  autoBetConfigProblem,
  doubleStake,
  halveStake,
  maxStake,
  parseStake,
  stakeProblem,
  startAutoBet,
  type AutoBetConfig,
  type StakeLimits,
} from "../src/bet-panel";
import { MAX_BET, MIN_BET } from "../src/limits";

const limits = (over: Partial<StakeLimits> = {}): StakeLimits => ({ min: MIN_BET, max: MAX_BET, balance: 1000, ...over });

describe("the amount field", () => {
  it("reads whole numbers, thousands separators and decimals, and nothing else", () => {
    expect(parseStake("25")).toBe(25);
    expect(parseStake(" 1,000 ")).toBe(1000);
    expect(parseStake("2.5")).toBe(2.5);
    for (const bad of ["", "abc", "-5", "1e3", "0x10", "5 coins"]) expect(parseStake(bad), bad).toBeNaN();
  });

  it("says why an amount cannot be sent", () => {
    expect(stakeProblem(Number.NaN, limits())).toBe("Enter a bet amount in coins");
    expect(stakeProblem(2.5, limits())).toBe("Bets are whole coins");
    expect(stakeProblem(0, limits())).toBe("The minimum bet is 1 coin");
    expect(stakeProblem(9, limits({ min: 10 }))).toBe("The minimum bet is 10 coins");
    expect(stakeProblem(MAX_BET + 1, limits({ balance: 10 * MAX_BET }))).toBe("The maximum bet is 1,000,000 coins");
    expect(stakeProblem(1001, limits())).toBe("Insufficient balance");
    expect(stakeProblem(1000, limits())).toBeNull();
    expect(stakeProblem(1, limits())).toBeNull();
  });

  it("checks the total when the amount is a chip staked several times", () => {
    expect(stakeProblem(300, limits({ units: 4 }))).toBe("Insufficient balance");
    expect(stakeProblem(250, limits({ units: 4 }))).toBeNull();
    expect(stakeProblem(600_000, limits({ units: 2, balance: 10 * MAX_BET }))).toBe(
      "The total bet (1,200,000 coins) may not exceed 1,000,000 coins",
    );
    expect(stakeProblem(2, limits({ units: 3, min: 10 }))).toBe("The minimum bet is 10 coins");
    // the minimum holds for each chip: two chips of 5 are not a bet of 10
    expect(stakeProblem(5, limits({ units: 2, min: 10 }))).toBe("The minimum bet is 10 coins");
    expect(stakeProblem(10, limits({ units: 2, min: 10 }))).toBeNull();
  });
});

describe("½, 2x and Max", () => {
  it("halve rounding down but never below the minimum", () => {
    expect(halveStake(25, limits())).toBe(12);
    expect(halveStake(1, limits())).toBe(1);
    expect(halveStake(30, limits({ min: 20 }))).toBe(20);
    expect(halveStake(Number.NaN, limits())).toBe(1);
  });

  it("double up to the balance and the table limit", () => {
    expect(doubleStake(300, limits())).toBe(600);
    expect(doubleStake(600, limits())).toBe(1000);
    expect(doubleStake(700_000, limits({ balance: 5_000_000 }))).toBe(MAX_BET);
    expect(doubleStake(100, limits({ units: 4 }))).toBe(200);
    expect(doubleStake(200, limits({ units: 4 }))).toBe(250);
  });

  it("Max is the most the balance and the limit allow, per chip", () => {
    expect(maxStake(limits())).toBe(1000);
    expect(maxStake(limits({ balance: 5_000_000 }))).toBe(MAX_BET);
    expect(maxStake(limits({ units: 3 }))).toBe(333);
    expect(maxStake(limits({ balance: 0 }))).toBe(1);
    expect(stakeProblem(maxStake(limits({ balance: 0 })), limits({ balance: 0 }))).toBe("Insufficient balance");
  });
});

describe("auto-bet", () => {
  const config = (over: Partial<AutoBetConfig> = {}): AutoBetConfig => ({
    count: 20,
    stopOnProfit: 0,
    stopOnLoss: 0,
    onWin: { reset: true },
    onLoss: { reset: true },
    ...over,
  });
  const run = (cfg: AutoBetConfig, outcomes: number[], start = 10, lim = limits()) => {
    let progress = startAutoBet(start);
    const amounts: number[] = [];
    for (const payoutFor1 of outcomes) {
      amounts.push(progress.amount);
      const step = afterAutoBet(progress, cfg, { stake: progress.amount, payout: Math.floor(progress.amount * payoutFor1) }, lim);
      progress = step.progress;
      if (step.stop) return { amounts, progress, stop: step.stop };
    }
    return { amounts, progress, stop: null };
  };

  it("stops after the number of bets", () => {
    const r = run(config({ count: 3 }), [0, 2, 0, 2, 2]);
    expect(r.progress.played).toBe(3);
    expect(r.stop).toBe("3 bets placed");
  });

  it("stops as soon as the profit target is reached, not before", () => {
    const r = run(config({ stopOnProfit: 15 }), [2, 0, 2, 2, 2, 2]);
    // +10, 0, +10, +20: the target is reached on the fourth bet
    expect(r.progress.played).toBe(4);
    expect(r.progress.profit).toBe(20);
    expect(r.stop).toBe("Profit target reached");
  });

  it("stops once the loss limit is reached", () => {
    const r = run(config({ stopOnLoss: 25 }), [0, 0, 2, 0, 0]);
    // -10, -20, -10, -20, -30: the limit is reached on the fifth bet
    expect(r.progress.played).toBe(5);
    expect(r.progress.profit).toBe(-30);
    expect(r.stop).toBe("Loss limit reached");
  });

  it("changes the amount by the percentages and resets to the starting amount", () => {
    const martingale = run(config({ onLoss: { reset: false, percent: 100 } }), [0, 0, 0, 2, 0]);
    expect(martingale.amounts).toEqual([10, 20, 40, 80, 10]);
    const paroli = run(config({ onWin: { reset: false, percent: 50 }, onLoss: { reset: true } }), [2, 2, 0, 2]);
    expect(paroli.amounts).toEqual([10, 15, 23, 10]);
    const pushKeeps = run(config({ onWin: { reset: false, percent: 100 } }), [2, 1, 2]);
    expect(pushKeeps.amounts).toEqual([10, 20, 20]);
  });

  it("stops before a bet the balance cannot cover, and never goes below the minimum", () => {
    const broke = run(config({ onLoss: { reset: false, percent: 100 } }), [0, 0, 0, 0, 0], 100, limits({ balance: 300 }));
    expect(broke.stop).toBe("Insufficient balance");
    expect(broke.amounts).toEqual([100, 200]);
    const shrink = run(config({ onLoss: { reset: false, percent: -90 } }), [0, 0, 0], 5);
    expect(shrink.amounts).toEqual([5, 1, 1]);
  });

  it("refuses a configuration it cannot run", () => {
    expect(autoBetConfigProblem(config())).toBeNull();
    expect(autoBetConfigProblem(config({ count: 1.5 }))).toMatch(/Number of bets/);
    expect(autoBetConfigProblem(config({ stopOnLoss: -1 }))).toMatch(/Stop on loss/);
    expect(autoBetConfigProblem(config({ onWin: { reset: false, percent: -100 } }))).toMatch(/On win/);
  });
});
