import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, GAMES, replayRound } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { ask, chooseSeed, joinCasino } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

/** An opening bet for each game, and the actions to try, in order of preference, while its round is open. */
const PLAYS: Record<string, { amount: number; params: unknown; next?: (view: any) => unknown[] }> = {
  dice: { amount: 100, params: { target: 49.5, direction: "over" } },
  limbo: { amount: 100, params: { target: 2.5 } },
  "coin-flip": { amount: 100, params: { side: "tails" } },
  crash: { amount: 100, params: { cashOutAt: 1.8 } },
  roulette: {
    amount: 100,
    params: {
      bets: [
        { type: "red", amount: 50 },
        { type: "straight", numbers: [17], amount: 50 },
      ],
    },
  },
  "sic-bo": { amount: 100, params: { bets: [{ type: "small", amount: 100 }] } },
  keno: { amount: 100, params: { picks: [1, 7, 13, 22, 38], risk: "medium" } },
  slots: { amount: 100, params: {} },
  baccarat: { amount: 100, params: { bets: { banker: 100 } } },
  blackjack: {
    amount: 100,
    params: {},
    next: (view) => (view?.phase === "insurance" ? [{ type: "insurance", take: false }] : [{ type: "stand" }]),
  },
  poker: { amount: 100, params: {}, next: () => [{ type: "raise" }, { type: "fold" }] },
  "three-card-poker": { amount: 100, params: { ante: 100, pairPlus: 0 }, next: () => [{ type: "play" }] },
  "video-poker": { amount: 100, params: {}, next: () => [{ type: "draw", hold: [true, true, false, false, false] }] },
  "hi-lo": { amount: 100, params: {}, next: () => [{ type: "cashout" }, { type: "higher" }, { type: "lower" }] },
  mines: {
    amount: 100,
    params: { mines: 3 },
    next: () => [{ type: "cashout" }, { type: "reveal", tile: 12 }, { type: "reveal", tile: 3 }],
  },
  craps: { amount: 100, params: { bets: [{ type: "pass", amount: 100 }] }, next: () => [{ type: "roll" }] },
};

const join = (token: string) => joinCasino(t, token);

describe("every chance game through the casino room", () => {
  const chanceGames = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);

  it("registers an engine for each of the sixteen chance games", () => {
    expect(chanceGames).toHaveLength(16);
    expect(Object.keys(ENGINES).sort()).toEqual([...chanceGames].sort());
  });

  it.each(chanceGames)("plays a full round of %s, verifiable from the revealed seed", async (game) => {
    const { token, player } = await t.guest();
    const play = PLAYS[game]!;
    // A game with actions gets a seed whose opening leaves the round open (a blackjack natural, say,
    // would end it at once), so every run goes through `act`.
    if (play.next) {
      await chooseSeed(
        t,
        player.id,
        `games-room-${game}`,
        (input) => !replayRound(input, { game, amount: play.amount, params: play.params, actions: [] }).done,
      );
    }
    const { room, inbox } = await join(token);
    let answer = await ask(room, inbox, "bet", { game, amount: play.amount, params: play.params });
    expect(answer.type, JSON.stringify(answer.body)).toBe("result");
    expect(answer.body.done, `${game} after the bet`).toBe(!play.next);
    let steps = 0;
    while (!answer.body.done) {
      expect(play.next, `${game} left a round open`).toBeDefined();
      expect(inbox.openRound()).toMatchObject({ game, roundId: answer.body.roundId, totalStake: answer.body.totalStake });
      let acted = false;
      for (const action of play.next!(answer.body.view)) {
        const reply = await ask(room, inbox, "act", { action });
        if (reply.type === "result") {
          answer = reply;
          acted = true;
          break;
        }
        expect(reply.body.code).not.toBe("internal");
      }
      expect(acted, `no action was accepted in ${game}`).toBe(true);
      expect(++steps).toBeLessThan(500);
    }
    const balance = Number(
      (await t.app.services.db.run((em) => em.query(`SELECT balance FROM players WHERE id = $1`, [player.id])))[0].balance,
    );
    expect(balance).toBe(1000 - answer.body.totalStake + answer.body.totalPayout);
    expect(answer.body.balance).toBe(balance);

    const rotated = await ask(room, inbox, "seed:rotate", {});
    const history = await t.request("GET", `/api/player/${player.id}/history`, { token });
    const [session] = history.body.items;
    expect(session.gameType).toBe(game);
    const replay = replayRound(
      { serverSeed: rotated.body.revealed.serverSeed, clientSeed: session.fairness.clientSeed, nonce: session.fairness.nonce },
      { game, amount: play.amount, params: session.params, actions: session.actions, rounding: session.rounding },
    );
    expect(replay.done).toBe(true);
    expect(replay.totalStake).toBe(session.betAmount);
    expect(replay.totalPayout).toBe(session.payout);
    expect(replay.view).toEqual(session.outcome);
    await room.leave();
  });
});

