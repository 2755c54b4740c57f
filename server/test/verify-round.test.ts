import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Room } from "@colyseus/sdk";
import { DAILY_SPIN, GAMES, PAYOUT_ROUNDING, replayRound, verifyRound } from "@casino/common";
import { casesOf } from "../../common/test/games/cases";
import type { Play } from "../../common/test/games/case-support";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino, type Inbox } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const chanceGames = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);

/** Plays a round through the room to its end: while it is open, the first of the play's actions the room accepts. */
async function playRound(room: Room, inbox: Inbox, game: string, play: Play) {
  let answer = await ask(room, inbox, "bet", { game, amount: play.amount, params: play.params });
  expect(answer.type, `${game}: ${JSON.stringify(answer.body)}`).toBe("result");
  for (let steps = 0; !answer.body.done; steps++) {
    expect(play.act, `${game} left a round open`).toBeDefined();
    expect(steps, `${game}: the round did not end`).toBeLessThan(500);
    let reply;
    for (const action of play.act!(answer.body.view)) {
      reply = await ask(room, inbox, "act", { action });
      if (reply.type === "result") break;
    }
    expect(reply!.type, `${game}: ${JSON.stringify(reply!.body)}`).toBe("result");
    answer = reply!;
  }
  return answer;
}

describe("a round played through the server verifies offline to the same outcome", () => {
  it.each(chanceGames)("%s: each of its plays, after the seed is rotated and revealed", async (game) => {
    const { plays } = casesOf(game);
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const committed = (room.state as any).serverSeedHash as string;
    const played = new Map<number, { amount: number; payout: number; stake: number; view: unknown }>();

    for (const play of plays) {
      const answer = await playRound(room, inbox, game, play);
      expect(answer.body.fairness.serverSeedHash).toBe(committed);
      played.set(answer.body.fairness.nonce, {
        amount: play.amount,
        payout: answer.body.totalPayout,
        stake: answer.body.totalStake,
        view: answer.body.view,
      });
    }

    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    const revealed = (seeds.body.revealed as { serverSeed: string; serverSeedHash: string }[]).find((s) => s.serverSeedHash === committed);
    expect(revealed, "the committed seed is revealed after the rotation").toBeDefined();

    const history = await t.request("GET", `/api/player/${player.id}/history?limit=50`, { token });
    expect(history.body.items).toHaveLength(plays.length);
    const rounds = history.body.items.filter((item: { kind: string }) => item.kind === "round");
    expect(rounds).toHaveLength(plays.length);
    for (const item of rounds) {
      expect(item.gameType).toBe(game);
      const live = played.get(item.fairness.nonce)!;
      expect(live, `${game}: a recorded round of nonce ${item.fairness.nonce} was played`).toBeDefined();
      expect(item.amount, `${game}: the recorded opening bet`).toBe(live.amount);
      const v = verifyRound({
        serverSeed: revealed!.serverSeed,
        serverSeedHash: item.fairness.serverSeedHash,
        clientSeed: item.fairness.clientSeed,
        nonce: item.fairness.nonce,
        game: item.gameType,
        amount: item.amount,
        params: item.params,
        actions: item.actions,
        rounding: item.rounding,
      });
      expect(item.rounding, `${game}: played under the current rounding rule`).toBe(PAYOUT_ROUNDING);
      expect(v.commitment.matches, game).toBe(true);
      expect(v.done).toBe(true);
      expect(v.totalStake, game).toBe(live.stake);
      expect(v.totalPayout, game).toBe(live.payout);
      expect(v.totalPayout).toBe(item.payout);
      expect(v.result).toBe(item.result);
      expect(v.view, game).toEqual(live.view);
      expect(v.view).toEqual(item.outcome);
    }
    await room.leave();
  });

  it("a daily spin, after the seed is rotated and revealed", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const committed = (room.state as any).serverSeedHash as string;
    const spin = await ask(room, inbox, "daily-spin", {});
    expect(spin.type).toBe("spin");

    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    const revealed = (seeds.body.revealed as { serverSeed: string; serverSeedHash: string }[]).find((s) => s.serverSeedHash === committed);
    expect(revealed, "the committed seed is revealed after the rotation").toBeDefined();
    const history = await t.request("GET", `/api/player/${player.id}/history?limit=50`, { token });
    expect(history.body.items).toHaveLength(1);

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

describe("1-coin bets on the server", () => {
  it("are taken and paid on every game, and verify under the round's rounding rule", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const committed = (room.state as any).serverSeedHash as string;
    let net = 0;
    const rounds: { game: string; stake: number; payout: number; nonce: number }[] = [];
    for (const game of chanceGames) {
      // a bet of 1 coin, every chip worth 1 coin
      const play = casesOf(game).oneCoin;
      expect(play.amount, `${game}: the one-coin play`).toBe(1);
      // rounds of 1 coin until one pays: every game pays a 1-coin bet often enough to see it here
      for (let tries = 0; !rounds.some((r) => r.game === game && r.payout > 0); tries++) {
        expect(tries, `${game}: no 1-coin round paid in 60`).toBeLessThan(60);
        const answer = await playRound(room, inbox, game, play);
        // a rounded payout says what it came to before rounding: within a coin of what was paid, not whole
        const unrounded = answer.body.unroundedPayout as number | undefined;
        if (unrounded !== undefined) {
          expect(Math.abs(unrounded - answer.body.payout), game).toBeLessThan(1);
          expect(Number.isInteger(unrounded), game).toBe(false);
        }
        // a 1-coin coin flip win came to 1.98, whether it was paid 1 or 2
        if (game === "coin-flip" && answer.body.payout > 0) expect(unrounded).toBeCloseTo(1.98, 10);
        else if (game === "coin-flip") expect(unrounded).toBeUndefined();
        rounds.push({ game, stake: answer.body.totalStake, payout: answer.body.totalPayout, nonce: answer.body.fairness.nonce });
        net += answer.body.totalPayout - answer.body.totalStake;
      }
    }
    expect(await t.balanceOf(player.id)).toBe(1000 + net);

    // each round is recorded under rule 2 and re-derives to what it paid once the seed is revealed
    expect((await ask(room, inbox, "seed:rotate", {})).type).toBe("result");
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    const revealed = (seeds.body.revealed as { serverSeed: string; serverSeedHash: string }[]).find((s) => s.serverSeedHash === committed)!;
    const history = await t.request("GET", `/api/player/${player.id}/history?limit=100&kind=round`, { token });
    expect(history.body.items).toHaveLength(rounds.length);
    for (const item of history.body.items) {
      const live = rounds.find((r) => r.nonce === item.fairness.nonce)!;
      expect(item.rounding).toBe(PAYOUT_ROUNDING);
      const v = verifyRound({
        serverSeed: revealed.serverSeed,
        clientSeed: item.fairness.clientSeed,
        nonce: item.fairness.nonce,
        game: item.gameType,
        amount: item.amount,
        params: item.params,
        actions: item.actions,
        rounding: item.rounding,
      });
      expect([v.totalStake, v.totalPayout], `${item.gameType} nonce ${item.fairness.nonce}`).toEqual([live.stake, live.payout]);
    }
    await room.leave();
  });

  it("a round opened under the old rule finishes under it", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await joinCasino(t, token);
    const query = (sql: string) => t.app.services.db.run((em) => em.query(sql, [player.id]));
    // mines, 1 coin, 5 mines, one gem then cash out: 0.99 × 25 / 20 = 1.2375 coins, which rule 1 pays as
    // 1 and rule 2 as 1 or 2; rounds are played until one where the two rules differ
    for (let tries = 0; ; tries++) {
      expect(tries, "no round where the rules differ in 40").toBeLessThan(40);
      const opened = await ask(room, inbox, "bet", { game: "mines", amount: 1, params: { mines: 5 } });
      expect(opened.type).toBe("result");
      // as if opened before the release that records rules: the column's default for older rows
      await query(`UPDATE open_rounds SET rounding = 1 WHERE player_id = $1`);
      const [open] = await query(
        `SELECT r.state, r.nonce, s.server_seed, s.client_seed FROM open_rounds r JOIN fairness_seeds s ON s.id = r.seed_id WHERE r.player_id = $1`,
      );
      const gem = Array.from({ length: 25 }, (_, i) => i).find((tile) => !(open.state.mines as number[]).includes(tile))!;
      const actions = [{ type: "reveal", tile: gem }, { type: "cashout" }];
      let last;
      for (const action of actions) last = await ask(room, inbox, "act", { action });
      const input = { serverSeed: open.server_seed, clientSeed: open.client_seed, nonce: open.nonce };
      const under = (rounding: 1 | 2) =>
        replayRound(input, { game: "mines", amount: 1, params: { mines: 5 }, actions, rounding }).totalPayout;
      if (under(1) === under(2)) continue;
      expect(last!.body.totalPayout).toBe(under(1));
      const history = await t.request("GET", `/api/player/${player.id}/history?kind=round&limit=1`, { token });
      expect(history.body.items[0].rounding).toBe(1);
      break;
    }
    await room.leave();
  });
});
