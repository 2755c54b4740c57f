import { sqlRows } from "../db/sql";
import { randomBytes } from "node:crypto";
import type { EntityManager } from "typeorm";
import {
  DAILY_SPIN_COOLDOWN_MS,
  STARTING_BALANCE,
  WHEEL_PRIZES,
  floatStream,
  pickIndex,
  resultWord,
  seedCommitment,
  startRound,
  actRound,
  requireEngine,
  payoutRatio,
  GameRuleError,
  type CrashBetAnswer,
  type CrashCashOutAnswer,
  type SkillRoundReward,
  type SkillScore,
  type FairnessInput,
  type Step,
  type BetAnswer,
  type SpinAnswer,
} from "@casino/common";

export type { BetAnswer, SpinAnswer };
import type { Database } from "../db/database";
import { Player } from "../db/entities/index";
import { AppError, conflict, insufficientFunds } from "../errors";

export type LedgerReason = "grant" | "bet" | "payout" | "refund" | "daily_spin" | "reward";

export interface NewPlayer {
  discordId: string;
  username: string;
  avatarUrl: string | null;
}

interface ActiveSeed {
  id: string;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

interface Movement {
  delta: number;
  reason: LedgerReason;
  reference: string | null;
}

export const newServerSeed = (): string => randomBytes(32).toString("hex");
export const newClientSeed = (): string => randomBytes(8).toString("hex");

/**
 * The only code that writes balances. Every movement is one transaction: a conditional debit, the
 * credit, the append-only ledger entries, the round records, and the request's answer for idempotency.
 */
export class Ledger {
  constructor(private readonly db: Database) {}

  /** A new player, their 1000-coin starting grant and their first seed pair, together. */
  createPlayer(fields: NewPlayer): Promise<Player> {
    return this.db.transaction(async (em) => {
      const [row] = await sqlRows(em, 
        `INSERT INTO players (discord_id, username, avatar_url, balance) VALUES ($1, $2, $3, $4) RETURNING id`,
        [fields.discordId, fields.username, fields.avatarUrl, STARTING_BALANCE],
      );
      const playerId = row.id as string;
      await this.appendEntries(em, playerId, "grant:starting", STARTING_BALANCE, [
        { delta: STARTING_BALANCE, reason: "grant", reference: "starting balance" },
      ]);
      await insertSeed(em, playerId, newClientSeed());
      return em.getRepository(Player).findOneByOrFail({ id: playerId });
    });
  }

  /** Places a bet: one step for single-step games, or the opening of a multi-step round. */
  placeBet(playerId: string, requestId: string, game: string, amount: number, params: unknown): Promise<BetAnswer> {
    return this.idempotent<BetAnswer>(playerId, requestId, async (em) => {
      const engine = requireEngine(game);
      if (engine.act) {
        const open = await sqlRows(em, `SELECT id FROM open_rounds WHERE player_id = $1`, [playerId]);
        if (open.length > 0) throw conflict("Finish your open round first", "round_open");
      }
      const seed = await claimNonce(em, playerId);
      const rng = floatStream(fairnessOf(seed));
      const step = startRound(engine, amount, params, rng);
      const balance = await this.settleStep(em, playerId, requestId, game, step);
      if (!step.done) {
        const [round] = await sqlRows(em, 
          `INSERT INTO open_rounds (player_id, game, request_id, amount, params, actions, state, total_stake, total_payout, seed_id, nonce, cursor)
           VALUES ($1, $2, $3, $4, $5, '[]', $6, $7, $8, $9, $10, $11) RETURNING id`,
          [playerId, game, requestId, amount, JSON.stringify(params ?? {}), JSON.stringify(step.state), step.stake, step.payout, seed.id, seed.nonce, rng.cursor],
        );
        return answer(requestId, game, round.id, step, step.stake, step.payout, balance, engine.view(step.state, false), seed);
      }
      await recordSession(em, playerId, requestId, game, step.stake, step.payout, seed, params, [], engine.view(step.state, true));
      return answer(requestId, game, null, step, step.stake, step.payout, balance, engine.view(step.state, true), seed);
    });
  }

