import { describe, expect, it } from "vitest";
import { quoteBet, roundMultiplier, winChance } from "../../src/games/odds";
import { startRound } from "../../src/games/runner";
import { kenoEngine, type KenoState } from "../../src/games/keno/engine";
import { rouletteEngine, type RouletteState } from "../../src/games/roulette/engine";
import { kenoHitProbability } from "../../src/games/keno/engine";
import { minesSafeChance } from "../../src/games/mines/engine";
import { diceEngine, ROLLS, type DiceState } from "../../src/games/dice/engine";
import { fixedRng } from "../../src/fairness/stream";
import { payTable, RISKS, MAX_PICKS } from "../../src/games/keno/engine";
import { RTP_TABLE, BACCARAT_WIN_PROBABILITY } from "../../src/rtp-table";
import { MAX_ANTE } from "../../src/games/poker/engine";
import { REELS, linePays } from "../../src/games/slots/engine";

const quote = (game: Parameters<typeof quoteBet>[0], amount: number, params: unknown) => {
  const q = quoteBet(game, amount, params);
  if (!q.ok) throw new Error(q.error);
  return q.quote;
};

describe("the bet panel's quote", () => {
  it("refuses what the engine refuses, with the engine's words", () => {
    const over98 = quoteBet("dice", 10, { target: 99.5, direction: "under" });
    expect(over98).toEqual({ ok: false, error: expect.stringMatching(/win chance must be between 0.01 % and 98 %/) });
    expect(quoteBet("dice", 10, { target: 50.123, direction: "under" }).ok).toBe(false);
    expect(quoteBet("poker", MAX_ANTE + 1, {})).toEqual({ ok: false, error: expect.stringMatching(/ante may be at most/) });
    expect(quoteBet("baccarat", 10, { bets: { player: 5 } })).toEqual({ ok: false, error: expect.stringMatching(/must equal the sum/) });
    expect(quoteBet("craps", 5, { bets: [{ type: "come", amount: 5 }] })).toEqual({
      ok: false,
      error: expect.stringMatching(/need a point/),
    });
    expect(quoteBet("limbo", 0, { target: 2 })).toEqual({ ok: false, error: expect.stringMatching(/whole number of coins/) });
  });

  it("dice: the chance is the share of the 10,000 rolls the engine pays, and the payout is the engine's", () => {
    for (const params of [
      { target: 50, direction: "under" as const },
      { target: 1.99, direction: "over" as const },
      { target: 98, direction: "under" as const },
    ]) {
      let wins = 0;
      for (let roll = 0; roll < ROLLS; roll++) {
        if (diceEngine.start(100, params, fixedRng([(roll + 0.5) / ROLLS])).payout > 0) wins += 1;
      }
      const q = quote("dice", 100, params);
      expect(q.winChance).toBe(wins / ROLLS);
      expect(q.maxPayout).toBe(diceEngine.maxPayout(100, params));
    }
    expect(quote("dice", 100, { target: 50, direction: "under" })).toEqual({
      maxPayout: 198,
      leastPayout: 198,
      exactPayout: 198,
      multiplier: 1.98,
      winChance: 0.5,
    });
  });

  it("shows the engine's multiplier and payout before rounding, and the whole coins a win can pay (rounded down and up)", () => {
    expect(quote("dice", 10, { target: 50, direction: "under" })).toMatchObject({
      leastPayout: 19,
      exactPayout: 19.8,
      maxPayout: 20,
      multiplier: 1.98,
    });
    // mines: every gem of 20 with 5 mines pays 0.99 × C(25, 20) / C(20, 20) = 0.99 × 53,130 per coin
    expect(quote("mines", 1, { mines: 5 })).toMatchObject({ leastPayout: 52_598, exactPayout: 52_598.7, maxPayout: 52_599 });
    expect(quote("baccarat", 5, { bets: { banker: 5 } })).toMatchObject({ leastPayout: 9, exactPayout: 9.75, maxPayout: 10 });
    expect(quote("dice", 3, { target: 0.01, direction: "under" })).toMatchObject({ maxPayout: 29_700, multiplier: 9900 });
    expect(quote("limbo", 1, { target: 1_000_000 })).toMatchObject({ maxPayout: 1_000_000, multiplier: 1_000_000 });
    expect(quote("coin-flip", 1, { side: "heads" })).toMatchObject({ maxPayout: 2, multiplier: 1.98 });
    expect(quote("baccarat", 1, { bets: { banker: 1 } })).toMatchObject({ maxPayout: 2, multiplier: 1.95 });
    // a place 6 returns 7:6 on top of its stake: 13/6 per coin, before rounding
    const place = quote("craps", 1, { bets: [{ type: "place", number: 6, amount: 1 }] });
    expect(place.multiplier).toBeCloseTo(13 / 6, 12);
  });

  it("counts a push as no win: red and zero together only win on zero", () => {
    expect(quote("roulette", 1, { bets: [{ type: "red", amount: 1 }] }).winChance).toBeCloseTo(18 / 37, 15);
    const hedge = quote("roulette", 2, {
      bets: [
        { type: "red", amount: 1 },
        { type: "straight", numbers: [0], amount: 1 },
      ],
    });
    expect(hedge.winChance).toBeCloseTo(1 / 37, 15);
    expect(hedge.maxPayout).toBe(36);
    expect(quote("baccarat", 20, { bets: { player: 10, banker: 10 } }).winChance).toBe(0);
    expect(quote("baccarat", 10, { bets: { player: 10 } }).winChance).toBe(BACCARAT_WIN_PROBABILITY.player);
  });

  it("sic bo small wins on 105 of the 216 rolls (totals 4–10 except the triples)", () => {
    expect(quote("sic-bo", 1, { bets: [{ type: "small", amount: 1 }] }).winChance).toBeCloseTo(105 / 216, 15);
  });

  it("slots: every paying line pays more than the stake", () => {
    let paying = 0;
    for (const a of REELS[0]!) for (const b of REELS[1]!) for (const c of REELS[2]!) if (linePays([a, b, c]) > 0) paying += 1;
    expect(quote("slots", 1, {}).winChance).toBe(paying / 8000);
    expect(quote("slots", 3, {}).maxPayout).toBe(600);
  });

  it("keno: the hit probabilities sum to 1 and give back the RTP table's return", () => {
    for (const risk of RISKS) {
      for (let picks = 1; picks <= MAX_PICKS; picks++) {
        const table = payTable(risk, picks);
        const probabilities = table.map((_, hits) => kenoHitProbability(picks, hits));
        expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        const rtp = table.reduce((sum, m, hits) => sum + m * probabilities[hits]!, 0);
        const row = RTP_TABLE.keno!.find((r) => r.bet === `${risk}, ${picks} pick${picks === 1 ? "" : "s"}`)!;
        expect(rtp).toBeCloseTo(row.rtp, 10);
        const chance = winChance("keno", { picks: Array.from({ length: picks }, (_, i) => i + 1), risk });
        expect(chance).toBeCloseTo(
          table.reduce((s, m, h) => (m > 1 ? s + probabilities[h]! : s), 0),
          15,
        );
      }
    }
  });

  it("games decided by the player's play have no single win chance", () => {
    for (const game of ["blackjack", "poker", "video-poker", "hi-lo", "mines"] as const) {
      expect(quote(game, 10, game === "mines" ? { mines: 3 } : {}).winChance).toBeNull();
    }
    expect(minesSafeChance(3, 0)).toBe(22 / 25);
    expect(minesSafeChance(24, 0)).toBe(1 / 25);
    expect(minesSafeChance(5, 10)).toBe(10 / 15);
  });

  it("limbo and crash: multiplier is the target and the chance 0.99 / target", () => {
    expect(quote("limbo", 10, { target: 2 })).toEqual({ maxPayout: 20, leastPayout: 20, exactPayout: 20, multiplier: 2, winChance: 0.495 });
    expect(quote("crash", 100, { cashOutAt: 1.5 })).toEqual({
      maxPayout: 150,
      leastPayout: 150,
      exactPayout: 150,
      multiplier: 1.5,
      winChance: 0.66,
    });
  });
});

