import { randomUUID } from "node:crypto";
import {
  DAILY_SPIN_COOLDOWN_MS,
  STARTING_BALANCE,
  floatStream,
  spinWheel,
  resultWord,
  startRound,
  actRound,
  finishByDefault,
  requireEngine,
  LIVE_PLAY,
  crashCashOutPayout,
  isRoundingRule,
  LEGACY_ROUNDING,
  type RoundingDraw,
  type RoundingRule,
  type AnyGameEngine,
  type CrashBetAnswer,
  type CrashCashOutAnswer,
  type SkillRoundReward,
  type SkillScore,
  type FairnessInput,
  type Step,
  type BetAnswer,
  type SpinAnswer,
  type RotateAnswer,
} from "@casino/common";
import type { Row } from "../db/rows";
import { sqlRows } from "../db/sql";
import type { EntityManager } from "typeorm";
import type { Database } from "../db/database";
import { Player } from "../db/entities/index";
import { AppError, conflict, insufficientFunds } from "../errors";
import type { Log } from "../log";
import { insertFirstSeeds, newClientSeed } from "../fairness/seeds";
import { WriteBatch } from "./writes";
import { SeedRotation } from "./seed-rotation";
import type { LedgerReason } from "./types";
import {
  MoneyRequests,
  ledgerEntryId,
  lockPlayer,
  readPlayerMoney,
  type MoneyContext,
  type OpenRoundRow,
  type Replayable,
  type SeedRow,
} from "./requests";

export type { BetAnswer, SpinAnswer };

export type { LedgerReason };

/** Told after a transaction that moved coins has committed. */
export type CommitListener = () => void;

export interface NewPlayer {
  discordId: string;
  username: string;
  avatarUrl: string | null;
}

interface Movement {
  delta: number;
  reason: LedgerReason;
  reference: string | null;
  /** The seed pair and nonce an outcome paid by this entry was drawn from (daily spins: their history row). */
  drawnFrom?: { seedId: string; nonce: number };
}

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
 * The only code that writes balances. Every movement runs in a transaction that locks the player's row
 * first (ledger/requests.ts: money requests that arrive together share one, each under its own
 * savepoint), then checks, then writes the balance, the append-only ledger entries, the round records
 * and the request's answer together.
 */
export class Ledger {
  private readonly requests: MoneyRequests;
  private readonly seedRotation: SeedRotation;
  private readonly commitListeners = new Set<CommitListener>();

  constructor(
    private readonly db: Database,
    private readonly log: Pick<Log, "error">,
  ) {
    this.requests = new MoneyRequests(db, () => this.tellCommitted());
    this.seedRotation = new SeedRotation(db);
  }

  /**
   * Reveals the player's active server seed and pairs the committed next one with `clientSeed` (the
   * player's, or else the current one), as a money request (see SeedRotation).
   */
  rotateSeeds(
    playerId: string,
    requestId: string,
    clientSeed: string | undefined,
    kind: "rotate" | "client-seed" = "rotate",
  ): Promise<Replayable<RotateAnswer>> {
    return this.seedRotation.rotate(playerId, requestId, clientSeed, kind);
  }

  /**
   * Calls `listener` after each committed transaction that moved coins (never for a rolled-back one or
   * a repeated request). A listener is a hint to look at the ledger again (its consumers read
   * `ledger_entries` themselves), so it must not throw or block.
   */
  onCommitted(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** A transaction outside the money-request path whose commit the listeners are told of. */
  private async toldTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.tellCommitted();
    return result;
  }

  private tellCommitted(): void {
    for (const listener of this.commitListeners) {
      try {
        listener();
      } catch (error) {
        this.log.error("commit-listener", "commit listener failed", error);
      }
    }
  }

  /** A new player, their 1000-coin starting grant and their seeds (active pair and committed next seed), together. */
  createPlayer(fields: NewPlayer): Promise<Player> {
    return this.toldTransaction(async (em) => {
      const [row] = await sqlRows<Row<"players", "id">>(
        em,
        `INSERT INTO players (discord_id, username, avatar_url, balance) VALUES ($1, $2, $3, $4) RETURNING id`,
        [fields.discordId, fields.username, fields.avatarUrl, STARTING_BALANCE],
      );
      const playerId = row.id as string;
      await sqlRows(
        em,
        `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id) VALUES ($1, $2, $2, 'grant', 'starting balance', $3)`,
        [playerId, STARTING_BALANCE, ledgerEntryId("#starting", "grant")],
      );
      await insertFirstSeeds(em, playerId, newClientSeed());
      return em.getRepository(Player).findOneByOrFail({ id: playerId });
    });
  }

