import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { EntityManager } from "typeorm";
import { GameRuleError } from "@casino/common";
import type { Row } from "../db/rows";
import { sqlRows } from "../db/sql";
import { constraintOf, isConnectFailure, isConnectionTrouble, sqlState, type Database } from "../db/database";
import { AppError, accountArchived, conflict, notFound, outcomeUnknown, requestIdReused } from "../errors";

/**
 * How every request that moves coins or changes seeds runs, whoever sends it (room or REST):
 *
 * 1. One transaction that first locks the player's row (`SELECT … FROM players WHERE id = $1 FOR UPDATE`).
 *    Every such transaction takes that lock first, so one player's money work is serialised across
 *    connections and processes, and no two of them can deadlock on each other.
 * 2. Under the lock: read the stored answer of this request id, the active seed, the next seed's hash
 *    and the open round, in one statement. A stored answer of the same kind and fingerprint is replayed
 *    (flagged `replayed`, moving nothing); one of another kind or fingerprint is a 409.
 * 3. Check, compute, then write everything (nonce, balance, ledger entries, round records and the
 *    answer under its request id) in one statement, and commit.
 */

export type RequestKind = "bet" | "act" | "spin" | "rotate" | "client-seed" | "crash-bet" | "crash-cashout" | "crash-settle" | "skill-reward";

export interface MoneyRequest {
  playerId: string;
  requestId: string;
  kind: RequestKind;
  /** The request's meaningful contents (everything but its id), fingerprinted. */
  body: unknown;
}

/** SHA-256 of the RFC 8785 canonical JSON of the request's kind and contents. */
export function fingerprintOf(kind: RequestKind, body: unknown): string {
  return createHash("sha256")
    .update(canonicalize({ kind, body: body ?? null }) ?? "")
    .digest("hex");
}

/**
 * The id of a ledger entry made by a request: `<request id>#<reason>`. '#' is outside the request-id
 * alphabet (common/protocol.ts), so no client request id ever equals a derived id; entries the server
 * makes on its own (grants, settling abandoned rounds) start with '#'.
 */
export const ledgerEntryId = (base: string, reason: string): string => `${base}#${reason}`;

/** The player's row, locked for the rest of the transaction. */
export interface LockedPlayer {
  id: string;
  balance: number;
  lastDailySpin: Date | null;
  archived: boolean;
}

/**
 * Locks the player's row: the first statement of every money transaction. With `skipLocked` a player
 * whose row is locked by another transaction is skipped (null) instead of waited for.
 */