describe("the history's multiplier of a settled round", () => {
  it("is the bet's multiplier before rounding, whichever whole coins the round paid", () => {
    const params = { target: 50, direction: "under" as const };
    const paid = new Set<number>();
    // a winning roll (float 0.1), then rounding floats low and high: 19.8 paid 20, then 19
    for (const v of [0.1, 0.9]) {
      const step = startRound(diceEngine, 10, params, fixedRng([0.1, v]), { rounding: 2 });
      paid.add(step.payout);
      expect(roundMultiplier({ game: "dice", params, outcome: diceEngine.view(step.state as DiceState, true), payout: step.payout })).toBe(
        1.98,
      );
    }
    expect([...paid].sort()).toEqual([19, 20]);
    // a lost bet stood at the same multiplier
    const lost = startRound(diceEngine, 10, params, fixedRng([0.9]), { rounding: 2 });
    expect(lost.payout).toBe(0);
    expect(roundMultiplier({ game: "dice", params, outcome: diceEngine.view(lost.state as DiceState, true), payout: 0 })).toBe(1.98);
  });

  it("is the multiplier the round reached where the view states it, 0 when it paid nothing", () => {
    const params = { picks: [1, 2, 3, 4], risk: "medium" as const };
    const seen = new Set<boolean>();
    for (let seed = 0; seed < 40; seed++) {
      const floats = Array.from({ length: 12 }, (_, i) => ((seed * 7919 + i * 104729) % 1000) / 1000);
      const step = startRound(kenoEngine, 10, params, fixedRng(floats), { rounding: 1 });
      const view = kenoEngine.view(step.state as KenoState, true) as { multiplier: number; hits: number[] };
      seen.add(step.payout > 0);
      // the pay table's entry for the hits, not the whole coins paid ÷ the stake
      const shown = roundMultiplier({ game: "keno", params, outcome: view, payout: step.payout });
      expect(shown).toBe(step.payout > 0 ? payTable("medium", 4)[view.hits.length] : 0);
    }
    expect(seen).toEqual(new Set([true, false]));
  });

  it("is the multiplier a shared crash room's cash-out was paid at, whatever it came to in coins", () => {
    // 7 coins cashed out at 1.23×: 8.61, paid 8 or 9
    for (const payout of [8, 9]) {
      const row = { game: "crash", params: { roundId: "r", gameNumber: 3, autoCashOut: null }, outcome: { cashedOutAt: 123 }, payout };
      expect(roundMultiplier(row)).toBe(1.23);
    }
  });

  it("is not told for a round of several payouts each rounded on its own", () => {
    const params = { bets: [{ type: "red", amount: 10 }] };
    const step = startRound(rouletteEngine, 10, params, fixedRng([0.5]), { rounding: 2 });
    expect(
      roundMultiplier({ game: "roulette", params, outcome: rouletteEngine.view(step.state as RouletteState, true), payout: step.payout }),
    ).toBeNull();
  });
});
