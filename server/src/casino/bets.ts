import { randomUUID } from "node:crypto";
import {
  floatStream,
  startRound,
  actRound,
  finishByDefault,
  requireEngine,
  resultWord,
  LIVE_PLAY,
  type AnyGameEngine,
  type RoundingDraw,
  type BetAnswer,
  type Step,
} from "@casino/common";
import { AppError, conflict } from "../platform/errors";
import type { Log } from "../platform/log";
import {
  fairnessOf,
  holdingAccount,
  houseAccount,
  moveCoins,
  postHolding,
  recordRound,
  type MoneyContext,
  type MoneyRequests,
  type Movement,
  type OpenRoundRow,
  type Replayable,
  type SeedRow,
} from "../core/ledger/engine/index";

/** What settling an abandoned round did, for the player's other connections to hear. */
export interface AbandonedSettlement {
  playerId: string;
  roundId: string;
  game: string;
  balance: number;
  /** Coins credited by the settlement (payout or refund). */
  credited: number;
  voided: boolean;
}

/**
 * The games of chance's money: a bet (one step, or the opening of a multi-step round kept in
 * `open_rounds` with its float-stream cursor), an action in the open round, and the settlement of a
 * round its player left.
 */
export class Bets {
  constructor(
    private readonly requests: MoneyRequests,
    private readonly log: Pick<Log, "error">,
  ) {}