  /** Places a bet: one step for single-step games, or the opening of a multi-step round. */
  placeBet(playerId: string, requestId: string, game: string, amount: number, params: unknown): Promise<Replayable<BetAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "bet", body: { game, amount, params: params ?? {} } }, async (ctx) => {
      const engine = requireEngine(game);
      if (engine.act && ctx.round) throw conflict("Finish your open round first", "round_open");
      const seed = ctx.seed;
      const rng = floatStream(fairnessOf(seed));
      const draws: RoundingDraw[] = [];
      const step = startRound(engine, amount, params, rng, { ...LIVE_PLAY, onRounding: (d) => draws.push(d) });
      const balance = moveCoins(ctx, requestId, stepMovements(step, game), { seedId: seed.id });
      const w = ctx.writes;
      if (!step.done) {
        const roundId = randomUUID();
        w.add(
          `INSERT INTO open_rounds (id, player_id, game, request_id, amount, params, actions, state, total_stake, total_payout, seed_id, nonce, cursor, rounding)
           VALUES (${w.p(roundId)}, ${w.p(playerId)}, ${w.p(game)}, ${w.p(requestId)}, ${w.p(amount)}, ${w.p(JSON.stringify(params ?? {}))}, '[]',
                   ${w.p(JSON.stringify(step.state))}, ${w.p(step.stake)}, ${w.p(step.payout)}, ${w.p(seed.id)}, ${w.p(seed.nonce)}, ${w.p(rng.cursor)}, ${w.p(LIVE_PLAY.rounding)})`,
        );
        return answer(requestId, game, roundId, step, step.stake, step.payout, balance, engine.view(step.state, false), seed, draws);
      }
      recordSession(
        w,
        playerId,
        requestId,
        game,
        amount,
        step.stake,
        step.payout,
        seed,
        params,
        [],
        engine.view(step.state, true),
        LIVE_PLAY.rounding,
      );
      return answer(requestId, game, null, step, step.stake, step.payout, balance, engine.view(step.state, true), seed, draws);
    });
  }

  /**
   * Acts in the player's open round, continuing its float stream where the last step stopped. A round
   * whose server seed is no longer the active one (revealed: its future is known) is never continued:
   * it is voided and what it holds of the stake is refunded.
   */
  act(playerId: string, requestId: string, action: unknown): Promise<Replayable<BetAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "act", body: { action: action ?? null } }, async (ctx) => {
      const r = ctx.round;
      if (!r) throw new AppError("no_open_round", 409, "You have no open round");
      const engine = requireEngine(r.game);
      if (!r.seedActive) return voidRound(ctx, engine, r, requestId, true);
      const rng = floatStream(fairnessOf(r.seed), r.cursor);
      // the round keeps the rounding rule it was opened under
      const draws: RoundingDraw[] = [];
      const step = actRound(engine, r.state, action, rng, { rounding: r.rounding, onRounding: (d) => draws.push(d) });
      const balance = moveCoins(ctx, requestId, stepMovements(step, r.game));
      const totalStake = r.totalStake + step.stake;
      const totalPayout = r.totalPayout + step.payout;
      const actions = [...r.actions, action];
      const w = ctx.writes;
      if (step.done) {
        w.add(`DELETE FROM open_rounds WHERE id = ${w.p(r.id)}`);
        recordSession(
          w,
          playerId,
          r.requestId,
          r.game,
          r.amount,
          totalStake,
          totalPayout,
          r.seed,
          r.params,
          actions,
          engine.view(step.state, true),
          r.rounding,
        );
      } else {
        w.add(
          `UPDATE open_rounds SET state = ${w.p(JSON.stringify(step.state))}, actions = ${w.p(JSON.stringify(actions))}, total_stake = ${w.p(totalStake)},
                  total_payout = ${w.p(totalPayout)}, cursor = ${w.p(rng.cursor)}, last_action_at = now()
            WHERE id = ${w.p(r.id)}`,
        );
      }
      return answer(requestId, r.game, r.id, step, totalStake, totalPayout, balance, engine.view(step.state, step.done), r.seed, draws);
    });
  }

  /** The daily wheel, once per 24 hours (checked under the player's lock); the segment comes from the player's stream. */
  dailySpin(playerId: string, requestId: string, now = new Date()): Promise<Replayable<SpinAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "spin", body: {} }, async (ctx) => {
      const last = ctx.player.lastDailySpin;
      if (last && now.getTime() - last.getTime() < DAILY_SPIN_COOLDOWN_MS) {
        const next = last.getTime() + DAILY_SPIN_COOLDOWN_MS;
        throw new AppError("already_spun", 429, "Already spun today", {
          nextSpinAt: new Date(next).toISOString(),
          msLeft: next - now.getTime(),
        });
      }
      const seed = ctx.seed;
      const { segment, prize } = spinWheel(floatStream(fairnessOf(seed)));
      const movement: Movement = {
        delta: prize,
        reason: "daily_spin",
        reference: `segment ${segment}`,
        drawnFrom: { seedId: seed.id, nonce: seed.nonce },
      };
      const balance = moveCoins(ctx, requestId, [movement], { seedId: seed.id, set: (w) => `last_daily_spin = ${w.p(now)}` });
      return {
        requestId,
        prize,
        segment,
        balance,
        lastDailySpin: now.toISOString(),
        fairness: { serverSeedHash: seed.serverSeedHash, clientSeed: seed.clientSeed, nonce: seed.nonce },
      };
    });
  }

  /**
   * Settles a round left without an action since before `idleBefore` by its game's documented default
   * action (or voids it with a refund when the engine has nothing to settle on), exactly once: under the
   * player's lock, and only if the round is still there and still idle. A player whose row is locked
   * (they are playing right now) is skipped: null, as for a round already settled.
   */
  settleAbandonedRound(playerId: string, roundId: string, idleBefore: Date): Promise<AbandonedSettlement | null> {
    return this.toldTransaction(async (em) => {
      const player = await lockPlayer(em, playerId, true);
      if (!player) return null;
      const { stored: _none, ...state } = await readPlayerMoney(em, playerId, null);
      const r = state.round;
      if (!r || r.id !== roundId || new Date(r.lastActionAt) >= idleBefore) return null;
      const ctx: MoneyContext = { player, ...state, writes: new WriteBatch(), em };
      const engine = requireEngine(r.game);
      const base = `#abandoned:${r.id}`;
      const before = player.balance;
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
          moveCoins(ctx, base, payout > 0 ? [{ delta: payout, reason: "payout", reference: r.game }] : [], { seen: false });
          const last = finish.steps[finish.steps.length - 1]!;
          const w = ctx.writes;
          w.add(`DELETE FROM open_rounds WHERE id = ${w.p(r.id)}`);
          const actions = [...r.actions, ...finish.actions];
          recordSession(
            w,
            playerId,
            r.requestId,
            r.game,
            r.amount,
            r.totalStake,
            r.totalPayout + payout,
            r.seed,
            r.params,
            actions,
            engine.view(last.state, true),
            r.rounding,
          );
        }
      }
      await ctx.writes.run(em);
      return { playerId, roundId: r.id, game: r.game, balance: ctx.player.balance, credited: ctx.player.balance - before, voided };
    });
  }

  // ── The shared crash room and the skill rounds ────────────────────────────────────────────────
  // Each is one money request (player row locked first, idempotent by request id and kind). Request
  // ids the server makes up for a player start with '#', which a client's never can.

  /**
   * A bet in the shared crash room, debited now and settled later exactly once (cash-out, bust, or
   * the restart rule). The round's row is read FOR SHARE: the round cannot leave its betting phase
   * while this bet is being written, and a bet that waited for the phase change sees it and is refused.
   */
  placeCrashBet(
    playerId: string,
    requestId: string,
    bet: { roundId: string; amount: number; autoCashOut: number | null },
  ): Promise<Replayable<CrashBetAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "crash-bet", body: bet }, async (ctx) => {
      const [round] = await sqlRows<Row<"crash_rounds", "phase" | "game_number">>(
        ctx.em,
        `SELECT phase, game_number FROM crash_rounds WHERE id = $1 FOR SHARE`,
        [bet.roundId],
      );
      if (round?.phase !== "betting") throw new AppError("betting_closed", 409, "Bets are closed for this round");
      if (ctx.player.balance < bet.amount) throw insufficientFunds();
      const placed = await sqlRows(
        ctx.em,
        `INSERT INTO crash_bets (round_id, player_id, request_id, amount, auto_cash_out) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (round_id, player_id) DO NOTHING RETURNING id`,
        [bet.roundId, playerId, requestId, bet.amount, bet.autoCashOut],
      );
      if (placed.length === 0) throw conflict("You already have a bet in this round", "already_bet");
      const balance = moveCoins(ctx, requestId, [{ delta: -bet.amount, reason: "bet", reference: CRASH_ROOM_REFERENCE }]);
      return {
        requestId,
        roundId: bet.roundId,
        gameNumber: Number(round.game_number),
        amount: bet.amount,
        autoCashOut: bet.autoCashOut,
        balance,
      };
    });
  }

  /**
   * Cashes a bet out at `cashedOutAt` (hundredths). The guarded update is the last word: the bet must
   * still be in, its round running, and the multiplier at or below the round's crash point, so a bet
   * is paid at most once and never above the bust, whatever the clocks said.
   */
  cashOutCrashBet(
    playerId: string,
    requestId: string,
    c: { roundId: string; cashedOutAt: number; by: "player" | "auto" },
  ): Promise<Replayable<CrashCashOutAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "crash-cashout", body: c }, async (ctx) => {
      const [bet] = await sqlRows<
        Row<"crash_bets", "id" | "amount" | "auto_cash_out" | "request_id"> & Row<"crash_rounds", "game_hash" | "rounding">
      >(
        ctx.em,
        `SELECT b.id, b.amount, b.auto_cash_out, b.request_id, r.game_hash, r.rounding
           FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.round_id = $1 AND b.player_id = $2`,
        [c.roundId, playerId],
      );
      if (!bet) throw new AppError("no_bet", 409, "You have no bet in this round");
      const amount = Number(bet.amount);
      const rounding = crashRoomRounding(bet.rounding);
      const { payout } = crashCashOutPayout(rounding, { gameHash: bet.game_hash, playerId, amount, cashedOutAt: c.cashedOutAt });
      const settled = await sqlRows<Row<"crash_rounds", "game_number">>(
        ctx.em,
        `UPDATE crash_bets b SET status = 'cashed_out', cashed_out_at = $2, payout = $3, settled_by = $4, settled_at = now()
           FROM crash_rounds r
          WHERE b.id = $1 AND b.status = 'active' AND r.id = b.round_id AND r.phase = 'running' AND $2 BETWEEN 100 AND r.crash_point
          RETURNING r.game_number`,
        [bet.id, c.cashedOutAt, payout, c.by],
      );
      if (settled.length === 0) throw new AppError("cash_out_refused", 409, "Too late: this bet is no longer in a running round");
      const balance = moveCoins(ctx, requestId, [{ delta: payout, reason: "payout", reference: CRASH_ROOM_REFERENCE }]);
      const params = {
        roundId: c.roundId,
        gameNumber: Number(settled[0].game_number),
        autoCashOut: bet.auto_cash_out === null ? null : Number(bet.auto_cash_out),
      };
      recordSession(
        ctx.writes,
        playerId,
        bet.request_id,
        "crash",
        amount,
        amount,
        payout,
        null,
        params,
        [{ cashOut: c.cashedOutAt, by: c.by }],
        { cashedOutAt: c.cashedOutAt },
        rounding,
      );
      return { requestId, roundId: c.roundId, cashedOutAt: c.cashedOutAt, amount, payout, balance };
    });
  }

  /**
   * The restart rule for a bet whose round was cut short (docs/crash-chain.md): in a round still taking
   * bets, the bet is refunded; in a running round, a bet whose automatic cash-out is at or below the
   * round's crash point is paid at that target (it would have cashed out whatever happened next), and
   * any other bet still in is refunded. A bet already settled is left as it is (null).
   */
  async settleInterruptedCrashBet(betId: string): Promise<CrashCashOutAnswer | null> {
    const [owner] = await this.db.run((em) =>
      sqlRows<Row<"crash_bets", "player_id">>(em, `SELECT player_id FROM crash_bets WHERE id = $1`, [betId]),
    );
    if (!owner) return null;
    const playerId = owner.player_id;
    const requestId = `#crash-restart:${betId}`;
    const settled = await this.requests.run({ playerId, requestId, kind: "crash-settle", body: { betId } }, async (ctx) => {
      const [bet] = await sqlRows<
        Row<"crash_bets", "round_id" | "request_id" | "amount" | "auto_cash_out" | "status"> &
          Row<"crash_rounds", "phase" | "crash_point" | "game_number" | "game_hash" | "rounding">
      >(
        ctx.em,
        `SELECT b.round_id, b.request_id, b.amount, b.auto_cash_out, b.status, r.phase, r.crash_point, r.game_number, r.game_hash, r.rounding
           FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.id = $1 FOR UPDATE OF b`,
        [betId],
      );
      if (bet.status !== "active") return { settled: null };
      const amount = Number(bet.amount);
      const auto = bet.auto_cash_out === null ? null : Number(bet.auto_cash_out);
      const paid = bet.phase === "running" && auto !== null && auto <= Number(bet.crash_point);
      const rounding = crashRoomRounding(bet.rounding);
      const payout = paid ? crashCashOutPayout(rounding, { gameHash: bet.game_hash, playerId, amount, cashedOutAt: auto }).payout : amount;
      await sqlRows(
        ctx.em,
        `UPDATE crash_bets SET status = $2, cashed_out_at = $3, payout = $4, settled_by = 'restart', settled_at = now() WHERE id = $1`,
        [betId, paid ? "cashed_out" : "refunded", paid ? auto : null, payout],
      );
      const balance = moveCoins(ctx, requestId, [{ delta: payout, reason: paid ? "payout" : "refund", reference: CRASH_ROOM_REFERENCE }], {
        seen: false,
      });
      const params = { roundId: bet.round_id, gameNumber: Number(bet.game_number), autoCashOut: auto };
      const outcome = { restart: paid ? "auto cash-out paid" : "refunded", cashedOutAt: paid ? auto : null };
      recordSession(
        ctx.writes,
        playerId,
        bet.request_id,
        "crash",
        amount,
        amount,
        payout,
        null,
        params,
        [],
        outcome,
        rounding,
        paid ? resultWord(amount, payout) : "push",
      );
      return { settled: { requestId, roundId: bet.round_id as string, cashedOutAt: paid ? auto! : 100, amount, payout, balance } };
    });
    return settled.settled;
  }

  /**
   * Pays a replayed skill round: closes the round (only an open one: a round pays once), credits the
   * reward, writes the record row (the source of the Speed and Kills boards) and the game session.
   */
  rewardSkillRound(
    playerId: string,
    requestId: string,
    round: { roundId: string; score: SkillScore; reward: number; inputs: unknown },
  ): Promise<Replayable<SkillRoundReward>> {
    return this.requests.run(
      { playerId, requestId, kind: "skill-reward", body: { roundId: round.roundId, score: round.score } },
      async (ctx) => {
        const { score } = round;
        const kills = score.game === "dot-battle" ? score.kills : null;
        const completionMs = score.game === "dots" ? score.completionMs : null;
        const closed = await sqlRows(
          ctx.em,
          `UPDATE skill_rounds SET status = 'rewarded', submitted_at = now(), inputs = $3, kills = $4, completion_ms = $5, reward = $6
          WHERE id = $1 AND player_id = $2 AND game = $7 AND status = 'open' RETURNING id`,
          [round.roundId, playerId, JSON.stringify(round.inputs), kills, completionMs, round.reward, score.game],
        );
        if (closed.length === 0) throw conflict("This round has already been submitted", "round_closed");
        const balance = moveCoins(
          ctx,
          requestId,
          round.reward > 0 ? [{ delta: round.reward, reason: "reward", reference: score.game }] : [],
        );
        const w = ctx.writes;
        if (score.game === "dot-battle") {
          w.add(
            `INSERT INTO dot_battle_scores (player_id, kills, round_id) VALUES (${w.p(playerId)}, ${w.p(score.kills)}, ${w.p(round.roundId)})`,
          );
        } else {
          w.add(
            `INSERT INTO dots_speed_records (player_id, completion_time_ms, round_id) VALUES (${w.p(playerId)}, ${w.p(score.completionMs)}, ${w.p(round.roundId)})`,
          );
        }
        // The spec's results: Connect the Dots always wins (bet 0, payout = reward); Dot Battle wins or loses.
        const result = score.game === "dots" || round.reward > 0 ? "win" : "lose";
        recordSession(
          w,
          playerId,
          requestId,
          score.game,
          0,
          0,
          round.reward,
          null,
          { roundId: round.roundId },
          [],
          score,
          LEGACY_ROUNDING,
          result,
        );
        return { requestId, roundId: round.roundId, game: score.game, kills, completionMs, reward: round.reward, balance };
      },
    );
  }
}

