import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, GAMES, replayRound } from "@casino/common";
import { casesOf } from "../../common/test/games/cases";
import { startTestApp, type TestApp } from "./harness";
import { ask, chooseSeed, joinCasino } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const join = (token: string) => joinCasino(t, token);

describe("every chance game through the casino room", () => {
  const chanceGames = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);

  const plays = chanceGames.flatMap((game) => casesOf(game).plays.map((play, i) => [`${game} (play ${i + 1})`, game, play] as const));

  it("registers an engine for each of the catalogue's chance games, and nothing else", () => {
    expect(chanceGames.length).toBeGreaterThan(0);
    expect(Object.keys(ENGINES).sort()).toEqual([...chanceGames].sort());
  });

  it.each(plays)("plays a full round of %s, verifiable from the revealed seed", async (name, game, play) => {
    const { token, player } = await t.guest();
    // A game with actions gets a seed whose opening leaves the round open (a blackjack natural, say,
    // would end it at once), so every run goes through `act`.
    if (play.act) {
      await chooseSeed(
        t,
        player.id,
        `games-room-${name}`,
        (input) => !replayRound(input, { game, amount: play.amount, params: play.params, actions: [] }).done,
      );
    }
    const { room, inbox } = await join(token);
    let answer = await ask(room, inbox, "bet", { game, amount: play.amount, params: play.params });
    expect(answer.type, JSON.stringify(answer.body)).toBe("result");
    expect(answer.body.done, `${game} after the bet`).toBe(!play.act);
    let steps = 0;
    while (!answer.body.done) {
      expect(play.act, `${game} left a round open`).toBeDefined();
      expect(inbox.openRound()).toMatchObject({ game, roundId: answer.body.roundId, totalStake: answer.body.totalStake });
      let acted = false;
      for (const action of play.act!(answer.body.view)) {
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
