import type { EntityManager } from "typeorm";
import { isGuestId, type PlayerStatus } from "@casino/common";
import type { Database } from "../platform/db/database";
import { isUuid, sqlRows } from "../platform/db/sql";
import { AppError } from "../platform/errors";
import { actionsOn, type ActionView } from "./admin-actions";

export interface PlayerView {
  id: string;
  discordId: string;
  username: string;
  guest: boolean;
  status: PlayerStatus;
  balance: number;
  createdAt: string;
  lastSeenAt: string;
  archivedAt: string | null;
}

const PLAYER_COLUMNS = `id, discord_id, username, status, balance, created_at, last_seen_at, archived_at`;

const playerView = (r: Record<string, unknown>): PlayerView => ({
  id: r.id as string,
  discordId: r.discord_id as string,
  username: r.username as string,
  guest: isGuestId(r.discord_id as string),
  status: r.status as PlayerStatus,
  balance: Number(r.balance),
  createdAt: new Date(r.created_at as string).toISOString(),
  lastSeenAt: new Date(r.last_seen_at as string).toISOString(),
  archivedAt: r.archived_at ? new Date(r.archived_at as string).toISOString() : null,
});

/**
 * The player a command acts on, named exactly: by player id or by Discord (or guest) id. Names are not
 * unique, so a change is never made by name: `find` lists the candidates.
 */
export async function resolvePlayer(em: EntityManager, ref: string): Promise<PlayerView> {
  const rows = await sqlRows(
    em,
    isUuid(ref) ? `SELECT ${PLAYER_COLUMNS} FROM players WHERE id = $1` : `SELECT ${PLAYER_COLUMNS} FROM players WHERE discord_id = $1`,
    [ref],
  );
  if (!rows[0]) throw new AppError("not_found", 404, `No player has the id or Discord id "${ref}" (to search by name: find <text>)`);
  return playerView(rows[0]);
}

/** Players whose id or Discord id is `text`, or whose name contains it (any case); exact matches first. */
export function findPlayers(db: Database, text: string, limit = 20): Promise<PlayerView[]> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.run(async (em) => {
    const rows = await sqlRows(
      em,
      `SELECT ${PLAYER_COLUMNS}, (id::text = $1 OR discord_id = $1) AS exact FROM players
        WHERE id::text = $1 OR discord_id = $1 OR username ILIKE $2
        ORDER BY exact DESC, username, id LIMIT $3`,
      [text, pattern, limit],
    );
    return rows.map(playerView);
  });
}

export interface LedgerLine {
  id: number;
  at: string;
  delta: number;
  balanceAfter: number;
  reason: string;
  reference: string | null;
  /** the counter-party account: where the coins came from, or went to */
  account: string;
  requestId: string;
}

export interface RoundLine {
  id: string;
  at: string;
  game: string;
  stake: number;
  payout: number;
  result: string;
  requestId: string | null;
}

export interface PlayerDetails {
  player: PlayerView;
  /** The sum of the player's ledger entries (archived months by their checkpoints): equal to the balance, or the audit has a mismatch to show. */
  ledgerSum: number;
  /** Entries, archived ones included. */
  ledgerEntries: number;
  /** Rounds kept (an archived month's rounds are in its file only). */
  rounds: number;
  openRound: { id: string; game: string; totalStake: number; since: string } | null;
  /** Newest first. */
  ledger: LedgerLine[];
  recentRounds: RoundLine[];
  actions: ActionView[];
}

/**
 * The sum and count of a player's ledger entries, archived months included (their checkpoints,
 * `ledger_checkpoints_in_force`), and the count of their rounds kept: index-only scans of the player
 * indexes (`idx_ledger_player` carries the delta), not a heap page per entry, plus the player's few
 * checkpoint rows (a month each at most).
 */
export const PLAYER_SUMS = `SELECT COALESCE(sum(delta), 0) + (SELECT COALESCE(sum(amount), 0) FROM ledger_checkpoints_in_force WHERE player_id = $1) AS total,
        (count(*) + (SELECT COALESCE(sum(entries), 0) FROM ledger_checkpoints_in_force WHERE player_id = $1))::int AS entries,
        (SELECT count(*)::int FROM game_sessions WHERE player_id = $1) AS rounds
   FROM ledger_entries WHERE player_id = $1`;

/** A player's balance, latest ledger entries and rounds, open round and what operators did to them. */
export function playerDetails(db: Database, ref: string, limits: { ledger: number; rounds: number }): Promise<PlayerDetails> {
  return db.run(async (em) => {
    const player = await resolvePlayer(em, ref);
    const [sums] = await sqlRows(em, PLAYER_SUMS, [player.id]);
    const ledger = await sqlRows(
      em,
      `SELECT id, created_at, delta, balance_after, reason, reference, account, request_id FROM ledger_entries
        WHERE player_id = $1 ORDER BY id DESC LIMIT $2`,
      [player.id, limits.ledger],
    );
    const rounds = await sqlRows(
      em,
      `SELECT id, created_at, game_type, bet_amount, payout, result, request_id FROM game_sessions
        WHERE player_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [player.id, limits.rounds],
    );
    const [open] = await sqlRows(em, `SELECT id, game, total_stake, created_at FROM open_rounds WHERE player_id = $1`, [player.id]);
    return {
      player,
      ledgerSum: Number(sums!.total),
      ledgerEntries: Number(sums!.entries),
      rounds: Number(sums!.rounds),
      openRound: open
        ? {
            id: open.id as string,
            game: open.game as string,
            totalStake: Number(open.total_stake),
            since: new Date(open.created_at as string).toISOString(),
          }
        : null,
      ledger: ledger.map((r) => ({
        id: Number(r.id),
        at: new Date(r.created_at as string).toISOString(),
        delta: Number(r.delta),
        balanceAfter: Number(r.balance_after),
        reason: r.reason as string,
        reference: (r.reference as string | null) ?? null,
        account: r.account as string,
        requestId: r.request_id as string,
      })),
      recentRounds: rounds.map((r) => ({
        id: r.id as string,
        at: new Date(r.created_at as string).toISOString(),
        game: r.game_type as string,
        stake: Number(r.bet_amount),
        payout: Number(r.payout),
        result: r.result as string,
        requestId: (r.request_id as string | null) ?? null,
      })),
      actions: await actionsOn(em, player.id, 10),
    };
  });
}
