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
  GameRuleError,
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

/** One movement of a committed transaction, as told to commit listeners. */
export interface CommittedMovement {
  playerId: string;
  /** The player's balance right after this movement. */
  balance: number;
  delta: number;
  reason: LedgerReason;
  /** The game of a bet or payout. */
  game: string | null;
}
export type CommitListener = (movements: CommittedMovement[]) => void;

export const newServerSeed = (): string => randomBytes(32).toString("hex");
export const newClientSeed = (): string => randomBytes(8).toString("hex");

/**
 * The only code that writes balances. Every movement is one transaction: a conditional debit, the
 * credit, the append-only ledger entries, the round records, and the request's answer for idempotency.
 */
export class Ledger {
  private readonly commitListeners = new Set<CommitListener>();
  private readonly uncommitted = new WeakMap<EntityManager, CommittedMovement[]>();

  constructor(private readonly db: Database) {}

  /**
   * Calls `listener` after each committed transaction that moved coins (never for a rolled-back one or
   * a repeated request). Listeners must not throw or block; they are hints, not the system of record.
   */
  onCommitted(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** A new player, their 1000-coin starting grant and their first seed pair, together. */
  createPlayer(fields: NewPlayer): Promise<Player> {
    return this.tracked(async (em) => {
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
    let running = finalBalance - movements.reduce((sum, m) => sum + m.delta, 0);
    this.uncommitted.get(em)?.push(
      ...movements.map((m) => ({
        playerId,
        balance: (running += m.delta),
        delta: m.delta,
        reason: m.reason,
        game: m.reason === "bet" || m.reason === "payout" ? m.reference : null,
      })),
    );
  }

  /** One transaction whose movements are told to the commit listeners once it has committed. */
  private async tracked<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const moved: CommittedMovement[] = [];
    const result = await this.db.transaction((em) => {
      this.uncommitted.set(em, moved);
      return work(em);
    });
    if (moved.length > 0) {
      for (const listener of this.commitListeners) {
        try {
          listener(moved);
        } catch (error) {
          console.error("commit listener failed", error);
        }
      }
    }
    return result;
  }

  /**
   * Runs a movement once per (player, request id): a repeat, even a concurrent one, gets the first
   * answer and moves nothing, because the answer is stored in the same transaction as the movement.
   */
  private async idempotent<T>(playerId: string, requestId: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.tracked(async (em) => {
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
  seed: ActiveSeed,
  params: unknown,
  actions: unknown[],
  outcome: unknown,
) {
  // The session and the play count in one statement: one round trip fewer on the hot path.
  await sqlRows(
    em,
    `WITH session AS (
       INSERT INTO game_sessions (player_id, game_type, bet_amount, result, payout, request_id, seed_id, nonce, params, actions, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING player_id
     )
     INSERT INTO game_plays (player_id, game_type) SELECT player_id, $2 FROM session`,
    [playerId, game, totalStake, resultWord(totalStake, totalPayout), totalPayout, requestId, seed.id, seed.nonce, JSON.stringify(params ?? {}), JSON.stringify(actions), JSON.stringify(outcome)],
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