/** The ledger reference of the shared crash room's entries (the single-player game's is "crash"). */
const CRASH_ROOM_REFERENCE = "crash-room";
/**
 * The rule a shared crash room round's cash-outs are paid under, as the round recorded it (rule 2 rounds
 * from the bet's stream keyed by the game hash: crashCashOutPayout); rounds stored before rules were: 1.
 */
const crashRoomRounding = (value: unknown): RoundingRule => {
  const rule = Number(value);
  return isRoundingRule(rule) ? rule : LEGACY_ROUNDING;
};

function fairnessOf(seed: SeedRow): FairnessInput {
  return { serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce: seed.nonce };
}

const stepMovements = (step: Step<unknown>, game: string): Movement[] => [
  ...(step.stake > 0 ? [{ delta: -step.stake, reason: "bet" as const, reference: game }] : []),
  ...(step.payout > 0 ? [{ delta: step.payout, reason: "payout" as const, reference: game }] : []),
];

interface MoveOptions {
  /** The seed whose nonce this request used: advanced in the same statement. */
  seedId?: string;
  /** More `column = value` of the player's row. */
  set?: (w: WriteBatch) => string;
  /** False for work the server does on its own (the player was not seen). */
  seen?: boolean;
}

/**
 * Queues the player's balance update and the ledger entries of `movements` (ids `<base>#<reason>`),
 * refusing a debit the locked balance cannot cover. Answers the new balance (also kept in the context).
 */