  /** Acts in the player's open round, continuing its float stream where the last step stopped. */
  act(playerId: string, requestId: string, action: unknown): Promise<BetAnswer> {
    return this.idempotent<BetAnswer>(playerId, requestId, async (em) => {
      const rows = await sqlRows(em, 
        `SELECT r.*, s.server_seed, s.server_seed_hash, s.client_seed FROM open_rounds r JOIN fairness_seeds s ON s.id = r.seed_id
         WHERE r.player_id = $1 FOR UPDATE OF r`,
        [playerId],
      );
      if (rows.length === 0) throw new AppError("no_open_round", 409, "You have no open round");
      const r = rows[0];
      const engine = requireEngine(r.game);
      const seed: ActiveSeed = { id: r.seed_id, serverSeed: r.server_seed, serverSeedHash: r.server_seed_hash, clientSeed: r.client_seed, nonce: r.nonce };
      const rng = floatStream(fairnessOf(seed), r.cursor);
      const step = actRound(engine, r.state, action, rng);
      const balance = await this.settleStep(em, playerId, requestId, r.game, step);
      const totalStake = Number(r.total_stake) + step.stake;
      const totalPayout = Number(r.total_payout) + step.payout;
      const actions = [...(r.actions as unknown[]), action];
      if (step.done) {
        await sqlRows(em, `DELETE FROM open_rounds WHERE id = $1`, [r.id]);
        await recordSession(em, playerId, r.request_id, r.game, totalStake, totalPayout, seed, r.params, actions, engine.view(step.state, true));
      } else {
        await sqlRows(em, 
          `UPDATE open_rounds SET state = $2, actions = $3, total_stake = $4, total_payout = $5, cursor = $6 WHERE id = $1`,
          [r.id, JSON.stringify(step.state), JSON.stringify(actions), totalStake, totalPayout, rng.cursor],
        );
      }
      return answer(requestId, r.game, r.id, step, totalStake, totalPayout, balance, engine.view(step.state, step.done), seed);
    });
  }

