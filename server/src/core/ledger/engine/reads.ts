import type { EntityManager } from "typeorm";
import type { FairnessInput, PlayerStatus, RoundingRule } from "@casino/common";
import type { Row } from "../../../platform/db/rows";
import { sqlRows } from "../../../platform/db/sql";
import type { Pipe } from "../../../platform/db/pipeline";
import { AppError } from "../../../platform/errors";

/**
 * The engine's reads, all under the player's lock: the player's row (the lock itself), and in one
 * statement the active seed, the next seed's hash, the open round and the request's stored answer.
 */

/** The player's row, locked for the rest of the transaction. */
export interface LockedPlayer {
  id: string;
  balance: number;
  lastDailySpin: Date | null;
  archived: boolean;
  status: PlayerStatus;
}

/**
 * Locks the player's row: the first statement of every money transaction. With `skipLocked` a player
 * whose row is locked by another transaction is skipped (null) instead of waited for.
 */
export async function lockPlayer(em: EntityManager, playerId: string, skipLocked = false): Promise<LockedPlayer | null> {
  const rows = await sqlRows<Row<"players", LockedColumns>>(
    em,
    `SELECT id, balance, last_daily_spin, archived_at, status FROM players WHERE id = $1 FOR NO KEY UPDATE${skipLocked ? " SKIP LOCKED" : ""}`,
    [playerId],
  );
  return rows[0] ? lockedPlayerOf(rows[0]) : null;
}

type LockedColumns = "id" | "balance" | "last_daily_spin" | "archived_at" | "status";

const lockedPlayerOf = (row: Row<"players", LockedColumns>): LockedPlayer => ({
  id: row.id,
  balance: Number(row.balance),
  lastDailySpin: row.last_daily_spin ? new Date(row.last_daily_spin) : null,
  archived: row.archived_at !== null,
  status: row.status,
});

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
  /** the opening bet */
  amount: number;
  params: unknown;
  actions: unknown[];
  state: unknown;
  totalStake: number;
  totalPayout: number;
  nonce: number;
  cursor: number;
  /** the payout rounding rule the round is played under */
  rounding: RoundingRule;
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

export interface StoredAnswer {
  kind: string;
  fingerprint: string;
  response: unknown;
}

/**
 * The select list that reads, for the player `player` and the request id `request` (SQL expressions),
 * the active seed, the next seed's hash, the open round and the stored answer.
 */
const moneyColumns = (player: string, request: string) => `
       (SELECT json_build_object('id', s.id, 'serverSeed', s.server_seed, 'serverSeedHash', s.server_seed_hash, 'clientSeed', s.client_seed, 'nonce', s.nonce)
          FROM fairness_seeds s WHERE s.player_id = ${player} AND s.active) AS seed,
       (SELECT n.server_seed_hash FROM next_server_seeds n WHERE n.player_id = ${player}) AS next_hash,
       (SELECT json_build_object('id', r.id, 'game', r.game, 'requestId', r.request_id, 'amount', r.amount, 'params', r.params, 'actions', r.actions,
               'state', r.state, 'totalStake', r.total_stake, 'totalPayout', r.total_payout, 'nonce', r.nonce, 'cursor', r.cursor,
               'rounding', r.rounding, 'lastActionAt', r.last_action_at, 'seed', json_build_object('id', s.id, 'serverSeed', s.server_seed, 'serverSeedHash', s.server_seed_hash, 'clientSeed', s.client_seed, 'nonce', r.nonce),
               'seedActive', s.active)
          FROM open_rounds r JOIN fairness_seeds s ON s.id = r.seed_id WHERE r.player_id = ${player}) AS round,
       (SELECT json_build_object('kind', p.kind, 'fingerprint', p.fingerprint, 'response', p.response)
          FROM processed_requests p WHERE p.player_id = ${player} AND p.request_id = ${request}) AS stored`;

export interface PlayerMoney {
  seed: SeedRow;
  nextServerSeedHash: string;
  round: OpenRoundRow | null;
  stored: StoredAnswer | null;
}

function playerMoneyOf(row: MoneyRead | undefined): PlayerMoney {
  if (!row?.seed || !row.next_hash) throw new AppError("no_seed", 500, "No active seed for this player");
  const seed = asSeed(row.seed);
  const round = row.round
    ? {
        ...row.round,
        amount: Number(row.round.amount),
        totalStake: Number(row.round.totalStake),
        totalPayout: Number(row.round.totalPayout),
        nonce: Number(row.round.nonce),
        cursor: Number(row.round.cursor),
        seed: asSeed(row.round.seed),
      }
    : null;
  return { seed, nextServerSeedHash: row.next_hash, round, stored: row.stored ?? null };
}

/** Active seed, next seed hash, open round and the stored answer, read in one statement under the lock. */
export async function readPlayerMoney(em: EntityManager, playerId: string, requestId: string | null): Promise<PlayerMoney> {
  const [row] = await sqlRows<MoneyRead>(em, `SELECT ${moneyColumns("$1", "$2")}`, [playerId, requestId]);
  return playerMoneyOf(row);
}

/** One request's view of its player, read in a batch (`money` throws what reading it alone would have). */
export interface RequestState {
  player: LockedPlayer | null;
  money: () => PlayerMoney;
}

/**
 * The players' rows and money state for many requests (each of a different player, all locked by this
 * transaction), in one statement, in the order of `requests`.
 */
export async function readRequestStates(pipe: Pipe, requests: { playerId: string; requestId: string }[]): Promise<RequestState[]> {
  const rows = await pipe.send<MoneyRead & Partial<Row<"players", LockedColumns>>>(
    `SELECT pl.id, pl.balance, pl.last_daily_spin, pl.archived_at, pl.status, ${moneyColumns("q.player_id", "q.request_id")}
       FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS q(player_id, request_id, i)
       LEFT JOIN players pl ON pl.id = q.player_id
      ORDER BY q.i`,
    [requests.map((r) => r.playerId), requests.map((r) => r.requestId)],
    true,
  );
  return rows.map((row) => ({
    player: row.id ? lockedPlayerOf(row as Row<"players", LockedColumns>) : null,
    money: () => playerMoneyOf(row),
  }));
}

const asSeed = (s: SeedRow): SeedRow => ({
  id: s.id,
  serverSeed: s.serverSeed,
  serverSeedHash: s.serverSeedHash,
  clientSeed: s.clientSeed,
  nonce: Number(s.nonce),
});

/** The fairness input of the seed pair's next draw. */
export const fairnessOf = (seed: SeedRow): FairnessInput => ({
  serverSeed: seed.serverSeed,
  clientSeed: seed.clientSeed,
  nonce: seed.nonce,
});