function moveCoins(ctx: MoneyContext, base: string, movements: Movement[], options: MoveOptions = {}): number {
  const w = ctx.writes;
  const net = movements.reduce((sum, m) => sum + m.delta, 0);
  const debits = movements.filter((m) => m.delta < 0).reduce((sum, m) => sum - m.delta, 0);
  if (ctx.player.balance < debits) throw insufficientFunds();
  if (options.seedId) w.nonce(options.seedId);
  w.move(ctx.player.id, net, options.seen !== false);
  if (options.set) w.add(`UPDATE players SET ${options.set(w)} WHERE id = ${w.p(ctx.player.id)}`);
  let after = ctx.player.balance;
  for (const m of movements) {
    after += m.delta;
    w.entry({
      playerId: ctx.player.id,
      delta: m.delta,
      balanceAfter: after,
      reason: m.reason,
      reference: m.reference,
      requestId: ledgerEntryId(base, m.reason),
      seedId: m.drawnFrom?.seedId ?? null,
      nonce: m.drawnFrom?.nonce ?? null,
    });
  }
  ctx.player.balance += net;
  return ctx.player.balance;
}

/**
 * Ends a round without continuing it: what the player still has staked in it (stakes less payouts so
 * far, never negative) comes back as a refund, and the round is recorded with `voided` in its outcome.
 */
