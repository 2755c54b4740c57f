import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAILY_SPIN, ENGINES, minBetFor, verifyRound } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

/** A bet per game at a small stake (at least its minimum), and how to go on while its round is open. */
const PLAYS: Record<string, { params: unknown; amount?: number; next?: (view: any) => unknown[] }> = {
  dice: { params: { target: 49.5, direction: "under" } },
  limbo: { params: { target: 2 } },
  crash: { params: { cashOutAt: 2 } },
  "coin-flip": { params: { side: "heads" } },
  roulette: {
    params: {
      bets: [
        { type: "even", amount: 5 },
        { type: "split", numbers: [8, 11], amount: 5 },
      ],
    },
    amount: 10,
  },
  "sic-bo": {
    params: {
      bets: [
        { type: "small", amount: 6 },
        { type: "single", value: 4, amount: 4 },
      ],
    },
    amount: 10,
  },
  slots: { params: {} },
  keno: { params: { picks: [5, 10, 15, 20, 25, 30, 35, 40], risk: "classic" } },
  baccarat: { params: { bets: { player: 10 } }, amount: 10 },
  blackjack: {
    params: {},
    next: (v) =>
      v.phase === "insurance" ? [{ type: "insurance", take: true }] : [{ type: v.hands[v.active].total < 15 ? "hit" : "stand" }],
  },
  poker: { params: {}, next: () => [{ type: "raise" }] },
  "three-card-poker": { params: { ante: 10, pairPlus: 5 }, amount: 15, next: () => [{ type: "play" }] },
  "video-poker": { params: {}, next: () => [{ type: "draw", hold: [false, false, true, true, true] }] },
  "hi-lo": {
    params: {},
    next: (v) =>
      v.correct >= 1 ? [{ type: "cashout" }] : [{ type: v.higher > 0 && v.higher <= v.lower ? "higher" : "lower" }, { type: "higher" }],
  },
  mines: {
    params: { mines: 5 },
    next: (v) => (v.revealed.length >= 2 ? [{ type: "cashout" }] : [{ type: "reveal", tile: [3, 17][v.revealed.length] }]),
  },
  craps: { params: { bets: [{ type: "dontPass", amount: 10 }] }, amount: 10, next: () => [{ type: "roll" }] },
};

const stakeOf = (game: string) => PLAYS[game]!.amount ?? Math.max(10, minBetFor(game, PLAYS[game]!.params));

describe("a round played through the server verifies offline to the same outcome", () => {
  it("every game and a daily spin, after the seed is rotated and revealed", async () => {
    expect(Object.keys(PLAYS).sort()).toEqual(Object.keys(ENGINES).sort());
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const committed = (room.state as any).serverSeedHash as string;
    const played = new Map<string, { amount: number; payout: number; stake: number; view: unknown; nonce: number }>();

    for (const game of Object.keys(PLAYS)) {
      const play = PLAYS[game]!;
      const amount = stakeOf(game);
      let answer = await ask(room, inbox, "bet", { game, amount, params: play.params });
      expect(answer.type, `${game}: ${JSON.stringify(answer.body)}`).toBe("result");
      while (!answer.body.done) {
        let reply;
        for (const action of play.next!(answer.body.view)) {
          reply = await ask(room, inbox, "act", { action });
          if (reply.type === "result") break;
        }
        expect(reply!.type, `${game}: ${JSON.stringify(reply!.body)}`).toBe("result");
        answer = reply!;
      }
      expect(answer.body.fairness.serverSeedHash).toBe(committed);
      played.set(game, {
        amount,
        payout: answer.body.totalPayout,
        stake: answer.body.totalStake,
        view: answer.body.view,
        nonce: answer.body.fairness.nonce,
      });
    }
    const spin = await ask(room, inbox, "daily-spin", {});
    expect(spin.type).toBe("spin");

    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    const revealed = (seeds.body.revealed as { serverSeed: string; serverSeedHash: string }[]).find((s) => s.serverSeedHash === committed);
    expect(revealed, "the committed seed is revealed after the rotation").toBeDefined();

    const history = await t.request("GET", `/api/player/${player.id}/history?limit=50`, { token });
    expect(history.body.items).toHaveLength(Object.keys(PLAYS).length + 1);
    const rounds = history.body.items.filter((item: { kind: string }) => item.kind === "round");
    expect(rounds).toHaveLength(Object.keys(PLAYS).length);
    for (const item of rounds) {
      const live = played.get(item.gameType)!;
      expect(item.amount, `${item.gameType}: the recorded opening bet`).toBe(live.amount);
      expect(item.fairness.nonce).toBe(live.nonce);
      const v = verifyRound({
        serverSeed: revealed!.serverSeed,
        serverSeedHash: item.fairness.serverSeedHash,
        clientSeed: item.fairness.clientSeed,
        nonce: item.fairness.nonce,
        game: item.gameType,
        amount: item.amount,
        params: item.params,
        actions: item.actions,
      });
      expect(v.commitment.matches, item.gameType).toBe(true);
      expect(v.done).toBe(true);
      expect(v.totalStake, item.gameType).toBe(live.stake);
      expect(v.totalPayout, item.gameType).toBe(live.payout);
      expect(v.totalPayout).toBe(item.payout);
      expect(v.result).toBe(item.result);
      expect(v.view, item.gameType).toEqual(live.view);
      expect(v.view).toEqual(item.outcome);
    }

    // the spin is a history row of its own, re-derived from what the row says
    const spinRow = history.body.items.find((item: { kind: string }) => item.kind === "daily_spin");
    expect(spinRow.fairness).toEqual({ ...spin.body.fairness, serverSeed: revealed!.serverSeed });
    const wheel = verifyRound({
      serverSeed: spinRow.fairness.serverSeed,
      serverSeedHash: spinRow.fairness.serverSeedHash,
      clientSeed: spinRow.fairness.clientSeed,
      nonce: spinRow.fairness.nonce,
      game: spinRow.gameType,
    });
    expect(spinRow.gameType).toBe(DAILY_SPIN);
    expect(wheel.commitment.matches).toBe(true);
    expect(wheel.view).toEqual({ segment: spin.body.segment, prize: spin.body.prize });
    expect(spinRow.outcome).toEqual(wheel.view);
    await room.leave();
  });
});