  /**
   * The daily wheel: a conditional update claims the spin, so any number of concurrent requests pay
   * once per 24 hours. The segment is drawn from the player's provably-fair stream.
   */
  dailySpin(playerId: string, requestId: string, now = new Date()): Promise<SpinAnswer> {
    return this.idempotent<SpinAnswer>(playerId, requestId, async (em) => {
      const cutoff = new Date(now.getTime() - DAILY_SPIN_COOLDOWN_MS);
      const claimed = await sqlRows(em, 
        `UPDATE players SET last_daily_spin = $2 WHERE id = $1 AND (last_daily_spin IS NULL OR last_daily_spin <= $3) RETURNING id`,
        [playerId, now, cutoff],
      );
      if (claimed.length === 0) {
        const [p] = await sqlRows(em, `SELECT last_daily_spin FROM players WHERE id = $1`, [playerId]);
        const next = new Date(p.last_daily_spin).getTime() + DAILY_SPIN_COOLDOWN_MS;
        throw new AppError("already_spun", 429, "Already spun today", { nextSpinAt: new Date(next).toISOString(), msLeft: next - now.getTime() });
      }
      const seed = await claimNonce(em, playerId);
      const segment = pickIndex(floatStream(fairnessOf(seed)), WHEEL_PRIZES.length);
      const prize = WHEEL_PRIZES[segment]!;
      const balance = await this.credit(em, playerId, `${requestId}:spin`, prize, "daily_spin", `segment ${segment}`);
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

  /** Debits the step's stake (refused when the balance is short) and credits its payout, in one update. */
  private async settleStep(em: EntityManager, playerId: string, requestId: string, game: string, step: Step<unknown>): Promise<number> {
    const updated = await sqlRows(em, 
      `UPDATE players SET balance = balance - $2 + $3 WHERE id = $1 AND balance >= $2 RETURNING balance`,
      [playerId, step.stake, step.payout],
    );
    if (updated.length === 0) throw insufficientFunds();
    const balance = Number(updated[0].balance);
    const movements: Movement[] = [];
    if (step.stake > 0) movements.push({ delta: -step.stake, reason: "bet", reference: game });
    if (step.payout > 0) movements.push({ delta: step.payout, reason: "payout", reference: game });
    await this.appendEntries(em, playerId, requestId, balance, movements);
    return balance;
  }

  private async credit(em: EntityManager, playerId: string, requestId: string, amount: number, reason: LedgerReason, reference: string) {
    const [row] = await sqlRows(em, `UPDATE players SET balance = balance + $2 WHERE id = $1 RETURNING balance`, [playerId, amount]);
    const balance = Number(row.balance);
    await this.appendEntries(em, playerId, requestId, balance, [{ delta: amount, reason, reference }]);
    return balance;
  }

  /** Appends entries whose running balances end at `finalBalance`, in one statement; request ids get a suffix per reason. */
  private async appendEntries(em: EntityManager, playerId: string, requestId: string, finalBalance: number, movements: Movement[]) {
    if (movements.length === 0) return;
    let after = finalBalance - movements.reduce((sum, m) => sum + m.delta, 0);
    const values: unknown[] = [playerId];
    const tuples = movements.map((m, i) => {
      after += m.delta;
      values.push(m.delta, after, m.reason, m.reference, movements.length > 1 ? `${requestId}:${m.reason}` : requestId);
      const b = 2 + i * 5;
      return `($1, $${b}, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4})`;
    });
    await sqlRows(em, `INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id) VALUES ${tuples.join(", ")}`, values);
  }

  /**
   * Runs a movement once per (player, request id): a repeat, even a concurrent one, gets the first
   * answer and moves nothing, because the answer is stored in the same transaction as the movement.
   */
  private async idempotent<T>(playerId: string, requestId: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async (em) => {
        const result = await work(em);
        await sqlRows(em, `INSERT INTO processed_requests (player_id, request_id, response) VALUES ($1, $2, $3)`, [
          playerId,
          requestId,
          JSON.stringify(result),
        ]);
        return result;
      });
    } catch (error) {
      // A repeat of a request that already moved coins: whatever this attempt ran into (the answer's
      // primary key, or a balance the first attempt already spent), it gets the first answer.
      const stored = await this.storedAnswer<T>(playerId, requestId);
      if (stored !== undefined) return stored;
      if (isUniqueViolation(error)) throw conflict("Finish your open round first", "round_open");
      if (error instanceof GameRuleError) throw new AppError(error.code, 400, error.message);
      throw error;
    }
  }

  private async storedAnswer<T>(playerId: string, requestId: string): Promise<T | undefined> {
    const rows = await this.db.run((em) =>
      sqlRows(em, `SELECT response FROM processed_requests WHERE player_id = $1 AND request_id = $2`, [playerId, requestId]),
    );
    return rows.length > 0 ? (rows[0].response as T) : undefined;
  }

  // ── The shared crash room and the skill rounds ────────────────────────────────────────────────
  // Each method is one transaction that locks the player's row first and is idempotent by request id.
  // Request ids the server makes up for a player start with "server#", which a client's never can.

  /**
   * A bet in the shared crash room, debited now and settled later exactly once (cash-out, bust, or
   * the restart rule). The round's row is read FOR SHARE: the round cannot leave its betting phase
   * while this bet is being written, and a bet that waited for the phase change sees it and is refused.
   */
  placeCrashBet(playerId: string, requestId: string, bet: { roundId: string; amount: number; autoCashOut: number | null }): Promise<CrashBetAnswer> {
    return this.idempotent<CrashBetAnswer>(playerId, requestId, async (em) => {
      await lockPlayer(em, playerId);
      const [round] = await sqlRows(em, `SELECT phase, game_number FROM crash_rounds WHERE id = $1 FOR SHARE`, [bet.roundId]);
      if (round?.phase !== "betting") throw new AppError("betting_closed", 409, "Bets are closed for this round");
      const placed = await sqlRows(
        em,
        `INSERT INTO crash_bets (round_id, player_id, request_id, amount, auto_cash_out) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (round_id, player_id) DO NOTHING RETURNING id`,
        [bet.roundId, playerId, requestId, bet.amount, bet.autoCashOut],
      );
      if (placed.length === 0) throw conflict("You already have a bet in this round", "already_bet");
      const debited = await sqlRows(em, `UPDATE players SET balance = balance - $2 WHERE id = $1 AND balance >= $2 RETURNING balance`, [playerId, bet.amount]);
      if (debited.length === 0) throw insufficientFunds();
      const balance = Number(debited[0].balance);
      await this.appendEntries(em, playerId, requestId, balance, [{ delta: -bet.amount, reason: "bet", reference: CRASH_ROOM_REFERENCE }]);
      return { requestId, roundId: bet.roundId, gameNumber: Number(round.game_number), amount: bet.amount, autoCashOut: bet.autoCashOut, balance };
    });
  }

  /**
   * Cashes a bet out at `cashedOutAt` (hundredths). The guarded update is the last word: the bet must
   * still be in, its round running, and the multiplier at or below the round's crash point, so a bet
   * is paid at most once and never above the bust, whatever the clocks said.
   */
  cashOutCrashBet(playerId: string, requestId: string, c: { roundId: string; cashedOutAt: number; by: "player" | "auto" }): Promise<CrashCashOutAnswer> {
    return this.idempotent<CrashCashOutAnswer>(playerId, requestId, async (em) => {
      await lockPlayer(em, playerId);
      const [bet] = await sqlRows(em, `SELECT id, amount, auto_cash_out, request_id FROM crash_bets WHERE round_id = $1 AND player_id = $2`, [c.roundId, playerId]);
      if (!bet) throw new AppError("no_bet", 409, "You have no bet in this round");
      const amount = Number(bet.amount);
      const payout = payoutRatio(amount, c.cashedOutAt, 100);
      const settled = await sqlRows(
        em,
        `UPDATE crash_bets b SET status = 'cashed_out', cashed_out_at = $2, payout = $3, settled_by = $4, settled_at = now()
           FROM crash_rounds r
          WHERE b.id = $1 AND b.status = 'active' AND r.id = b.round_id AND r.phase = 'running' AND $2 BETWEEN 100 AND r.crash_point
          RETURNING r.game_number`,
        [bet.id, c.cashedOutAt, payout, c.by],
      );
      if (settled.length === 0) throw new AppError("cash_out_refused", 409, "Too late: this bet is no longer in a running round");
      const balance = await this.credit(em, playerId, requestId, payout, "payout", CRASH_ROOM_REFERENCE);
      const params = { roundId: c.roundId, gameNumber: Number(settled[0].game_number), autoCashOut: bet.auto_cash_out === null ? null : Number(bet.auto_cash_out) };
      await recordSession(em, playerId, bet.request_id, "crash", amount, payout, null, params, [{ cashOut: c.cashedOutAt, by: c.by }], { cashedOutAt: c.cashedOutAt });
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
    const [owner] = await this.db.run((em) => sqlRows(em, `SELECT player_id FROM crash_bets WHERE id = $1`, [betId]));
    if (!owner) return null;
    const playerId = owner.player_id as string;
    return this.idempotent<CrashCashOutAnswer | null>(playerId, `server#crash-restart:${betId}`, async (em) => {
      await lockPlayer(em, playerId);
      const [bet] = await sqlRows(
        em,
        `SELECT b.round_id, b.request_id, b.amount, b.auto_cash_out, b.status, r.phase, r.crash_point, r.game_number
           FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.id = $1 FOR UPDATE OF b`,
        [betId],
      );
      if (bet.status !== "active") return null;
      const amount = Number(bet.amount);
      const auto = bet.auto_cash_out === null ? null : Number(bet.auto_cash_out);
      const paid = bet.phase === "running" && auto !== null && auto <= Number(bet.crash_point);
      const payout = paid ? payoutRatio(amount, auto, 100) : amount;
      await sqlRows(
        em,
        `UPDATE crash_bets SET status = $2, cashed_out_at = $3, payout = $4, settled_by = 'restart', settled_at = now() WHERE id = $1`,
        [betId, paid ? "cashed_out" : "refunded", paid ? auto : null, payout],
      );
      const requestId = `server#crash-restart:${betId}`;
      const balance = await this.credit(em, playerId, requestId, payout, paid ? "payout" : "refund", CRASH_ROOM_REFERENCE);
      const params = { roundId: bet.round_id, gameNumber: Number(bet.game_number), autoCashOut: auto };
      await recordSession(em, playerId, bet.request_id, "crash", amount, payout, null, params, [], { restart: paid ? "auto cash-out paid" : "refunded", cashedOutAt: paid ? auto : null }, paid ? resultWord(amount, payout) : "push");
      return { requestId, roundId: bet.round_id, cashedOutAt: paid ? auto! : 100, amount, payout, balance };
    });
  }

  /**
   * Pays a replayed skill round: closes the round (only an open one: a round pays once), credits the
   * reward, writes the record row (the source of the Speed and Kills boards) and the game session.
   */
  rewardSkillRound(playerId: string, requestId: string, round: { roundId: string; score: SkillScore; reward: number; inputs: unknown }): Promise<SkillRoundReward> {
    return this.idempotent<SkillRoundReward>(playerId, requestId, async (em) => {
      await lockPlayer(em, playerId);
      const { score } = round;
      const kills = score.game === "dot-battle" ? score.kills : null;
      const completionMs = score.game === "dots" ? score.completionMs : null;
      const closed = await sqlRows(
        em,
        `UPDATE skill_rounds SET status = 'rewarded', submitted_at = now(), inputs = $3, kills = $4, completion_ms = $5, reward = $6
          WHERE id = $1 AND player_id = $2 AND game = $7 AND status = 'open' RETURNING id`,
        [round.roundId, playerId, JSON.stringify(round.inputs), kills, completionMs, round.reward, score.game],
      );
      if (closed.length === 0) throw conflict("This round has already been submitted", "round_closed");
      const balance =
        round.reward > 0
          ? await this.credit(em, playerId, requestId, round.reward, "reward", score.game)
          : Number((await sqlRows(em, `SELECT balance FROM players WHERE id = $1`, [playerId]))[0].balance);
      if (score.game === "dot-battle") {
        await sqlRows(em, `INSERT INTO dot_battle_scores (player_id, kills, round_id) VALUES ($1, $2, $3)`, [playerId, score.kills, round.roundId]);
      } else {
        await sqlRows(em, `INSERT INTO dots_speed_records (player_id, completion_time_ms, round_id) VALUES ($1, $2, $3)`, [playerId, score.completionMs, round.roundId]);
      }
      // The spec's results: Connect the Dots always wins (bet 0, payout = reward); Dot Battle wins or loses.
      const result = score.game === "dots" || round.reward > 0 ? "win" : "lose";
      await recordSession(em, playerId, requestId, score.game, 0, round.reward, null, { roundId: round.roundId }, [], score, result);
      return { requestId, roundId: round.roundId, game: score.game, kills, completionMs, reward: round.reward, balance };
    });
  }
}

/** The ledger reference of the shared crash room's entries (the single-player game's is "crash"). */
const CRASH_ROOM_REFERENCE = "crash-room";

/** Locks the player's row for the rest of the transaction: every movement of one player queues here. */
async function lockPlayer(em: EntityManager, playerId: string): Promise<void> {
  const rows = await sqlRows(em, `SELECT id FROM players WHERE id = $1 FOR UPDATE`, [playerId]);
  if (rows.length === 0) throw new AppError("not_found", 404, "Player not found");
}

function fairnessOf(seed: ActiveSeed): FairnessInput {
  return { serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce: seed.nonce };
}

/** Takes the next nonce of the player's active seed in the bet's own transaction. */
async function claimNonce(em: EntityManager, playerId: string): Promise<ActiveSeed> {
  const rows = await sqlRows(em, 
    `UPDATE fairness_seeds SET nonce = nonce + 1 WHERE player_id = $1 AND active
     RETURNING id, server_seed, server_seed_hash, client_seed, nonce - 1 AS nonce`,
    [playerId],
  );
  if (rows.length === 0) throw new AppError("no_seed", 500, "No active seed for this player");
  const r = rows[0];
  return { id: r.id, serverSeed: r.server_seed, serverSeedHash: r.server_seed_hash, clientSeed: r.client_seed, nonce: Number(r.nonce) };
}

export async function insertSeed(em: EntityManager, playerId: string, clientSeed: string): Promise<void> {
  const serverSeed = newServerSeed();
  await sqlRows(em, 
    `INSERT INTO fairness_seeds (player_id, server_seed, server_seed_hash, client_seed) VALUES ($1, $2, $3, $4)`,
    [playerId, serverSeed, seedCommitment(serverSeed), clientSeed],
  );
}

async function recordSession(
  em: EntityManager,
  playerId: string,
  requestId: string,
  game: string,
  totalStake: number,
  totalPayout: number,
  seed: ActiveSeed | null,
  params: unknown,
  actions: unknown[],
  outcome: unknown,
  result = resultWord(totalStake, totalPayout),
) {
  // The session and the play count in one statement: one round trip fewer on the hot path.
  await sqlRows(
    em,
    `WITH session AS (
       INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout, request_id, seed_id, nonce, params, actions, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING player_id
     )
     INSERT INTO game_plays (player_id, game_type) SELECT player_id, $2 FROM session`,
    [playerId, game, totalStake, result, totalPayout, requestId, seed?.id ?? null, seed?.nonce ?? null, JSON.stringify(params ?? {}), JSON.stringify(actions), JSON.stringify(outcome)],
  );
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
  seed: ActiveSeed,
): BetAnswer {
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
    fairness: { serverSeedHash: seed.serverSeedHash, clientSeed: seed.clientSeed, nonce: seed.nonce },
  };
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } } | null;
  return e?.code === "23505" || e?.driverError?.code === "23505";
}