  /** Places a bet: one step for single-step games, or the opening of a multi-step round. */
  placeBet(
    playerId: string,
    requestId: string,
    game: string,
    amount: number,
    params: unknown,
    origin?: string,
  ): Promise<Replayable<BetAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "bet", body: { game, amount, params: params ?? {} }, origin }, async (ctx) => {
      const engine = requireEngine(game);
      if (engine.act && ctx.round) throw conflict("Finish your open round first", "round_open");
      const seed = ctx.seed;
      const rng = floatStream(fairnessOf(seed));
      const draws: RoundingDraw[] = [];
      const step = startRound(engine, amount, params, rng, { ...LIVE_PLAY, onRounding: (d) => draws.push(d) });
      // A round that stays open holds its stake until it ends; one done at once pays the house now.
      const balance = moveCoins(ctx, requestId, stepMovements(step, game, step.done ? houseAccount(game) : holdingAccount(game)), {
        seedId: seed.id,
      });
      const w = ctx.writes;
      if (!step.done) {
        const roundId = randomUUID();
        w.add(
          `INSERT INTO open_rounds (id, player_id, game, request_id, amount, params, actions, state, total_stake, total_payout, seed_id, nonce, cursor, rounding)
           VALUES (${w.p(roundId)}, ${w.p(playerId)}, ${w.p(game)}, ${w.p(requestId)}, ${w.p(amount)}, ${w.p(JSON.stringify(params ?? {}))}, '[]',
                   ${w.p(JSON.stringify(step.state))}, ${w.p(step.stake)}, ${w.p(step.payout)}, ${w.p(seed.id)}, ${w.p(seed.nonce)}, ${w.p(rng.cursor)}, ${w.p(LIVE_PLAY.rounding)})`,
        );
        return announceRound(
          ctx,
          "bet",
          answer(requestId, game, roundId, step, step.stake, step.payout, balance, engine.view(step.state, false), seed, draws),
          params ?? {},
        );
      }
      const view = engine.view(step.state, true);
      recordRound(w, {
        playerId,
        requestId,
        game,
        amount,
        totalStake: step.stake,
        totalPayout: step.payout,
        seed,
        params,
        actions: [],
        outcome: view,
        rounding: LIVE_PLAY.rounding,
      });
      return announceRound(
        ctx,
        "bet",
        answer(requestId, game, null, step, step.stake, step.payout, balance, view, seed, draws),
        params ?? {},
      );
    });
  }

  /**
   * Acts in the player's open round, continuing its float stream where the last step stopped. A round
   * whose server seed is no longer the active one (revealed: its future is known) is never continued:
   * it is voided and what it holds of the stake is refunded.
   */
  act(playerId: string, requestId: string, action: unknown, origin?: string): Promise<Replayable<BetAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "act", body: { action: action ?? null }, origin }, async (ctx) => {
      const r = ctx.round;
      if (!r) throw new AppError("no_open_round", 409, "You have no open round");
      const engine = requireEngine(r.game);
      if (!r.seedActive) return announceRound(ctx, "act", voidRound(ctx, engine, r, requestId, true), r.params);
      const rng = floatStream(fairnessOf(r.seed), r.cursor);
      // the round keeps the rounding rule it was opened under
      const draws: RoundingDraw[] = [];
      const step = actRound(engine, r.state, action, rng, { rounding: r.rounding, onRounding: (d) => draws.push(d) });
      const balance = moveCoins(ctx, requestId, stepMovements(step, r.game, holdingAccount(r.game)));
      const totalStake = r.totalStake + step.stake;
      const totalPayout = r.totalPayout + step.payout;
      const actions = [...r.actions, action];
      const w = ctx.writes;
      if (step.done) {
        w.add(`DELETE FROM open_rounds WHERE id = ${w.p(r.id)}`);
        postRound(w, r, totalStake);
        recordRound(w, {
          playerId,
          requestId: r.requestId,
          game: r.game,
          amount: r.amount,
          totalStake,
          totalPayout,
          seed: r.seed,
          params: r.params,
          actions,
          outcome: engine.view(step.state, true),
          rounding: r.rounding,
        });
      } else {
        w.add(
          `UPDATE open_rounds SET state = ${w.p(JSON.stringify(step.state))}, actions = ${w.p(JSON.stringify(actions))}, total_stake = ${w.p(totalStake)},
                  total_payout = ${w.p(totalPayout)}, cursor = ${w.p(rng.cursor)}, last_action_at = now()
            WHERE id = ${w.p(r.id)}`,
        );
      }
      return announceRound(
        ctx,
        "act",
        answer(requestId, r.game, r.id, step, totalStake, totalPayout, balance, engine.view(step.state, step.done), r.seed, draws),
        r.params,
      );
    });
  }

  /**
   * Settles a round left without an action since before `idleBefore` by its game's documented default
   * action (or voids it with a refund when the engine has nothing to settle on), exactly once: under the
   * player's lock, and only if the round is still there and still idle. A player whose row is locked
   * (they are playing right now) is skipped: null, as for a round already settled.
   */
  settleAbandonedRound(playerId: string, roundId: string, idleBefore: Date): Promise<AbandonedSettlement | null> {
    return this.requests.settleLocked(playerId, "round_settled", (ctx) => {
      const r = ctx.round;
      if (!r || r.id !== roundId || new Date(r.lastActionAt) >= idleBefore) return null;
      const engine = requireEngine(r.game);
      const base = `#abandoned:${r.id}`;
      const before = ctx.player.balance;
      let voided = false;
      if (!r.seedActive) {
        voidRound(ctx, engine, r, base, false);
        voided = true;
      } else {
        let finish: ReturnType<typeof finishByDefault> | null = null;
        try {
          finish = finishByDefault(engine, r.state, floatStream(fairnessOf(r.seed), r.cursor), { rounding: r.rounding });
        } catch (error) {
          this.log.error(`default-action:${r.game}`, `default action of ${r.game} failed on round ${r.id}; voiding it`, error, {
            roundId: r.id,
          });
        }
        if (!finish || finish.voided) {
          voidRound(ctx, engine, r, base, false);
          voided = true;
        } else {
          const payout = finish.steps.reduce((sum, s) => sum + s.payout, 0);
          moveCoins(ctx, base, payout > 0 ? [{ delta: payout, reason: "payout", reference: r.game, account: houseAccount(r.game) }] : [], {
            seen: false,
          });
          const last = finish.steps[finish.steps.length - 1]!;
          const w = ctx.writes;
          w.add(`DELETE FROM open_rounds WHERE id = ${w.p(r.id)}`);
          postRound(w, r, r.totalStake);
          recordRound(w, {
            playerId,
            requestId: r.requestId,
            game: r.game,
            amount: r.amount,
            totalStake: r.totalStake,
            totalPayout: r.totalPayout + payout,
            seed: r.seed,
            params: r.params,
            actions: [...r.actions, ...finish.actions],
            outcome: engine.view(last.state, true),
            rounding: r.rounding,
          });
        }
      }
      return { playerId, roundId: r.id, game: r.game, balance: ctx.player.balance, credited: ctx.player.balance - before, voided };
    });
  }
}