describe("open rounds", () => {
  it("keep a debited bet across a lost connection and resume on a new one", async () => {
    const { token, player } = await t.guest();
    const first = await join(token);
    const opened = await ask(first.room, first.inbox, "bet", { game: "mines", amount: 100, params: { mines: 1 } });
    expect(opened.body.done).toBe(false);
    expect(JSON.stringify(opened.body.view)).not.toMatch(/"mines":\s*\[/); // positions stay secret
    await first.room.leave();

    const second = await join(token);
    expect(second.inbox.openRound()).toMatchObject({ game: "mines", roundId: opened.body.roundId, totalStake: 100 });
    const other = await ask(second.room, second.inbox, "bet", { game: "blackjack", amount: 5, params: {} });
    expect(other.body.code).toBe("round_open");
    const refusedRotation = await ask(second.room, second.inbox, "seed:rotate", {});
    expect(refusedRotation.body.code).toBe("round_open");
    // Reveal a gem, never the mine: the test reads the secret layout from its own database, so the
    // cash-out path runs every time instead of 24 times in 25.
    const [stored] = await t.app.services.db.run((em) => em.query(`SELECT state FROM open_rounds WHERE player_id = $1`, [player.id]));
    const gem = [...Array(25).keys()].find((tile) => !stored.state.mines.includes(tile))!;
    const reveal = await ask(second.room, second.inbox, "act", { action: { type: "reveal", tile: gem } });
    expect(reveal.type).toBe("result");
    expect(reveal.body.done).toBe(false);
    const cash = await ask(second.room, second.inbox, "act", { action: { type: "cashout" } });
    expect(cash.body).toMatchObject({ done: true, totalStake: 100 });
    expect(cash.body.totalPayout).toBeGreaterThan(100);
    const rounds = await t.app.services.db.run((em) =>
      em.query(`SELECT count(*)::int AS n FROM open_rounds WHERE player_id = $1`, [player.id]),
    );
    expect(rounds[0].n).toBe(0);
    await second.room.leave();
  });

  it("refuses an extra stake the player cannot afford and leaves the round as it was", async () => {
    const { token } = await t.guest();
    const { room, inbox } = await join(token);
    const opened = await ask(room, inbox, "bet", { game: "poker", amount: 400, params: {} });
    expect(opened.body.done).toBe(false);
    const raise = await ask(room, inbox, "act", { action: { type: "raise" } });
    expect(raise.body.code).toBe("insufficient_funds");
    const bad = await ask(room, inbox, "act", { action: { type: "split" } });
    expect(bad.body.code).toBe("invalid_action");
    const fold = await ask(room, inbox, "act", { action: { type: "fold" } });
    expect(fold.body).toMatchObject({ done: true, totalStake: 400, totalPayout: 0, result: "lose" });
    await room.leave();
  });
});