describe("minimum bets on the server", () => {
  const balanceOf = async (playerId: string) =>
    Number((await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE id = $1`, [playerId])))[0].balance);

  it("refuses a stake below its minimum, moves nothing, and takes the minimum", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const min = minBetFor("coin-flip");
    const refused = await ask(room, inbox, "bet", { game: "coin-flip", amount: min - 1, params: { side: "tails" } });
    expect(refused.type).toBe("error");
    expect(refused.body).toMatchObject({
      code: "below_minimum",
      message: `The minimum bet on coin-flip is ${min} coins: below it, rounding payouts down to whole coins would cost more than 1 % of the stake`,
    });
    expect(await balanceOf(player.id)).toBe(1000);
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    expect(seeds.body.active.nonce).toBe(0); // the refused bet's transaction took no nonce either

    const banker = minBetFor("baccarat", { side: "banker" });
    const chip = await ask(room, inbox, "bet", { game: "baccarat", amount: banker, params: { bets: { player: 1, banker: banker - 1 } } });
    expect(chip.body.code).toBe("below_minimum");
    expect(chip.body.message).toMatch(/^The minimum bet on banker is /);

    const taken = await ask(room, inbox, "bet", { game: "coin-flip", amount: min, params: { side: "tails" } });
    expect(taken.type).toBe("result");
    expect(await balanceOf(player.id)).toBe(1000 - min + taken.body.payout);
    await room.leave();
  });

  it("checks the chips a craps action adds against the table's point", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    // a pass line bet that sets a point (retried on a decided come-out)
    let point: number | null = null;
    let spent = 0;
    while (point === null) {
      const opened = await ask(room, inbox, "bet", { game: "craps", amount: 10, params: { bets: [{ type: "pass", amount: 10 }] } });
      expect(opened.type).toBe("result");
      spent += 10 - opened.body.payout;
      if (!opened.body.done) point = opened.body.view.point;
    }
    const minimum = minBetFor("craps", { type: "passOdds", number: point });
    if (minimum > 1) {
      const low = await ask(room, inbox, "act", { action: { type: "bet", bets: [{ type: "passOdds", amount: minimum - 1 }] } });
      expect(low.body.code).toBe("below_minimum");
      expect(low.body.message).toMatch(new RegExp(`^The minimum bet on pass line odds ${point} is ${minimum} coins`));
      expect(await balanceOf(player.id)).toBe(1000 - spent);
    }
    // odds are limited by the flat bet: 10 coins allow 30–50 behind, which meets every odds minimum
    const odds = await ask(room, inbox, "act", { action: { type: "bet", bets: [{ type: "passOdds", amount: Math.max(minimum, 30) }] } });
    expect(odds.type, JSON.stringify(odds.body)).toBe("result");
    let last = odds;
    while (!last.body.done) last = await ask(room, inbox, "act", { action: { type: "roll" } });
    await room.leave();
  });
});