function voidRound(ctx: MoneyContext, engine: AnyGameEngine, r: OpenRoundRow, base: string, seen: boolean): BetAnswer {
  const refund = Math.max(0, r.totalStake - r.totalPayout);
  const balance = moveCoins(ctx, base, refund > 0 ? [{ delta: refund, reason: "refund", reference: r.game }] : [], { seen });
  const w = ctx.writes;
  w.add(`DELETE FROM open_rounds WHERE id = ${w.p(r.id)}`);
  const view = { ...(engine.view(r.state, true) as object), voided: true };
  recordSession(
    w,
    ctx.player.id,
    r.requestId,
    r.game,
    r.amount,
    r.totalStake,
    r.totalPayout + refund,
    r.seed,
    r.params,
    r.actions,
    view,
    r.rounding,
  );
  const step: Step<unknown> = { state: r.state, stake: 0, payout: refund, done: true };
  return { ...answer(base, r.game, r.id, step, r.totalStake, r.totalPayout + refund, balance, view, r.seed), voided: true };
}

function recordSession(
  w: WriteBatch,
  playerId: string,
  requestId: string,
  game: string,
  /** the opening bet (before any double, split, raise or chip added later) */
  amount: number,
  totalStake: number,
  totalPayout: number,
  seed: SeedRow | null,
  params: unknown,
  actions: unknown[],
  outcome: unknown,
  /** the payout rounding rule the round was played under */
  rounding: RoundingRule,
  result = resultWord(totalStake, totalPayout),
): void {
  w.session({
    playerId,
    gameType: game,
    amount,
    betAmount: totalStake,
    result,
    payout: totalPayout,
    requestId,
    seedId: seed?.id ?? null,
    nonce: seed?.nonce ?? null,
    params: JSON.stringify(params ?? {}),
    actions: JSON.stringify(actions),
    outcome: JSON.stringify(outcome),
    rounding,
  });
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