/** The round's step is announced with the answer the player gets: the feeds, watchers and metrics hear it after COMMIT. */
function announceRound(ctx: MoneyContext, step: "bet" | "act", round: BetAnswer, params: unknown): BetAnswer {
  ctx.announced.push({ type: "round", playerId: ctx.player.id, step, round, params });
  return round;
}

/** A step's stake (to `stakeAccount`: the house, or the holding of a round that stays open) and its payout (from the house). */
const stepMovements = (step: Step<unknown>, game: string, stakeAccount: string): Movement[] => [
  ...(step.stake > 0 ? [{ delta: -step.stake, reason: "bet" as const, reference: game, account: stakeAccount }] : []),
  ...(step.payout > 0 ? [{ delta: step.payout, reason: "payout" as const, reference: game, account: houseAccount(game) }] : []),
];

/**
 * A multi-step round has ended: what its holding still has of its stakes (`held`: all of them, less a
 * refund paid back from it) is posted to the house. Its payouts were paid by the house.
 */
const postRound = (w: MoneyContext["writes"], r: OpenRoundRow, held: number): void =>
  postHolding(w, { from: holdingAccount(r.game), to: houseAccount(r.game), amount: held, round: `#round:${r.id}`, reference: r.game });

/**
 * Ends a round without continuing it: what the player still has staked in it (stakes less payouts so
 * far, never negative) comes back as a refund, and the round is recorded with `voided` in its outcome.
 */
function voidRound(ctx: MoneyContext, engine: AnyGameEngine, r: OpenRoundRow, base: string, seen: boolean): BetAnswer {
  const refund = Math.max(0, r.totalStake - r.totalPayout);
  const balance = moveCoins(
    ctx,
    base,
    refund > 0 ? [{ delta: refund, reason: "refund", reference: r.game, account: holdingAccount(r.game) }] : [],
    { seen },
  );
  const w = ctx.writes;
  w.add(`DELETE FROM open_rounds WHERE id = ${w.p(r.id)}`);
  postRound(w, r, r.totalStake - refund);
  const view = { ...(engine.view(r.state, true) as object), voided: true };
  recordRound(w, {
    playerId: ctx.player.id,
    requestId: r.requestId,
    game: r.game,
    amount: r.amount,
    totalStake: r.totalStake,
    totalPayout: r.totalPayout + refund,
    seed: r.seed,
    params: r.params,
    actions: r.actions,
    outcome: view,
    rounding: r.rounding,
  });
  const step: Step<unknown> = { state: r.state, stake: 0, payout: refund, done: true };
  return { ...answer(base, r.game, r.id, step, r.totalStake, r.totalPayout + refund, balance, view, r.seed), voided: true };
}

function answer(
  requestId: string,
  game: string,
  roundId: string | null,
  step: Step<unknown>,
  totalStake: number,
  totalPayout: number,
  balance: number,
  view: unknown,
  seed: SeedRow,
  /** the roundings this step drew (rule 2), to tell what its payout came to before them */
  draws: readonly RoundingDraw[] = [],
): BetAnswer {
  const unrounded = draws.reduce((sum, d) => sum + d.whole + Number(d.rest) / Number(d.denominator) - d.paid, step.payout);
  return {
    requestId,
    game,
    roundId,
    done: step.done,
    stake: step.stake,
    payout: step.payout,
    totalStake,
    totalPayout,
    result: step.done ? resultWord(totalStake, totalPayout) : null,
    balance,
    view,
    ...(draws.length > 0 ? { unroundedPayout: unrounded } : {}),
    fairness: { serverSeedHash: seed.serverSeedHash, clientSeed: seed.clientSeed, nonce: seed.nonce },
  };
}