export async function lockPlayer(em: EntityManager, playerId: string, skipLocked = false): Promise<LockedPlayer | null> {
  const rows = await sqlRows<Row<"players", "id" | "balance" | "last_daily_spin" | "archived_at">>(
    em,
    `SELECT id, balance, last_daily_spin, archived_at FROM players WHERE id = $1 FOR UPDATE${skipLocked ? " SKIP LOCKED" : ""}`,
    [playerId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    balance: Number(row.balance),
    lastDailySpin: row.last_daily_spin ? new Date(row.last_daily_spin) : null,
    archived: row.archived_at !== null,
  };
}

export interface SeedRow {
  id: string;
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

export interface OpenRoundRow {
  id: string;
  game: string;
  requestId: string;
  params: unknown;
  actions: unknown[];
  state: unknown;
  totalStake: number;
  totalPayout: number;
  nonce: number;
  cursor: number;
  lastActionAt: string;
  seed: SeedRow;
  /** False once the round's seed is no longer the active one (it must then be voided, never continued). */
  seedActive: boolean;
}

/** readPlayerMoney's one row: JSON objects built in SQL (numbers as JSON numbers, timestamps as strings). */
interface MoneyRead {
  seed: SeedRow | null;
  next_hash: string | null;
  round: OpenRoundRow | null;
  stored: StoredAnswer | null;
}

interface StoredAnswer {
  kind: string;
  fingerprint: string;
  response: unknown;
}

/** What a money transaction knows once the player is locked. */
export interface MoneyContext {
  player: LockedPlayer;
  seed: SeedRow;
  nextServerSeedHash: string;
  round: OpenRoundRow | null;
  writes: WriteBatch;
  /** The transaction, for reads (and guarded updates) whose answer the work needs before the batch runs. */
  em: EntityManager;
}

/** Active seed, next seed hash, open round and the stored answer, read in one statement under the lock. */
export async function readPlayerMoney(
  em: EntityManager,
  playerId: string,
  requestId: string | null,
): Promise<{ seed: SeedRow; nextServerSeedHash: string; round: OpenRoundRow | null; stored: StoredAnswer | null }> {
  const [row] = await sqlRows<MoneyRead>(
    em,
    `SELECT
       (SELECT json_build_object('id', s.id, 'serverSeed', s.server_seed, 'serverSeedHash', s.server_seed_hash, 'clientSeed', s.client_seed, 'nonce', s.nonce)
          FROM fairness_seeds s WHERE s.player_id = $1 AND s.active) AS seed,
       (SELECT n.server_seed_hash FROM next_server_seeds n WHERE n.player_id = $1) AS next_hash,
       (SELECT json_build_object('id', r.id, 'game', r.game, 'requestId', r.request_id, 'params', r.params, 'actions', r.actions,
               'state', r.state, 'totalStake', r.total_stake, 'totalPayout', r.total_payout, 'nonce', r.nonce, 'cursor', r.cursor,
               'lastActionAt', r.last_action_at, 'seed', json_build_object('id', s.id, 'serverSeed', s.server_seed, 'serverSeedHash', s.server_seed_hash, 'clientSeed', s.client_seed, 'nonce', r.nonce),
               'seedActive', s.active)
          FROM open_rounds r JOIN fairness_seeds s ON s.id = r.seed_id WHERE r.player_id = $1) AS round,
       (SELECT json_build_object('kind', p.kind, 'fingerprint', p.fingerprint, 'response', p.response)
          FROM processed_requests p WHERE p.player_id = $1 AND p.request_id = $2) AS stored`,
    [playerId, requestId],
  );
  if (!row?.seed || !row.next_hash) throw new AppError("no_seed", 500, "No active seed for this player");
  const seed = asSeed(row.seed);
  const round = row.round
    ? {
        ...row.round,
        totalStake: Number(row.round.totalStake),
        totalPayout: Number(row.round.totalPayout),
        nonce: Number(row.round.nonce),
        cursor: Number(row.round.cursor),
        seed: asSeed(row.round.seed),
      }
    : null;
  return { seed, nextServerSeedHash: row.next_hash, round, stored: row.stored ?? null };
}

const asSeed = (s: SeedRow): SeedRow => ({
  id: s.id,
  serverSeed: s.serverSeed,
  serverSeedHash: s.serverSeedHash,
  clientSeed: s.clientSeed,
  nonce: Number(s.nonce),
});

/**
 * The writes of one money transaction, sent as a single statement of data-modifying CTEs: one round trip
 * whatever the number of tables touched. Each part must touch a different row (a row may not be
 * modified twice in one statement).
 */
export class WriteBatch {
  private readonly parts: string[] = [];
  private readonly values: unknown[] = [];

  /** A placeholder for `value`. */
  p(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Adds a statement; answers the name a later part can read its RETURNING rows by. */
  add(statement: string): string {
    this.parts.push(statement);
    return `w${this.parts.length - 1}`;
  }

  async run(em: EntityManager): Promise<void> {
    if (this.parts.length === 0) return;
    const ctes = this.parts.map((statement, i) => `w${i} AS (${statement})`).join(",\n");
    await sqlRows(em, `WITH ${ctes} SELECT 1`, this.values);
  }
}

/** The unique constraint of `open_rounds.player_id`: a player has at most one open round. */
const OPEN_ROUND_CONSTRAINT = "open_rounds_player_id_key";
/** The unique (player, request id) of `ledger_entries`: entries outlive the stored answers of their requests. */
const LEDGER_REQUEST_CONSTRAINT = "uq_ledger_player_request";

export type Replayable<T> = T & { replayed?: true };

/** Runs money requests exactly once per (player, request id), in the order of their player locks. */
export class MoneyRequests {
  constructor(
    private readonly db: Database,
    /** Told after each request that committed new work (never a replay, never a rollback). */
    private readonly committed: () => void = () => undefined,
  ) {}

  async run<T extends object>(request: MoneyRequest, work: (ctx: MoneyContext) => Promise<T>): Promise<Replayable<T>> {
    const fingerprint = fingerprintOf(request.kind, request.body);
    try {
      return await this.db.transaction(async (em) => {
        const player = await lockPlayer(em, request.playerId);
        if (!player) throw notFound("Player not found");
        if (player.archived) throw accountArchived();
        const { stored, ...state } = await readPlayerMoney(em, request.playerId, request.requestId);
        if (stored) return replayOf<T>(stored, request.kind, fingerprint);
        const writes = new WriteBatch();
        const answer = await work({ player, ...state, writes, em });
        writes.add(
          `INSERT INTO processed_requests (player_id, request_id, kind, fingerprint, response)
           VALUES (${writes.p(request.playerId)}, ${writes.p(request.requestId)}, ${writes.p(request.kind)}, ${writes.p(fingerprint)}, ${writes.p(JSON.stringify(answer))})`,
        );
        await writes.run(em);
        return answer;
      }).then((answer) => {
        if (!(answer as Replayable<T>).replayed) this.committed();
        return answer;
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof GameRuleError) throw new AppError(error.code, 400, error.message);
      // Never connected: nothing was sent, the caller says the casino is unavailable. Connected, then lost
      // or timed out: whether it committed is unknown, and a retry with the same id is safe.
      if (isConnectFailure(error)) throw error;
      if (isConnectionTrouble(error)) throw outcomeUnknown();
      if (sqlState(error) !== "23505") throw error;
      return this.afterUniqueViolation(error, request, fingerprint);
    }
  }

  /**
   * A unique violation: a copy of this request that committed first (answered with its answer), or one
   * of the two constraints that mean something to the player.
   */
  private async afterUniqueViolation<T>(error: unknown, request: MoneyRequest, fingerprint: string): Promise<Replayable<T>> {
    const { stored } = await this.db.run((em) => readPlayerMoney(em, request.playerId, request.requestId));
    if (stored) return replayOf<T>(stored, request.kind, fingerprint);
    const constraint = constraintOf(error);
    if (constraint === OPEN_ROUND_CONSTRAINT) throw conflict("Finish your open round first", "round_open");
    // The id moved coins once, long enough ago that its answer was pruned: it is never run twice.
    if (constraint === LEDGER_REQUEST_CONSTRAINT) throw requestIdReused();
    throw error;
  }
}

function replayOf<T>(stored: StoredAnswer, kind: RequestKind, fingerprint: string): Replayable<T> {
  // Answers stored before kinds were recorded have an empty kind: they are answered as before.
  if (stored.kind !== "" && (stored.kind !== kind || stored.fingerprint !== fingerprint)) throw requestIdReused();
  return { ...(stored.response as T), replayed: true };
}
